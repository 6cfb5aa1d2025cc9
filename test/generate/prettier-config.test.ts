/**
 * Output is formatted as the user's own prettier would format it: the prettier config that applies to the
 * output directory and the `.editorconfig` it reads, over prettier's defaults (never the tool's own style), so
 * `prettier --check` passes whatever the config says. `--check` keeps its fast path for every config form, and
 * watch mode follows config files edited or created while it runs.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/generate.js';
import { targetInputs } from '../../src/inputs.js';
import { startWatch } from '../../src/run/watch.js';
import { writeOutput } from '../../src/write/write.js';
import { captureOut, outsideTempDir } from '../cli/helpers.js';
import { ROOT as REPO_ROOT, SCHEMA_DIR, tempDir } from '../helpers/generate.js';

const PRETTIER = join(REPO_ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs');

describe('a prettier config in the output directory', () => {
  it('is honoured by every formatted file, runtime included; without one the defaults apply', async () => {
    const withConfig = tempDir('prettier-config');
    writeFileSync(
      join(withConfig, '.prettierrc.json'),
      JSON.stringify({ semi: false, useTabs: true, singleQuote: false }),
    );
    const styled = await generate({
      spec: '2024-11-05',
      schemaDir: SCHEMA_DIR,
      outDir: withConfig,
      artifacts: ['client'],
      runtime: 'copy',
    });
    const plain = await generate({
      spec: '2024-11-05',
      schemaDir: SCHEMA_DIR,
      outDir: tempDir('prettier-default'),
      artifacts: ['client'],
      runtime: 'copy',
    });
    const file = (result: typeof styled, path: string) => result.files.find((f) => f.path === path)!.contents;

    for (const path of ['maps.ts', 'client.ts', 'types.ts', 'runtime/core/peer.ts']) {
      const text = file(styled, path);
      expect(text, path).toMatch(/^\t\S/m);
      expect(text, path).not.toMatch(/^ {2}\S/m);
      expect(text, path).toMatch(path === 'types.ts' ? /jsonrpc: "2\.0"/ : /from "\.\.?\//);
      expect(text, path).not.toMatch(/;\n/);
      const defaults = file(plain, path);
      expect(defaults, path).toMatch(/^ {2}\S/m);
      expect(defaults, path).toMatch(/;\n/);
    }
  }, 120_000);
});

/** Each way a project can say how it formats, as files written into the project's root. */
const CONFIG_FORMS: Record<string, Record<string, string>> = {
  none: {},
  'an empty .prettierrc.json': { '.prettierrc.json': '{}\n' },
  '{ "semi": false }': { '.prettierrc': '{ "semi": false }\n' },
  'YAML .prettierrc.yaml': { '.prettierrc.yaml': 'singleQuote: true\nprintWidth: 100\n' },
  '.editorconfig only': { '.editorconfig': 'root = true\n[*]\nindent_style = tab\nmax_line_length = 70\n' },
  'a prettier.config.mjs': { 'prettier.config.mjs': 'export default { semi: false, tabWidth: 4 };\n' },
  'package.json naming a shared config': {
    'package.json': JSON.stringify({ name: 'app', prettier: 'shared-style' }),
    'node_modules/shared-style/package.json': JSON.stringify({ name: 'shared-style', main: 'index.json' }),
    'node_modules/shared-style/index.json': '{ "singleQuote": true, "trailingComma": "none" }\n',
  },
  'package.yaml with a prettier key': { 'package.yaml': 'name: app\nprettier:\n  bracketSpacing: false\n' },
};

/** A project outside the repository (its own .prettierrc.json and .editorconfig must not apply), with `files`. */
function project(files: Record<string, string>): string {
  const dir = outsideTempDir('prettier-forms');
  mkdirSync(join(dir, '.git'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe.each(Object.entries(CONFIG_FORMS))('a project formatted by %s', (_form, files) => {
  it("passes the project's own prettier --check, and --check keeps its fast path", async () => {
    const dir = project(files);
    const outDir = join(dir, 'src', 'mcp');
    const options = { spec: '2025-11-25', schemaDir: SCHEMA_DIR, cwd: dir, outDir, artifacts: ['client' as const] };
    const result = await generate(options);
    await writeOutput(outDir, result.files, result.inputsHash, 'test', result.formatted);
    // validators.js is left as ajv writes it (a megabyte of it through prettier costs more than the rest);
    // `init` puts the output in .prettierignore for that.
    writeFileSync(join(dir, '.prettierignore'), 'src/mcp/validators.js\n');
    const check = await promisify(execFile)(process.execPath, [PRETTIER, '--check', 'src/mcp'], { cwd: dir }).catch(
      (error: { stdout: string; stderr: string }) => error,
    );
    expect(`${check.stdout}${check.stderr}`).toContain('All matched files use Prettier code style!');
    // The fast path: the hash from disk exists and is the one the run recorded.
    expect(result.inputsHash).toBeDefined();
    expect((await targetInputs(options)).hash).toBe(result.inputsHash);
  }, 60_000);
});

it('--check sees an edit of a config written as code, of a shared config package, and of an .editorconfig', async () => {
  const dir = project({ ...CONFIG_FORMS['package.json naming a shared config'], '.editorconfig': '[*]\n' });
  const options = { spec: '2025-11-25', schemaDir: SCHEMA_DIR, cwd: dir, outDir: join(dir, 'out') };
  // Each hash in a process of its own, as each `generate --check` is (Node keeps a config module it imported).
  const script = `const { targetInputs } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/src/inputs.js')).href)});
    console.log((await targetInputs(JSON.parse(process.argv[1]))).hash);`;
  const hash = async () =>
    (
      await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(options)])
    ).stdout.trim();
  const hashes = [await hash()];
  writeFileSync(join(dir, 'node_modules/shared-style/index.json'), '{ "singleQuote": false }\n');
  hashes.push(await hash());
  writeFileSync(join(dir, '.editorconfig'), '[*]\nindent_style = tab\n');
  hashes.push(await hash());
  writeFileSync(join(dir, 'prettier.config.mjs'), 'export default { semi: false };\n');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app' }));
  hashes.push(await hash());
  expect(new Set(hashes).size).toBe(4);
  expect(hashes.every((h) => /^[0-9a-f]{64}$/.test(h))).toBe(true);
}, 60_000);

it('watch mode follows a config file created, then edited, while it runs: the files and the hash agree', async () => {
  const dir = project({});
  const outDir = join(dir, 'out');
  const target = {
    label: 'w',
    outDir,
    options: { spec: '2025-11-25', schemaDir: SCHEMA_DIR, cwd: dir, outDir, artifacts: ['types' as const] },
  };
  const controller = new AbortController();
  const runs: { ok: boolean; changed: string[] }[] = [];
  let wake: (() => void) | undefined;
  const next = () => new Promise<void>((resolve) => (wake = resolve));
  let waiting = next();
  const done = startWatch([target], {
    signal: controller.signal,
    out: captureOut(),
    debounceMs: 50,
    onRun: (outcome) => {
      runs.push(outcome);
      wake?.();
    },
  });
  const step = async () => {
    await waiting;
    waiting = next();
    return runs[runs.length - 1]!;
  };
  const types = () => readFileSync(join(outDir, 'types.ts'), 'utf8');
  try {
    expect((await step()).ok).toBe(true);
    expect(types()).toMatch(/;\n/);
    writeFileSync(join(dir, '.prettierrc.json'), '{ "semi": false }\n');
    expect(await step()).toEqual({ ok: true, changed: [join(dir, '.prettierrc.json')] });
    expect(types()).not.toMatch(/;\n/);
    writeFileSync(join(dir, '.prettierrc.json'), '{ "semi": true, "useTabs": true }\n');
    expect((await step()).ok).toBe(true);
    expect(types()).toMatch(/;\n/);
    expect(types()).toMatch(/^\t\S/m);
    // What watch wrote is what a fresh generation writes, and --check's hash is the one it stamped.
    const fresh = await generate(target.options);
    expect(types()).toBe(fresh.files.find((f) => f.path === 'types.ts')?.contents);
    const manifest = readFileSync(join(outDir, '.mcp-typegen.json'), 'utf8');
    expect(manifest).toContain((await targetInputs(target.options)).hash);
  } finally {
    controller.abort();
    await done;
  }
}, 120_000);
