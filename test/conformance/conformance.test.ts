/**
 * The official MCP conformance suites against the example servers and clients in examples/, built only from
 * generated code (2025-11-25, and 2026-07-28 with the tasks and skills extensions): what `npm run conformance`
 * runs (scripts/conformance.mjs). Every scenario of every run passes — server and client, each spec version and
 * extension, the newest suite (@modelcontextprotocol/conformance 0.2.0-alpha.12) and the last stable one
 * (0.1.16) — except those docs/conformance.md lists as the suite's own gaps, which are asserted to still fail
 * the way it says (so the list goes stale loudly). A scenario whose checks were all skipped does not pass.
 * The `auth/*` client scenarios are not here: they need the client's authorization part.
 * Needs dist/ (the global setup builds it) and tools/node22 (Node 22 for the runner, installed by the setup).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';

interface ScenarioResult {
  name: string;
  ok: boolean;
  passed: number;
  failed: number;
  warnings: number;
  skipped: number;
  problems: string[];
  gap?: string;
  output?: string;
}
interface Run {
  suite: string;
  side: 'server' | 'client';
  label: string;
  scenarios: ScenarioResult[];
  serverLog?: string;
}
interface RunTable {
  suite: string;
  label: string;
  scenarios?: string[];
}
interface ConformanceModule {
  runConformance(options?: { log?: (line: string) => void; timeoutMs?: number }): Promise<{ ok: boolean; runs: Run[] }>;
  SERVER_RUNS: RunTable[];
  CLIENT_RUNS: RunTable[];
  /** What the suite itself cannot pass (docs/conformance.md), each with how it still ends. */
  SUITE_GAPS: Record<string, { message: string; still: (s: ScenarioResult) => boolean }>;
}

const SCRIPT = pathToFileURL(join(ROOT, 'scripts/conformance.mjs')).href;
// The runner needs Node 22; its binary package (tools/node22) exists only for linux-x64.
const supported = process.platform === 'linux' && process.arch === 'x64';

describe.skipIf(!supported)('the official MCP conformance suites', () => {
  it(
    'pass every scenario of every run, server and client, each version and extension',
    { timeout: 600_000 },
    async () => {
      const { runConformance, SERVER_RUNS, CLIENT_RUNS, SUITE_GAPS } = (await import(SCRIPT)) as ConformanceModule;
      const lines: string[] = [];
      const result = await runConformance({ log: (line) => lines.push(line), timeoutMs: 540_000 });
      const report = lines.join('\n');

      const failing: string[] = [];
      const gaps: string[] = [];
      for (const run of result.runs) {
        for (const scenario of run.scenarios) {
          const key = `${run.suite} ${run.side} ${run.label} ${scenario.name}`;
          if (key in SUITE_GAPS) {
            gaps.push(key);
            // A gap that now passes, or fails another way, is taken off the list (and docs/conformance.md).
            expect(SUITE_GAPS[key]!.still(scenario), `${key} no longer ends as docs/conformance.md says`).toBe(true);
          } else if (!scenario.ok) {
            failing.push(`${key}\n  ${scenario.problems.join('\n  ')}\n${scenario.output ?? run.serverLog ?? ''}`);
          }
        }
      }
      expect(failing, report).toEqual([]);
      expect(gaps.sort()).toEqual(Object.keys(SUITE_GAPS).sort());
      expect(result.ok).toBe(true);

      // Every run of the tables ran, with every scenario the suite has for it.
      expect(result.runs.map((r) => `${r.suite} ${r.side} ${r.label}`)).toEqual([
        ...SERVER_RUNS.map((r) => `${r.suite} server ${r.label}`),
        ...CLIENT_RUNS.map((r) => `${r.suite} client ${r.label}`),
      ]);
      const counts = Object.fromEntries(
        result.runs.map((r) => [`${r.suite} ${r.side} ${r.label}`, r.scenarios.length]),
      );
      expect(counts).toEqual({
        'newest server 2025-11-25': 33,
        'newest server 2026-07-28': 40,
        'newest server io.modelcontextprotocol/tasks': 10,
        'newest server io.modelcontextprotocol/skills': 3,
        'stable server 2025-11-25': 32,
        'newest client 2025-11-25': 5,
        'newest client 2026-07-28': 8,
        'newest client io.modelcontextprotocol/skills': 4,
        'stable client 2025-11-25': 4,
      });
    },
  );

  it("docs/conformance.md names every gap, with the suite's message", async () => {
    const { SUITE_GAPS } = (await import(SCRIPT)) as ConformanceModule;
    const doc = readFileSync(join(ROOT, 'docs/conformance.md'), 'utf8');
    for (const [key, gap] of Object.entries(SUITE_GAPS)) {
      expect(doc).toContain(`\`${key.split(' ').pop()}\``);
      expect(doc).toContain(gap.message);
    }
  });
});
