/**
 * The runtime's own tests (test/runtime: the JSON-RPC engine; the stdio and Streamable HTTP transports of
 * both eras with the invalid-frame corpus) on Node 22 and Node 24 besides the Node 20 the suite runs on: each
 * a separate vitest run under that binary (tools/node22, tools/node24, called by path and never on the PATH
 * of npm scripts). The leak counts, WebSocket and HTTP+SSE tests run on Node 20 only: they test the runtime's
 * bookkeeping and the optional legacy transports, not what changes between Node versions.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli/helpers.js';
import { LINUX_X64, NODE22, NODE24, requireTool } from './tools.js';

const VITEST = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const SUITES = [
  'test/runtime/',
  'test/transports/stdio.test.ts',
  'test/transports/http.test.ts',
  'test/transports/http-2026.test.ts',
  'test/transports/http-protocol.test.ts',
  'test/transports/frame-corpus.test.ts',
];

function vitestOn(node: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const args = [VITEST, 'run', ...SUITES, '--maxWorkers=1', '--reporter=dot', '--no-color'];
    execFile(node, args, { cwd: REPO_ROOT, encoding: 'utf8', timeout: 180_000 }, (error, stdout, stderr) => {
      const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
      resolve({ code, output: stdout + stderr });
    });
  });
}

describe.skipIf(!LINUX_X64)('the runtime tests on other Node versions', () => {
  it.concurrent.each([
    ['22', NODE22],
    ['24', NODE24],
  ])(
    'Node %s',
    async (major, binary) => {
      const node = requireTool(
        binary,
        `run \`node scripts/install-tools.mjs\` (the test setup runs it; it installs tools/node${major})`,
      );
      const { code, output } = await vitestOn(node);
      expect(code, output).toBe(0);
      expect(output).toMatch(/Test Files\s+\d+ passed/);
      expect(output).not.toMatch(/\d+ (failed|skipped)/);
    },
    180_000,
  );
});
