/**
 * The typed surface compiles and types what it promises: output generated with `tools` (the server-everything
 * snapshot; the same as one index.ts with `singleFile`; the golden fixture's, whose schema has neither
 * tools/list nor prompts/get; names.snapshot.json's, whose tools are named `__proto__`, `constructor`, `1st-tool`) compiles under tsconfig.strictest.json with type-tests/tools.ts beside it, every
 * `@ts-expect-error [tag]` failing as expected; then, with the surface's types loosened to `any`, each of those
 * directives must become unused, so none passes by accident.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { ROOT, tempDir, type RunResult } from '../helpers/generate.js';
import { tscBuild } from '../helpers/tsc-build.js';
import { replaceDeclaration, taggedDirectives } from '../helpers/type-tests.js';
import { buildWithTools, GOLDEN_FIXTURE } from './tools-build.js';

const TYPE_TESTS = join(ROOT, 'test', 'snapshot', 'type-tests');
const LOOSENED = ['ToolCalls', 'PromptCalls', 'ToolHandlers', 'TypedToolResult<S>'];

/** A tsc project of the directory, under the strictest settings generated code must meet. */
function writeTsconfig(dir: string): void {
  const config = {
    extends: join(ROOT, 'tsconfig.strictest.json'),
    compilerOptions: { lib: ['ES2022', 'DOM'], types: [], skipLibCheck: true },
    include: ['*.ts', 'generated*/**/*.ts'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
}

/** `error TS…` lines of a tsc result. */
const errorsOf = (result: RunResult): string[] =>
  `${result.stdout}${result.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l));

/** The program, and a copy with the surface types loosened to any, compiled by one tsc process. */
let results: Promise<readonly [RunResult, RunResult]>;

beforeAll(async () => {
  const [everything, single, golden, names] = await Promise.all([
    buildWithTools('tools-types'),
    buildWithTools('tools-types-single', { singleFile: true }),
    buildWithTools('tools-types-golden', {
      spec: undefined,
      schema: join(GOLDEN_FIXTURE, 'schema.json'),
      extensions: [join(GOLDEN_FIXTURE, 'golden.extension.json')],
      tools: join(GOLDEN_FIXTURE, 'tools.snapshot.json'),
    }),
    buildWithTools('tools-names', { tools: join(ROOT, 'test', 'fixtures', 'snapshots', 'names.snapshot.json') }),
  ]);
  const dir = tempDir('tools-type-tests');
  cpSync(join(everything.dir, 'generated'), join(dir, 'generated'), { recursive: true });
  cpSync(join(single.dir, 'generated'), join(dir, 'generated-single'), { recursive: true });
  cpSync(join(golden.dir, 'generated'), join(dir, 'generated-golden'), { recursive: true });
  cpSync(join(names.dir, 'generated'), join(dir, 'generated-names'), { recursive: true });
  cpSync(join(TYPE_TESTS, 'tools.ts'), join(dir, 'tools.ts'));
  cpSync(join(TYPE_TESTS, 'names.ts'), join(dir, 'names.ts'));
  const loose = tempDir('tools-type-tests-loose');
  cpSync(join(dir, 'generated'), join(loose, 'generated'), { recursive: true });
  cpSync(join(dir, 'tools.ts'), join(loose, 'tools.ts'));
  for (const name of LOOSENED) {
    const bare = name.replace(/<.*$/, '');
    replaceDeclaration(join(loose, 'generated', 'tools.ts'), bare, `export type ${name} = any;`);
  }
  writeTsconfig(dir);
  writeTsconfig(loose);
  results = tscBuild([dir, loose]);
});

it('has tagged negative tests for each case', () => {
  expect([...taggedDirectives(TYPE_TESTS).values()].sort()).toEqual(
    [
      'misspelled-tool',
      'wrong-argument-type',
      'missing-argument',
      'unknown-argument',
      'misspelled-prompt-argument',
      'structured-content-typed',
      'missing-handler',
      'handler-wrong-structured-content',
      'handler-wrong-argument-type',
      'drift-removed-name',
      'drift-changed-name',
      'drift-event-name',
    ].sort(),
  );
});

it('compiles under tsconfig.strictest.json: every expected error happens, nothing else fails', async () => {
  expect(errorsOf((await results)[0])).toEqual([]);
});

it('with the surface types loosened to any, every @ts-expect-error becomes unused', async () => {
  const unused = errorsOf((await results)[1])
    .map((line) => /^(.+?)\((\d+),\d+\): error TS2578: Unused '@ts-expect-error' directive\./.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]}:${m[2]}`);
  expect(unused.sort()).toEqual([...taggedDirectives(TYPE_TESTS).keys()].sort());
});
