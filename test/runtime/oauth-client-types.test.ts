/**
 * The OAuth client's type promises (type-tests/oauth-client.ts), compiled against the built package with
 * tsc --strict: every tagged `@ts-expect-error` fails as it should (an unused one is an error of its own), and
 * nothing else does.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/generate.js';
import { tscProjects } from '../helpers/tsc-build.js';
import { taggedDirectives } from '../helpers/type-tests.js';

const TYPE_TESTS = join(ROOT, 'test', 'runtime', 'type-tests');

it('the auth option and oauthClient: each grant needs what it needs; stores, reasons and the hook are typed', async () => {
  expect([...taggedDirectives(TYPE_TESTS).values()].sort()).toEqual(
    [
      'assertion-needed',
      'auth-interface',
      'code-needs-redirect',
      'machine-needs-client',
      'machine-needs-credentials',
      'record-kind',
      'record-shape',
      'reason-union',
      'redirect-returns-url',
    ].sort(),
  );
  const dir = tempDir('oauth-client-types');
  cpSync(join(TYPE_TESTS, 'oauth-client.ts'), join(dir, 'oauth-client.ts'));
  const [result] = await tscProjects([[dir, { skipLibCheck: true }]]);
  expect((result.stdout + result.stderr).split('\n').filter((line) => /error TS\d+/.test(line))).toEqual([]);
});
