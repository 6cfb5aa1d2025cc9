/**
 * Reading what the conformance runner wrote: each scenario's `checks.json` (under the `-o` directory of its
 * run), scored the same way for server and client scenarios, and the table the report prints.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The runner's result directory names: `[server-]<scenario>-<ISO timestamp with - for : and .>`. */
const RESULT_DIR = /^(?:server-)?(.+)-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/;

/**
 * A scenario's result from its checks. It passes when no check failed or warned (a SHOULD broken) and at least
 * one succeeded: a scenario whose checks were all skipped (or only informational) proved nothing and does not pass.
 * @param {string} name
 * @param {Array<{ id: string, status: string, errorMessage?: string }>} checks
 */
export function score(name, checks) {
  const count = (status) => checks.filter((check) => check.status === status).length;
  const passed = count('SUCCESS');
  const failed = count('FAILURE');
  const problems = checks
    .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
    .map((check) => `${check.status} ${check.id}: ${check.errorMessage ?? ''}`.trim());
  return {
    name,
    ok: failed === 0 && count('WARNING') === 0 && passed > 0,
    passed,
    failed,
    warnings: count('WARNING'),
    skipped: count('SKIPPED'),
    problems,
  };
}

/**
 * Every scenario result under a runner's `-o` directory (each scenario a folder holding checks.json; a client
 * scenario named `auth/x` is a folder `auth/` holding `x-<timestamp>/`), keyed by scenario name.
 * @returns {Promise<Map<string, ReturnType<typeof score>>>}
 */
export async function readResults(dir) {
  const results = new Map();
  const walk = async (folder, prefix) => {
    if (!existsSync(folder)) return;
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(folder, entry.name);
      const match = RESULT_DIR.exec(entry.name);
      if (match && existsSync(join(path, 'checks.json'))) {
        const name = `${prefix}${match[1]}`;
        results.set(name, score(name, JSON.parse(await readFile(join(path, 'checks.json'), 'utf8'))));
      } else if (!match) {
        await walk(path, `${prefix}${entry.name}/`);
      }
    }
  };
  await walk(dir, '');
  return results;
}

/** Scenario names a server run started (`=== Running scenario: <name> ===`), in order. */
export function startedScenarios(stdout) {
  return [...stdout.matchAll(/^=== Running scenario: (\S+) ===$/gm)].map((match) => match[1]);
}

/** The result of a scenario that wrote no checks (the runner threw, or timed out, before writing them). */
export function missing(name, why) {
  return { name, ok: false, passed: 0, failed: 1, warnings: 0, skipped: 0, problems: [`FAILURE ${why}`] };
}

/**
 * The report: one line per scenario of every run (suite, side, spec version or extension), then a count per run.
 * @param {Array<{ suite: string, side: string, label: string, scenarios: ReturnType<typeof score>[] }>} runs
 */
export function formatTable(runs) {
  const rows = runs.flatMap((run) => run.scenarios.map((s) => [run, s]));
  const width = Math.max(10, ...rows.map(([, s]) => s.name.length));
  const lines = [
    `${'suite'.padEnd(8)}${'side'.padEnd(8)}${'version'.padEnd(32)}${'scenario'.padEnd(width + 2)}result  checks`,
  ];
  for (const [run, s] of rows) {
    const checks = [`${s.passed} passed`, `${s.failed} failed`];
    if (s.warnings) checks.push(`${s.warnings} warnings`);
    if (s.skipped) checks.push(`${s.skipped} skipped`);
    lines.push(
      `${run.suite.padEnd(8)}${run.side.padEnd(8)}${run.label.padEnd(32)}${s.name.padEnd(width + 2)}${verdict(s).padEnd(8)}${checks.join(', ')}`,
    );
  }
  for (const run of runs) {
    const passed = run.scenarios.filter((s) => s.ok).length;
    const gaps = run.scenarios.filter((s) => !s.ok && s.gap).length;
    const note = gaps > 0 ? ` (${gaps} the suite itself cannot pass: docs/conformance.md)` : '';
    lines.push(`${run.suite} ${run.side} ${run.label}: ${passed}/${run.scenarios.length} scenarios passed${note}`);
  }
  return lines.join('\n');
}

/** PASS; GAP for a scenario the suite itself cannot pass (docs/conformance.md); FAIL. */
function verdict(s) {
  if (s.ok) return 'PASS';
  return s.gap ? 'GAP' : 'FAIL';
}
