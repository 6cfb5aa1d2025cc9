/**
 * The conformance tests' one way to run the suites: scripts/conformance.mjs (what `npm run conformance` runs) with a
 * selection, and the assertions every selection gets: every scenario the suites list that the selection keeps ran
 * (or is named in NOT_RUN, with why), and passed — but the suite's own gaps (SUITE_GAPS, docs/conformance.md), which
 * must still end the way the document says. No count is written here: the suites' lists are the reference.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import { ROOT } from '../helpers/paths.js';

export interface ScenarioResult {
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
export interface Run {
  suite: string;
  side: 'server' | 'client';
  label: string;
  specVersion?: string;
  scenarios: ScenarioResult[];
  serverLog?: string;
}
interface Listed {
  name: string;
  tags: string[];
}
interface Selection {
  only?: string[];
  except?: string[];
}
interface Result {
  ok: boolean;
  runs: Run[];
  unplanned: Array<{ suite: string; side: string; name: string }>;
  lists: Record<string, { server: Listed[]; client: Listed[] }>;
}
export interface ConformanceModule {
  runConformance(options: Selection & { log?: (line: string) => void; timeoutMs?: number }): Promise<Result>;
  /** What the suite itself cannot pass (docs/conformance.md), each with how it still ends. */
  SUITE_GAPS: Record<string, { message: string; still: (s: ScenarioResult) => boolean }>;
  NOT_RUN: Record<string, string>;
}

export const SCRIPT = pathToFileURL(join(ROOT, 'scripts/conformance.mjs')).href;
// The runner needs Node 22; its binary package (tools/node22) exists only for linux-x64.
export const SUPPORTED = process.platform === 'linux' && process.arch === 'x64';

export async function conformance(): Promise<ConformanceModule> {
  return (await import(SCRIPT)) as ConformanceModule;
}

/** Runs the selection and asserts it whole; resolves to its runs for assertions of the caller's own. */
export async function runAndExpectAll(selection: Selection & { keeps: (name: string) => boolean }): Promise<Run[]> {
  const { runConformance, SUITE_GAPS, NOT_RUN } = await conformance();
  const lines: string[] = [];
  const { keeps, ...chosen } = selection;
  const result = await runConformance({ ...chosen, log: (line) => lines.push(line), timeoutMs: 1_080_000 });
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
        expect(scenario.ok, `${key} passes: take it off SUITE_GAPS`).toBe(false);
      } else if (!scenario.ok) {
        failing.push(`${key}\n  ${scenario.problems.join('\n  ')}\n${scenario.output ?? run.serverLog ?? ''}`);
      }
    }
  }
  expect(result.runs.length, report).toBeGreaterThan(0);
  expect(failing, report).toEqual([]);
  expect(result.unplanned, report).toEqual([]);
  const gapsSelected = Object.keys(SUITE_GAPS).filter((key) => keeps(key.split(' ').pop()!));
  expect(gaps.sort()).toEqual(gapsSelected.sort());
  expect(result.ok, report).toBe(true);

  // Every scenario each suite lists, of the selection, ran (at least once) or is named in NOT_RUN.
  for (const [suite, sides] of Object.entries(result.lists)) {
    for (const side of ['server', 'client'] as const) {
      const ran = new Set(
        result.runs.filter((r) => r.suite === suite && r.side === side).flatMap((r) => r.scenarios.map((s) => s.name)),
      );
      const listed = sides[side].map((s) => s.name).filter(keeps);
      expect(
        listed.filter((name) => !ran.has(name) && !(`${suite} ${side} ${name}` in NOT_RUN)),
        `${suite} ${side}: listed, never run`,
      ).toEqual([]);
    }
  }
  return result.runs;
}
