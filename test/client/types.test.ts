/**
 * Type tests for the generated client and server: test/client/type-tests/*.ts, test/server/type-tests/*.ts
 * and the fixture server are compiled with tsc --strict next to freshly generated 2025-11-25 output
 * (`./generated/`) and 2026-07-28 output (`./generated-2026/`). Then a copy with `ClientCalls` and
 * `McpServerHandlers` loosened to `any` must report the `@ts-expect-error [tag]` lines that depend on them
 * as unused, so the negative tests cannot pass by accident.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, TMP, TSC, built } from './helpers/build.js';

const SOURCES = [
  join(ROOT, 'test', 'client', 'type-tests'),
  join(ROOT, 'test', 'server', 'type-tests'),
  join(ROOT, 'test', 'fixtures', 'servers', 'type-tests'),
];
/** Directives that fail on the class shape alone, whatever ClientCalls says. */
const INDEPENDENT_OF_TABLES = new Set(['misspelled-stub', 'missing-params']);

function tsc(dir: string): Promise<string[]> {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022'],
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules', '@types')],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        isolatedModules: true,
        verbatimModuleSyntax: true,
      },
      include: ['*.ts', 'generated/**/*.ts', 'generated-2026/**/*.ts'],
    }),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], { cwd: dir });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => resolve(out.split('\n').filter((l) => /error TS\d+/.test(l))));
  });
}

/** `@ts-expect-error [tag]` lines: "file:line" → tag. */
function tags(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    readFileSync(join(dir, name), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const match = /\/\/ @ts-expect-error \[([\w-]+)\]/.exec(line);
        if (match) found.set(`${name}:${i + 1}`, match[1]!);
      });
  }
  return found;
}

function replaceTypeAlias(file: string, name: string, replacement: string): void {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const node = source.statements.find((s) => ts.isTypeAliasDeclaration(s) && s.name.text === name);
  if (!node) throw new Error(`${name} not found in ${file}`);
  writeFileSync(file, text.slice(0, node.getStart(source)) + replacement + text.slice(node.end));
}

let dir: string;

beforeAll(async () => {
  const [v2025, v2026] = await Promise.all([built('2025-11-25'), built('2026-07-28')]);
  mkdirSync(TMP, { recursive: true });
  dir = mkdtempSync(join(TMP, 'client-server-types-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  cpSync(v2025.dir, join(dir, 'generated'), { recursive: true });
  cpSync(v2026.dir, join(dir, 'generated-2026'), { recursive: true });
  for (const source of SOURCES) {
    for (const name of readdirSync(source).filter((n) => n.endsWith('.ts'))) cpSync(join(source, name), join(dir, name));
  }
});

describe('type tests for the generated client and server', () => {
  it('has tagged negative tests for each case', () => {
    expect([...tags(dir).values()].sort()).toEqual(
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
        '2026-input-required-is-resolved',
        'wrong-result-shape',
        'wrong-result-type',
        'unknown-params-field',
        'not-received-method',
      ].sort(),
    );
  });

  it('compile with tsc --strict (fixture server included): every expected error happens, nothing else fails', async () => {
    expect(await tsc(dir)).toEqual([]);
  });

  it('loosening ClientCalls and McpServerHandlers to any makes the dependent @ts-expect-error lines unused', async () => {
    const loose = mkdtempSync(join(TMP, 'client-server-types-loose-'));
    cpSync(dir, loose, { recursive: true });
    for (const generated of ['generated', 'generated-2026']) {
      replaceTypeAlias(join(loose, generated, 'client.ts'), 'ClientCalls', 'export type ClientCalls = any;');
      replaceTypeAlias(join(loose, generated, 'server.ts'), 'McpServerHandlers', 'export type McpServerHandlers = any;');
    }
    const errors = await tsc(loose);
    const unused = errors
      .map((line) => /^(.+?)\((\d+),\d+\): error TS2578: Unused '@ts-expect-error' directive\./.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]}:${m[2]}`);
    const expected = [...tags(loose)].filter(([, tag]) => !INDEPENDENT_OF_TABLES.has(tag)).map(([at]) => at);
    expect(unused.sort()).toEqual(expected.sort());
    // The independent ones still fail (silently: their directive is used). Otherwise only handler
    // parameters lose their contextual type (`Partial<any>`): implicit any, nothing else.
    expect(errors.filter((l) => !/TS2578|TS7006: Parameter '(params|ctx)' implicitly has an 'any' type/.test(l))).toEqual([]);
  });
});
