/**
 * The official MCP conformance suite's `auth/*` client scenarios (@modelcontextprotocol/conformance 0.2.0-alpha.12)
 * against the example client (examples/conformance-client/auth.ts, on a generated 2026-07-28 client and
 * `@mcp-typegen/runtime/auth`), each at the version it is for: 14 at 2025-11-25, 25 at 2026-07-28 (the suite's
 * stateless era), the 2 back-compat ones at 2025-03-26, the 6 extension ones. Every one must pass, none be skipped.
 * Through scripts/conformance-auth.mjs; needs dist/ and tools/node22 (the global setup provides both).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

interface AuthRun {
  name: string;
  version: string | undefined;
  group: string;
  ok: boolean;
  skipped: boolean;
  checks: number;
  output: string;
}
interface AuthModule {
  runAuthScenarios(options?: {
    log?: (line: string) => void;
  }): Promise<{ ok: boolean; results: AuthRun[]; runs: AuthRun[] }>;
}

const SCRIPT = pathToFileURL(join(import.meta.dirname, '../../scripts/conformance-auth.mjs')).href;
// The runner needs Node 22; its binary package (tools/node22) exists only for linux-x64.
const supported = process.platform === 'linux' && process.arch === 'x64';

describe.skipIf(!supported)('official MCP conformance suite: auth/* client scenarios', () => {
  it('passes every one at every version it is for', { timeout: 900_000 }, async () => {
    const { runAuthScenarios } = (await import(SCRIPT)) as AuthModule;
    const lines: string[] = [];
    const { results } = await runAuthScenarios({ log: (line) => lines.push(line) });
    const count = (group: string): number => results.filter((r) => r.group === group).length;
    expect([count('2025-11-25'), count('2026-07-28'), count('back-compat'), count('extension')]).toEqual([
      14, 25, 2, 6,
    ]);
    expect(new Set(results.map((r) => r.name)).size).toBe(33);
    const failed = results.filter((r) => !r.ok || r.skipped || r.checks === 0);
    expect(
      failed.map((r) => `${r.name} at ${r.version ?? 'default'}`),
      `${lines.join('\n')}\n${failed.map((r) => r.output).join('\n')}`,
    ).toEqual([]);
  });
});
