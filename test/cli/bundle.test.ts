/**
 * The published bin is a bundle split into chunks (scripts/bundle-cli.mjs): `generate --check` on
 * up-to-date output runs from it without loading the generator — none of ts-morph (and its TypeScript),
 * typescript, prettier, json-schema-to-typescript or ajv — while `generate` loads them as it needs them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { CLI, outsideTempDir, SCHEMA_DIR } from './helpers.js';

const dir = outsideTempDir('bundle');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Appends every module the child resolves (ESM through a resolve hook, CommonJS through Module._load). */
const RESOLVE_HOOK = `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  appendFileSync(process.env.LOADED_FILE, found.url + '\\n');
  return found;
}`)}`;
const HOOK = `data:text/javascript,${encodeURIComponent(`
import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';
register(${JSON.stringify(RESOLVE_HOOK)});
const load = Module._load;
Module._load = function (request, parent, isMain) {
  appendFileSync(process.env.LOADED_FILE, Module._resolveFilename(request, parent, isMain) + '\\n');
  return load.apply(this, arguments);
};`)}`;

function loadedBy(args: string[], loadedFile: string) {
  const run = spawnSync(process.execPath, ['--import', HOOK, CLI, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', LOADED_FILE: loadedFile },
  });
  const files = readFileSync(loadedFile, 'utf8')
    .split('\n')
    .map((f) => f.replace(/^file:\/\//, '').replaceAll('\\', '/'));
  return { run, files };
}

/** Bundled packages, by the `// node_modules/<name>/…` comments esbuild writes above each module. */
function bundledPackages(files: string[]): Set<string> {
  const chunks = files.filter((f) => /\/dist\/cli\/[^/]+\.js$/.test(f));
  const found = new Set<string>();
  for (const chunk of new Set(chunks))
    for (const m of readFileSync(chunk, 'utf8').matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm))
      found.add(m[1]!);
  return found;
}

it('generates from the bundled bin; --check on its output loads none of the generator', () => {
  const pkg = JSON.parse(readFileSync(join(CLI, '..', '..', '..', 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  expect(join(CLI, '..', '..', '..', pkg.bin['mcp-typegen']!)).toBe(CLI);
  const out = join(dir, 'out');
  const spec = ['--spec', '2024-11-05', '--schema-dir', SCHEMA_DIR, '--out', out];
  const generated = loadedBy(['generate', ...spec], join(dir, 'loaded-generate.txt'));
  expect(generated.run.stderr).toBe('');
  expect(generated.run.status).toBe(0);
  expect(existsSync(join(out, 'validators.js'))).toBe(true);
  // The generator's libraries, where it really loads them.
  for (const pkgName of ['ts-morph', 'prettier'])
    expect(generated.files.some((f) => f.includes(`/node_modules/${pkgName}/`))).toBe(true);
  // yargs is bundled (scripts/bundle-cli.mjs): its copy in node_modules is never resolved.
  expect(generated.files.filter((f) => f.includes('/node_modules/yargs/'))).toEqual([]);
  expect([...bundledPackages(generated.files)]).toEqual(
    expect.arrayContaining(['json-schema-to-typescript', 'ajv', 'yargs']),
  );

  const checked = loadedBy(['generate', ...spec, '--check'], join(dir, 'loaded-check.txt'));
  expect(checked.run.stdout).toMatch(/up to date/);
  expect(checked.run.status).toBe(0);
  expect(checked.files.some((f) => f.endsWith('/dist/cli/main.js'))).toBe(true);
  for (const pkgName of ['ts-morph', '@ts-morph', 'typescript', 'prettier'])
    expect(checked.files.filter((f) => f.includes(`/node_modules/${pkgName}/`))).toEqual([]);
  const bundled = bundledPackages(checked.files);
  expect([...bundled].filter((p) => ['json-schema-to-typescript', 'ajv', 'lodash'].includes(p))).toEqual([]);
});

it('validates a config file with the bundled ajv, not a second copy from node_modules', () => {
  const project = join(dir, 'with-config');
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'mcp-typegen.config.json'),
    JSON.stringify({ targets: [{ name: 'mcp', spec: '2024-11-05', out: 'mcp', artifacts: ['types'] }] }),
  );
  const loadedFile = join(project, 'loaded.json');
  const env = { ...process.env, NO_COLOR: '1', LOADED_FILE: loadedFile, MCP_SCHEMA_DIR: SCHEMA_DIR };
  const run = spawnSync(process.execPath, ['--import', HOOK, CLI, 'generate'], { cwd: project, encoding: 'utf8', env });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(existsSync(join(project, 'mcp', 'types.ts'))).toBe(true);
  const loaded = readFileSync(loadedFile, 'utf8').replaceAll('\\', '/');
  expect(loaded).not.toMatch(/\/node_modules\/ajv\//);
});
