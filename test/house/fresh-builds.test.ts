/**
 * The suite tests the code on disk: the global setup (test/setup/fresh-builds.ts) rebuilds every build older
 * than its sources before any test runs. These tests hold the two halves of that promise: the builds this run
 * uses match the sources, and the staleness check notices a change in any build's inputs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, expect, it } from 'vitest';
import { ROOT, TMP } from '../helpers/paths.js';

const SCRIPT = join(ROOT, 'scripts', 'build.mjs');

interface BuildScript {
  BUILDS: Record<string, { out: string; inputs: string[] }>;
  fingerprint(root: string, inputs: string[]): string;
  staleBuilds(root: string): string[];
}
const script = (await import(pathToFileURL(SCRIPT).href)) as BuildScript;

it('the builds this run uses were made from the sources on disk', () => {
  expect(execFileSync(process.execPath, [SCRIPT, '--status'], { encoding: 'utf8' }).trim()).toBe('fresh');
});

const tree = join(TMP, 'fresh-builds');
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(tree, path)), { recursive: true });
  writeFileSync(join(tree, path), text);
};
/** Stamp every build of the little tree as `npm run build` would after building it. */
const stampAll = () => {
  for (const build of Object.values(script.BUILDS))
    write(join(build.out, '.build-inputs'), script.fingerprint(tree, build.inputs));
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
  expect(script.staleBuilds(tree)).toEqual(['tool', 'runtime']);
});

it('an edited, added or removed source file makes the tool build stale', () => {
  write('src/a.ts', '// edited\n');
  expect(script.staleBuilds(tree)).toEqual(['tool']);
  stampAll();
  write('src/deep/b.ts', '// added\n');
  expect(script.staleBuilds(tree)).toEqual(['tool']);
  stampAll();
  rmSync(join(tree, 'src/deep/b.ts'));
  expect(script.staleBuilds(tree)).toEqual(['tool']);
});

it('the build script itself and the package manifests are inputs of the builds they shape', () => {
  write('package.json', '{}\n');
  expect(script.staleBuilds(tree)).toEqual(['tool']);
  stampAll();
  write('scripts/build.mjs', '// edited\n');
  expect(script.staleBuilds(tree)).toEqual(['tool', 'runtime']);
});

it('rewriting a file with the same bytes changes nothing; a deleted build is stale', () => {
  write('templates/a.ts', '// templates\n');
  expect(script.staleBuilds(tree)).toEqual([]);
  rmSync(join(tree, 'packages/runtime/dist'), { recursive: true });
  expect(script.staleBuilds(tree)).toEqual(['runtime']);
});
