/**
 * Type tests for `ctx.auth` and the scope declarations of the HTTP servers' `auth` option
 * (test/server/type-tests/auth/auth.ts), compiled with tsc --strict next to freshly generated 2025-11-25 and
 * 2026-07-28 servers. A copy with the generated `ServerContext` and `McpServerHandlers` loosened to `any` must
 * report every tagged `@ts-expect-error` that depends on them as unused, so none passes by accident.
 */
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { ROOT, TMP, built } from '../client/helpers/build.js';
import type { RunResult } from '../helpers/generate.js';
import { tscProjects } from '../helpers/tsc-build.js';
import { replaceDeclaration, taggedDirectives, unusedDirectives } from '../helpers/type-tests.js';

const SOURCE = join(ROOT, 'test', 'server', 'type-tests', 'auth');
/** Fails whatever the generated types say: the option's own shape. */
const INDEPENDENT = new Set(['auth-needs-verifier']);
const TSC_OPTIONS = { skipLibCheck: true, include: ['*.ts', 'generated/**/*.ts', 'generated-2026/**/*.ts'] };

const errorsOf = (result: RunResult): string[] =>
  `${result.stdout}${result.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l));

let dir: string;
let loose: string;
let results: Promise<readonly [RunResult, RunResult]>;

beforeAll(async () => {
  const [v2025, v2026] = await Promise.all([built('2025-11-25'), built('2026-07-28')]);
  mkdirSync(TMP, { recursive: true });
  dir = mkdtempSync(join(TMP, 'auth-types-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  cpSync(v2025.dir, join(dir, 'generated'), { recursive: true });
  cpSync(v2026.dir, join(dir, 'generated-2026'), { recursive: true });
  cpSync(join(SOURCE, 'auth.ts'), join(dir, 'auth.ts'));
  loose = mkdtempSync(join(TMP, 'auth-types-loose-'));
  cpSync(dir, loose, { recursive: true });
  for (const generated of ['generated', 'generated-2026']) {
    const server = join(loose, generated, 'server.ts');
    replaceDeclaration(server, 'ServerContext', 'export type ServerContext = any;');
    replaceDeclaration(server, 'McpServerHandlers', 'export type McpServerHandlers = any;');
  }
  results = tscProjects([
    [dir, TSC_OPTIONS],
    [loose, TSC_OPTIONS],
  ]);
});

it('has its tagged negative tests', () => {
  expect([...taggedDirectives(dir).values()].sort()).toEqual(
    [
      'auth-maybe-undefined',
      'auth-maybe-undefined',
      'auth-scopes-readonly',
      'auth-no-token',
      'auth-notification-maybe-undefined',
      'auth-unknown-method',
      'auth-unknown-method',
      'auth-unknown-method',
      'auth-needs-verifier',
    ].sort(),
  );
});

it('compiles with tsc --strict: every expected error happens, nothing else fails', async () => {
  expect(errorsOf((await results)[0])).toEqual([]);
});

it('loosening ServerContext and McpServerHandlers to any leaves the dependent directives unused', async () => {
  const errors = errorsOf((await results)[1]);
  const unused = unusedDirectives(errors);
  const expected = [...taggedDirectives(loose)].filter(([, tag]) => !INDEPENDENT.has(tag)).map(([at]) => at);
  expect(unused.sort()).toEqual(expected.sort());
  // Otherwise only handler parameters lose their contextual type (`Partial<any>`): implicit any.
  expect(
    errors.filter((l) => !/TS2578|TS7006: Parameter '(params|_params|ctx)' implicitly has an 'any' type/.test(l)),
  ).toEqual([]);
});
