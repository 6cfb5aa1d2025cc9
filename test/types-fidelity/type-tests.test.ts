/**
 * Type tests for generated types.ts (test/types-fidelity/type-tests/*.ts), compiled strictly in one
 * in-process TypeScript program next to the types of every version. A second program compiles a copy
 * where the types the negative tests depend on are loosened (the way they were before the rules in
 * src/emit/types/normalize.ts, or to `any`): each dependent `@ts-expect-error [tag]` must then be unused, so
 * no negative test passes by accident. A third program compiles them against types generated without
 * the rules that mutual assignability cannot show (meta-on-all-params, empty-object-is-open,
 * tool-schemas-are-open): every line marked `needs [rule]` must then fail.
 */
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { emitTypes } from '../../src/emit/types/types.js';
import { ROOT, VERSIONS, generated, tempDir, type Version } from '../helpers/generate.js';
import { replaceDeclaration, taggedDirectives } from '../helpers/type-tests.js';

const SOURCE = join(ROOT, 'test', 'types-fidelity', 'type-tests');

/** Directives whose failure does not hinge on one replaceable declaration (the strict compile still proves them). */
const INDEPENDENT = new Set([
  'result-meta-not-object',
  'notification-meta-not-object',
  'empty-object-not-a-string',
  'object-not-a-number',
  'tool-schema-is-an-object-schema',
]);

/** Declarations replaced in the loosened copy: version → name → replacement. */
const LOOSENED: Partial<Record<Version, Record<string, string>>> = {
  '2024-11-05': { ProgressToken: 'export type ProgressToken = any;' },
  '2025-06-18': { ProgressToken: 'export type ProgressToken = any;' },
  '2025-11-25': { ProgressToken: 'export type ProgressToken = any;' },
  '2026-07-28': {
    ProgressToken: 'export type ProgressToken = any;',
    RequestMetaObject: 'export interface RequestMetaObject { [k: string]: unknown }',
    Implementation: 'export type Implementation = any;',
    RequestId: 'export type RequestId = any;',
    // What the generator emitted before empty-object-is-open.
    MetaObject: 'export interface MetaObject {}',
    JSONValue: 'export type JSONValue = any;',
  },
};

function diagnostics(dir: string): string[] {
  const files = readdirSync(dir)
    .filter((n) => n.endsWith('.ts'))
    .map((n) => join(dir, n));
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return `${d.file?.fileName.slice(dir.length + 1) ?? ''}:${line}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

/** The rules the `needs [rule]` markers name; the third program leaves them all out. */
const PROVEN_BY_TYPE_TESTS = ['meta-on-all-params', 'empty-object-is-open', 'tool-schemas-are-open'] as const;

/** Lines marked `needs [rule]` in the type-test files: "<file>:<line>" → rule. */
function needsMarkers(source: string): Map<string, string> {
  const marks = new Map<string, string>();
  for (const name of readdirSync(source).filter((n) => n.endsWith('.ts'))) {
    readFileSync(join(source, name), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const match = /needs \[([\w-]+)\]/.exec(line);
        if (match) marks.set(`${name}:${i + 1}`, match[1]!);
      });
  }
  return marks;
}

let dir: string;
let results: Awaited<ReturnType<typeof generated>>[];

beforeAll(async () => {
  dir = tempDir('types-fidelity-type-tests');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  results = await Promise.all(VERSIONS.map((v) => generated(v, { artifacts: ['types'], format: false })));
  VERSIONS.forEach((version, i) => {
    mkdirSync(join(dir, 'generated', version), { recursive: true });
    const types = results[i]!.files.find((f) => f.path === 'types.ts')!.contents;
    writeFileSync(join(dir, 'generated', version, 'types.ts'), types);
  });
  cpSync(SOURCE, dir, { recursive: true });
});

describe('type tests for generated types.ts (every version)', () => {
  it('compile strictly: every expected error happens, nothing else fails', () => {
    expect(diagnostics(dir)).toEqual([]);
  });

  it('loosening the types they depend on makes the dependent @ts-expect-error lines unused', () => {
    const loose = tempDir('types-fidelity-type-tests-loose');
    cpSync(dir, loose, { recursive: true });
    for (const [version, replacements] of Object.entries(LOOSENED)) {
      for (const [name, replacement] of Object.entries(replacements))
        replaceDeclaration(join(loose, 'generated', version, 'types.ts'), name, replacement);
    }
    const errors = diagnostics(loose);
    const unused = errors
      .map((e) => /^(.+?):(\d+): TS2578 /.exec(e))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]}:${m[2]}`);
    const expected = [...taggedDirectives(loose)].filter(([, tag]) => !INDEPENDENT.has(tag)).map(([at]) => at);
    expect(expected.length).toBeGreaterThan(8);
    expect(unused.sort()).toEqual(expected.sort());
    expect(errors.filter((e) => !/ TS2578 /.test(e))).toEqual([]);
  });

  it('without the rules they need, the lines marked `needs [rule]` fail', async () => {
    const markers = needsMarkers(SOURCE);
    expect(new Set(markers.values())).toEqual(new Set(PROVEN_BY_TYPE_TESTS));
    const without = tempDir('types-fidelity-type-tests-without');
    cpSync(dir, without, { recursive: true });
    for (const [i, version] of VERSIONS.entries()) {
      const { model, schemaFile } = results[i]!;
      const types = await emitTypes(model, schemaFile, { withoutRules: PROVEN_BY_TYPE_TESTS });
      writeFileSync(join(without, 'generated', version, 'types.ts'), types);
    }
    const failing = new Set(diagnostics(without).map((e) => /^(.+?:\d+):/.exec(e)![1]));
    expect([...markers.keys()].filter((at) => !failing.has(at))).toEqual([]);
  });
});
