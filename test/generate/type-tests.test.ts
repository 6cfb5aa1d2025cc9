/**
 * Compiles test/generate/type-tests/*.ts against freshly generated 2025-11-25 output, then against a
 * copy whose helper types are loosened to `any`: every `@ts-expect-error [tag]` line must then be
 * reported unused, which proves the negative type tests really test something.
 */
import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, generated, tempDir, writeFiles, type RunResult } from '../helpers/generate.js';
import { tscProjects } from '../helpers/tsc-build.js';
import { replaceDeclaration, taggedDirectives } from '../helpers/type-tests.js';

/** types.ts and maps.ts need neither Node's types nor any .d.ts: keep the two compiler runs short. */
const TSC_OPTIONS = { node: false, skipLibCheck: true };
const TYPE_TESTS = join(ROOT, 'test', 'generate', 'type-tests');

function diagnostics(result: RunResult): string[] {
  return (result.stdout + result.stderr).split('\n').filter((l) => /error TS\d+/.test(l));
}

describe('type tests against generated 2025-11-25 maps', () => {
  /** The strict and the loosened program, compiled by one tsc process. */
  let results: Promise<readonly [RunResult, RunResult]>;
  beforeAll(async () => {
    const result = await generated('2025-11-25', { artifacts: ['types', 'maps'] });
    const dir = tempDir('type-tests');
    writeFiles(join(dir, 'generated'), result.files);
    for (const name of readdirSync(TYPE_TESTS).filter((n) => n.endsWith('.ts')))
      cpSync(join(TYPE_TESTS, name), join(dir, name));
    // The same with the generated types loosened: each @ts-expect-error must then become unused.
    const loose = tempDir('type-tests-loose');
    cpSync(dir, loose, { recursive: true });
    const maps = join(loose, 'generated', 'maps.ts');
    replaceDeclaration(maps, 'ParamsOf', 'export type ParamsOf<M> = any;');
    replaceDeclaration(maps, 'ResultOf', 'export type ResultOf<M> = any;');
    replaceDeclaration(maps, 'RequestOf', 'export type RequestOf<M> = any;');
    replaceDeclaration(maps, 'ClientRequestMethod', 'export type ClientRequestMethod = string;');
    replaceDeclaration(
      join(loose, 'generated', 'types.ts'),
      'CallToolResult',
      'export interface CallToolResult { [k: string]: any }',
    );
    results = tscProjects([
      [dir, TSC_OPTIONS],
      [loose, TSC_OPTIONS],
    ]);
  });

  it('has tagged negative tests for each case', () => {
    expect([...taggedDirectives(TYPE_TESTS).values()].sort()).toEqual(
      [
        'missing-field',
        'missing-params',
        'notification-as-request',
        'null-id',
        'server-method-from-client',
        'unknown-method',
        'wrong-params',
      ].sort(),
    );
  });

  it('compile with tsc --strict: every expected error happens, nothing else fails', async () => {
    const [result] = await results;
    expect(diagnostics(result)).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('fail when the generated types are loosened: each @ts-expect-error becomes unused', async () => {
    const [, result] = await results;
    expect(result.code).not.toBe(0);
    const unused = diagnostics(result)
      .map((line) => /^(.+?)\((\d+),\d+\): error TS2578: Unused '@ts-expect-error' directive\./.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]}:${m[2]}`);
    expect(unused.sort()).toEqual([...taggedDirectives(TYPE_TESTS).keys()].sort());
  });
});
