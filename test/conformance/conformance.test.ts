/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16) against the example server and
 * client in examples/, built only from generated 2025-11-25 code: what `npm run conformance` runs
 * (scripts/conformance.mjs), asserting every active server scenario and every non-auth client scenario passes.
 * Needs dist/ (npm test builds first) and tools/node22 (Node 22 for the runner, installed by `npm ci`).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

interface ScenarioResult {
  name: string;
  ok: boolean;
  passed: number;
  failed: number;
  warnings: number;
  output?: string;
}
interface ConformanceResult {
  ok: boolean;
  server: { ok: boolean; timedOut: boolean; scenarios: ScenarioResult[]; output: string; serverLog: string };
  client: { ok: boolean; scenarios: ScenarioResult[] };
}
interface ConformanceModule {
  runConformance(options?: { log?: (line: string) => void; timeoutMs?: number }): Promise<ConformanceResult>;
  CLIENT_SCENARIOS: string[];
}

const SCRIPT = pathToFileURL(join(import.meta.dirname, '../../scripts/conformance.mjs')).href;
// The runner needs Node 22; its binary package (tools/node22) exists only for linux-x64.
const supported = process.platform === 'linux' && process.arch === 'x64';

describe.skipIf(!supported)('official MCP conformance suite (2025-11-25)', () => {
  it('passes all 30 active server scenarios and the 4 non-auth client scenarios', { timeout: 300_000 }, async () => {
    const { runConformance, CLIENT_SCENARIOS } = (await import(SCRIPT)) as ConformanceModule;
    const lines: string[] = [];
    const result = await runConformance({ log: (line) => lines.push(line), timeoutMs: 240_000 });
    const report = lines.join('\n');

    const failedServer = result.server.scenarios.filter((s) => !s.ok).map((s) => s.name);
    expect(failedServer, `${report}\n${result.server.output}\n${result.server.serverLog}`).toEqual([]);
    expect(result.server.timedOut).toBe(false);
    expect(result.server.scenarios).toHaveLength(30);

    const failedClient = result.client.scenarios.filter((s) => !s.ok);
    expect(
      failedClient.map((s) => s.name),
      failedClient.map((s) => s.output).join('\n'),
    ).toEqual([]);
    expect(result.client.scenarios.map((s) => s.name)).toEqual(CLIENT_SCENARIOS);
    expect(CLIENT_SCENARIOS).toHaveLength(4);
    expect(result.ok).toBe(true);
  });
});
