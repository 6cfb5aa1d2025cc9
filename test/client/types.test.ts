/**
 * Type tests for the generated client and server: test/client/type-tests/*.ts, test/server/type-tests/*.ts
 * and the fixture server are compiled with tsc --strict next to freshly generated 2025-11-25 output
 * (`./generated/`) and 2026-07-28 output (`./generated-2026/`). Then a copy with `ClientCalls`,
 * `McpServerHandlers` and the `tools/call` params and result types (which the stubs name directly, the
 * created task of a task-augmented call among them)
 * loosened to `any` must report the `@ts-expect-error [tag]` lines that depend on them as unused, so the
 * negative tests cannot pass by accident.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, TMP, built } from './helpers/build.js';
import type { RunResult } from '../helpers/generate.js';
import { tscProjects } from '../helpers/tsc-build.js';
import { replaceDeclaration, taggedDirectives } from '../helpers/type-tests.js';

const SOURCES = [
  join(ROOT, 'test', 'client', 'type-tests'),
  join(ROOT, 'test', 'server', 'type-tests'),
  join(ROOT, 'test', 'fixtures', 'servers', 'type-tests'),
];
/** Directives that fail on the class shape alone, whatever ClientCalls says. */
const INDEPENDENT_OF_TABLES = new Set([
  'misspelled-stub',
  'missing-params',
  '2026-legacy-wrong-level',
  '2026-legacy-call-on-modern',
  '2026-legacy-call-unnarrowed',
]);

const TSC_OPTIONS = { skipLibCheck: true, include: ['*.ts', 'generated/**/*.ts', 'generated-2026/**/*.ts'] };

/** `error TS…` lines of a strict tsc run over the type tests and both generated outputs. */
const errorsOf = (result: RunResult): string[] =>
  `${result.stdout}${result.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l));

let dir: string;
let loose: string;
/** The strict program and the loosened copy, compiled by one tsc process. */
let results: Promise<readonly [RunResult, RunResult]>;

beforeAll(async () => {
  const [v2025, v2026] = await Promise.all([built('2025-11-25'), built('2026-07-28')]);
  mkdirSync(TMP, { recursive: true });
  dir = mkdtempSync(join(TMP, 'client-server-types-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  cpSync(v2025.dir, join(dir, 'generated'), { recursive: true });
  cpSync(v2026.dir, join(dir, 'generated-2026'), { recursive: true });
  for (const source of SOURCES) {
    for (const name of readdirSync(source).filter((n) => n.endsWith('.ts')))
      cpSync(join(source, name), join(dir, name));
  }
  // A copy with ClientCalls, McpServerHandlers and the tools/call types loosened to any.
  loose = mkdtempSync(join(TMP, 'client-server-types-loose-'));
  cpSync(dir, loose, { recursive: true });
  for (const generated of ['generated', 'generated-2026']) {
    replaceDeclaration(join(loose, generated, 'client.ts'), 'ClientCalls', 'export type ClientCalls = any;');
    replaceDeclaration(
      join(loose, generated, 'server.ts'),
      'McpServerHandlers',
      'export type McpServerHandlers = any;',
    );
    // CreateTaskResult: 2025-11-25 only (2026-07-28 moved tasks to an extension).
    const names = [
      'CallToolRequestParams',
      'CallToolResult',
      ...(generated === 'generated' ? ['CreateTaskResult'] : []),
    ];
    for (const name of names)
      replaceDeclaration(join(loose, generated, 'types.ts'), name, `export type ${name} = any;`);
  }
  results = tscProjects([
    [dir, TSC_OPTIONS],
    [loose, TSC_OPTIONS],
  ]);
});

describe('type tests for the generated client and server', () => {
  it('has tagged negative tests for each case', () => {
    expect([...taggedDirectives(dir).values()].sort()).toEqual(
      [
        'misspelled-stub',
        'misspelled-request',
        'wrong-params',
        'missing-params',
        'missing-required-field',
        'request-wrong-params',
        'request-missing-params',
        'unknown-result-field',
        'unknown-request-result-field',
        '2026-missing-required-field',
        '2026-wrong-params',
        '2026-missing-params',
        '2026-wrong-meta-key',
        '2026-input-required-is-resolved',
        'wrong-result-shape',
        'wrong-result-type',
        'unknown-params-field',
        'not-received-method',
        'defaults-keep-required-fields',
        '2026-input-response-typed',
        '2026-input-unknown-name',
        '2026-input-not-an-input-method',
        '2026-input-wrong-params',
        '2026-input-ask-not-a-list-result',
        'defaulted-field-still-typed',
        '2026-legacy-wrong-level',
        '2026-legacy-call-on-modern',
        '2026-legacy-call-on-modern',
        '2026-legacy-call-unnarrowed',
        '2026-legacy-call-unnarrowed',
        'task-handler-wrong-shape',
        'task-call-is-created-task',
        'plain-call-is-no-task',
        'maybe-task-call-is-either',
      ].sort(),
    );
  });

  it('compile with tsc --strict (fixture server included): every expected error happens, nothing else fails', async () => {
    expect(errorsOf((await results)[0])).toEqual([]);
  });

  it('loosening ClientCalls and McpServerHandlers to any makes the dependent @ts-expect-error lines unused', async () => {
    const errors = errorsOf((await results)[1]);
    const unused = errors
      .map((line) => /^(.+?)\((\d+),\d+\): error TS2578: Unused '@ts-expect-error' directive\./.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]}:${m[2]}`);
    const expected = [...taggedDirectives(loose)]
      .filter(([, tag]) => !INDEPENDENT_OF_TABLES.has(tag))
      .map(([at]) => at);
    expect(unused.sort()).toEqual(expected.sort());
    // The independent ones still fail (silently: their directive is used). Otherwise only handler
    // parameters lose their contextual type (`Partial<any>`): implicit any, nothing else.
    expect(
      errors.filter((l) => !/TS2578|TS7006: Parameter '(params|ctx)' implicitly has an 'any' type/.test(l)),
    ).toEqual([]);
  });
});
