/**
 * The suite tests the code on disk: the global setup (test/setup/fresh-builds.ts) rebuilds every build older
 * than its sources before any test runs. These tests hold the two halves of that promise: the builds this run
 * uses match the sources, and the staleness check notices a change in any build's inputs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { ROOT, TMP } from '../helpers/paths.js';

const SCRIPT = join(ROOT, 'scripts', 'build.mjs');

interface BuildScript {
  BUILDS: Record<string, { out: string; inputs: string[] }>;
  fingerprint(root: string, inputs: string[]): string;
  staleBuilds(root: string, names?: string[]): string[];
}
const script = (await import(pathToFileURL(SCRIPT).href)) as BuildScript;

it('the builds this run uses were made from the sources on disk', () => {
  // --status without names: the eager builds, those the global setup made fresh (types is built on demand).
  expect(execFileSync(process.execPath, [SCRIPT, '--status'], { encoding: 'utf8' }).trim()).toBe('fresh');
});

const tree = join(TMP, 'fresh-builds');
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(tree, path)), { recursive: true });
  writeFileSync(join(tree, path), text);
};
/** Stamp every build of the little tree as `npm run build` would after building it. */
const stampAll = () => {
  for (const [name, build] of Object.entries(script.BUILDS))
    write(join(build.out, `.build-inputs.${name}`), script.fingerprint(tree, build.inputs));
};

beforeEach(() => {
  rmSync(tree, { recursive: true, force: true });
  for (const build of Object.values(script.BUILDS))
    for (const input of build.inputs) write(input.includes('.') ? input : join(input, 'a.ts'), `// ${input}\n`);
  stampAll();
});

it('a fresh tree has nothing stale', () => {
  expect(script.staleBuilds(tree)).toEqual([]);
});

it('an edited template makes the runtime build stale, and the tool build (its snapshot client is the runtime)', () => {
  write('templates/a.ts', '// edited\n');
  expect(script.staleBuilds(tree)).toEqual(['tool', 'types', 'runtime']);
});

it('an edited, added or removed source file makes the tool build and its declarations stale', () => {
  write('src/a.ts', '// edited\n');
  expect(script.staleBuilds(tree)).toEqual(['tool', 'types']);
  stampAll();
  write('src/deep/b.ts', '// added\n');
  expect(script.staleBuilds(tree)).toEqual(['tool', 'types']);
  stampAll();
  rmSync(join(tree, 'src/deep/b.ts'));
  expect(script.staleBuilds(tree)).toEqual(['tool', 'types']);
});

it('the build script itself and the package manifests are inputs of the builds they shape', () => {
  write('package.json', '{}\n');
  expect(script.staleBuilds(tree)).toEqual(['tool', 'types']);
  stampAll();
  write('scripts/build.mjs', '// edited\n');
  expect(script.staleBuilds(tree)).toEqual(['tool', 'types', 'runtime']);
  stampAll();
  write('scripts/transpile.mjs', '// edited\n');
  expect(script.staleBuilds(tree)).toEqual(['tool', 'runtime']);
  stampAll();
  write('tsconfig.build.json', '{}\n');
  expect(script.staleBuilds(tree)).toEqual(['types']);
});

it('rewriting a file with the same bytes changes nothing; a deleted build is stale', () => {
  write('templates/a.ts', '// templates\n');
  expect(script.staleBuilds(tree)).toEqual([]);
  rmSync(join(tree, 'packages/runtime/dist'), { recursive: true });
  expect(script.staleBuilds(tree)).toEqual(['runtime']);
  // The declarations' stamp is inside dist/src: a tool build that starts over, emptying it, leaves them stale.
  rmSync(join(tree, 'dist/src'), { recursive: true });
  expect(script.staleBuilds(tree)).toEqual(['types', 'runtime']);
});

describe('the per-file transpiler (scripts/transpile.mjs) rewrites what changed and nothing else', () => {
  interface Transpiler {
    sourcesBelow(root: string, dirs: string[]): string[];
    transpile(build: {
      root: string;
      outDir: string;
      sources: string[];
      targets: { dir: string; module: 'esm' | 'commonjs'; declarations?: boolean }[];
    }): { written: number; deleted: number };
  }
  const transpiler = import(pathToFileURL(join(ROOT, 'scripts', 'transpile.mjs')).href) as Promise<Transpiler>;
  const out = join(tree, 'out');
  const build = async () => {
    const { sourcesBelow, transpile } = await transpiler;
    return transpile({
      root: tree,
      outDir: out,
      sources: sourcesBelow(tree, ['src']),
      targets: [
        { dir: 'esm', module: 'esm' },
        { dir: 'cjs', module: 'commonjs', declarations: false },
      ],
    });
  };
  const read = (path: string) => readFileSync(join(out, path), 'utf8');

  it('edits, additions and removals reach the outputs; an untouched file is not rewritten', async () => {
    write('src/a.ts', 'export const a: number = 1;\n');
    write('src/deep/b.ts', "export { a } from '../a.js';\n");
    write('out/esm/src/stray.js', 'left by an earlier build of something else\n');
    expect(await build()).toEqual({ written: 2, deleted: 0 });
    // No manifest: the output folders were started over.
    expect(existsSync(join(out, 'esm/src/stray.js'))).toBe(false);
    expect(read('esm/src/a.js')).toContain('export const a = 1;');
    expect(read('esm/src/a.d.ts')).toContain('export declare const a: number;');
    expect(read('cjs/src/a.js')).toContain('exports.a = 1;');
    expect(existsSync(join(out, 'cjs/src/a.d.ts'))).toBe(false);

    expect(await build()).toEqual({ written: 0, deleted: 0 });
    write('src/a.ts', 'export const a: number = 2;\n');
    expect(await build()).toEqual({ written: 1, deleted: 0 });
    expect(read('esm/src/a.js')).toContain('export const a = 2;');
    rmSync(join(out, 'cjs/src/deep/b.js'));
    expect(await build()).toEqual({ written: 1, deleted: 0 });
    expect(existsSync(join(out, 'cjs/src/deep/b.js'))).toBe(true);
    rmSync(join(tree, 'src/deep/b.ts'));
    expect(await build()).toEqual({ written: 0, deleted: 1 });
    expect(existsSync(join(out, 'esm/src/deep/b.js'))).toBe(false);
    expect(existsSync(join(out, 'esm/src/deep/b.d.ts'))).toBe(false);
  });

  it('refuses a declaration it cannot write from the file alone, naming file and line', async () => {
    write('src/a.ts', 'const one = 1;\nexport const a = [one];\n');
    await expect(build()).rejects.toThrow(/src\/a\.ts:2: .*isolatedDeclarations/);
  });
});
