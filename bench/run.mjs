#!/usr/bin/env node
/**
 * `npm run bench`: mcp-typegen against its baselines, side by side, in one run.
 *
 *   node bench/run.mjs [--runs N] [--warmup N] [--out file] [--write-readme] [--keep] [--smoke] [--no-scale] [--diff-only] [--stdio-only] [--only a,b]
 *
 * Every row is measured against its baseline in the same run, the sides taking turns. Process rows
 * (generate, --check, diff, tsc) run a fresh `node` child per measurement and report its wall time, its CPU
 * time (user + sys of the whole process, worker threads included) and its peak RSS; the ratio and the goal
 * are on CPU time, which a busy machine disturbs far less than wall time. Throughput rows (round trips,
 * validation) run each side in its own child and report rate, CPU per operation and peak RSS.
 * Results go to bench/results/latest.json (untracked); `--write-readme` also puts the table into
 * bench/README.md. `--smoke` is the rot check run by the tests: one iteration each, tiny counts, the
 * smallest schema. Timings are only printed and recorded, never asserted.
 */
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { appsBundleSizes, bundleSizes } from './lib/bundle.mjs';
import { MIN_ROUNDS, SPREAD_BOUND, judgeFloor } from './lib/floors.mjs';
import { mergeTable } from './lib/readme-table.mjs';
import { SECTIONS, parseOnly } from './lib/sections.mjs';
import { syntheticExtension, syntheticSchema } from './lib/synthetic-schema.mjs';
import { parseDiagnostics, tsconfig, usageFiles } from './lib/usage-files.mjs';
import { sdkBundleSizes, sdkToolsUsageFiles, sdkUsageFiles } from './lib/sdk-adapter.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = join(BENCH, '..');
/** The published bin (package.json "bin"), as a user runs it. */
const CLI = join(ROOT, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin['mcp-typegen']);
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const HOOK = pathToFileURL(join(BENCH, 'lib', 'usage-hook.mjs')).href;
// Absolute: the children run in a temporary directory, where a relative MCP_SCHEMA_DIR would name nothing.
const SCHEMA_DIR = resolve(process.env.MCP_SCHEMA_DIR ?? join(ROOT, '..', 'shared', 'mcp-schema'));
const ALL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
/**
 * Node 22 from tools/ (`npm run bench` installs it, as the test setup does), for the compile-cache rows: Node 20
 * has no compile cache. Without it the rows are left out.
 */
const NODE22 = join(
  ROOT,
  'tools',
  'node22',
  'node_modules',
  '.bin',
  process.platform === 'win32' ? 'node.cmd' : 'node',
);

const { values: flags } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    runs: { type: 'string' },
    warmup: { type: 'string' },
    out: { type: 'string' },
    'write-readme': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    'no-scale': { type: 'boolean', default: false },
    'diff-only': { type: 'boolean', default: false },
    'stdio-only': { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
/**
 * `--only a,b`: node start-up and the named sections or rows alone (lib/sections.mjs), for checking some goals
 * without the minutes of the rest; `--only <row id>` reproduces one row of the table. `--diff-only` is `--only
 * diff` (issue 17's goal); `--stdio-only` is `--only stdio` (≥ 3× the SDK at 64 in flight; against the hand-split
 * newline-JSON echo: sequential ≥ 0.8× its rate at ≤ 1.5× its CPU per call, 64 in flight ≥ 0.9×), which also
 * leaves the v2 SDK's slow rows out.
 */
const STDIO_ONLY = flags['stdio-only'];
const ONLY =
  flags.only !== undefined ? flags.only.split(',') : flags['diff-only'] ? ['diff'] : STDIO_ONLY ? ['stdio'] : SECTIONS;
let only;
try {
  only = parseOnly(ONLY);
} catch (error) {
  fail(error.message);
}
const want = (section) => only.sections.includes(section);
/** Whether a row was asked for: rows of a section asked for by a row id alone are measured only when needed. */
const wantRow = only.wantRow;
const smoke = flags.smoke;
const RUNS = Number(flags.runs ?? (smoke ? 1 : MIN_ROUNDS));
const WARMUP = Number(flags.warmup ?? (smoke ? 0 : 1));
/**
 * Heavy process rows (every version, all versions at once, stdio, the cluster) take as many rounds as the rest:
 * a row of fewer than MIN_ROUNDS rounds is marked unreliable (lib/floors.mjs), so none is quoted from fewer.
 */
const HEAVY_RUNS = smoke ? 1 : RUNS;
/**
 * The tsc rows take more: tsc reports check time in 10 ms steps, ours is about 0.15 s and swings by ±0.03 s
 * run to run, so three runs read a ratio near its goal of 0.5 anywhere from 0.39 to 0.57. Nine alternating
 * rounds of both sides (about a minute) read it to within a few hundredths.
 */
const TSC_RUNS = smoke ? 1 : Math.max(HEAVY_RUNS, 9);
/**
 * Runs of each synthetic schema (the growth row is a ratio of two medians: one run each read 0.96–1.03× JSTT's
 * growth across three full runs, both sides of a goal of 1×).
 */
const SCALE_RUNS = smoke ? 1 : HEAVY_RUNS;
const VERSION = smoke ? '2024-11-05' : '2025-11-25';
const DIFF = smoke ? ['2024-11-05', '2025-03-26'] : ['2025-11-25', '2026-07-28'];
const VERSIONS = smoke ? ['2024-11-05'] : ALL_VERSIONS;
const COUNTS = smoke
  ? { calls: 50, validations: 1_000, usageCalls: 10 }
  : { calls: 100_000, validations: 1_000_000, usageCalls: 50 };
/** Synthetic MCP-shaped schemas (definitions, methods) for the scaling rows; the extension's method count. */
const SCALE = smoke
  ? { schemas: [[250, 20]], extension: 5 }
  : {
      schemas: [
        [2_500, 500],
        [5_000, 1_000],
        [10_000, 2_000],
      ],
      extension: 1_000,
    };
const outFile = flags.out ?? join(BENCH, 'results', 'latest.json');
const schemaPath = (v) => join(SCHEMA_DIR, v, 'schema.json');
/** The smoke run keeps the secondary generate rows alive with types only: tiny, not meaningful. */
const SMOKE_ARTIFACTS = smoke ? ['--artifacts', 'types'] : [];
/** Output the smoke run only runs, bundles or type-checks is not formatted (formatting changes no code). */
const SMOKE_UNFORMATTED = smoke ? ['--no-format'] : [];

if (!existsSync(CLI))
  fail(`${relative(process.cwd(), CLI)} is missing: run \`npm run build\` first (npm run bench does)`);
for (const v of new Set([...VERSIONS, VERSION, ...DIFF]))
  if (!existsSync(schemaPath(v))) fail(`no schema for ${v} at ${schemaPath(v)} (set MCP_SCHEMA_DIR)`);

const tmp = mkdtempSync(join(tmpdir(), 'mcp-typegen-bench-'));
writeFileSync(join(tmp, 'package.json'), '{ "type": "module" }\n');
symlinkSync(join(ROOT, 'node_modules'), join(tmp, 'node_modules'), 'dir');
const ENV = { ...process.env, MCP_SCHEMA_DIR: SCHEMA_DIR, NO_COLOR: '1' };
const startLoad = loadavg();

// ---------------------------------------------------------------------------------------------- helpers

function fail(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

function log(message) {
  process.stderr.write(`${message}\n`);
}

function run(command, args, { cwd = tmp, env = ENV } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

let usageCounter = 0;
/**
 * One fresh `node` process: wall time seen from here, CPU time and peak RSS reported by the child. `cache`
 * names the user cache directory it gets (a fresh empty one unless given): mcp-typegen may cache there
 * (schemas, and Node's compile cache where Node has one). `node` is the executable, `env` more variables.
 */
async function nodeProcess(args, { ok = [0], cwd, cache, node = process.execPath, env = {} } = {}) {
  const usageFile = join(tmp, `usage-${usageCounter++}.json`);
  const cacheDir = cache ?? join(tmp, `cache-${usageCounter}`);
  const started = performance.now();
  const result = await run(node, ['--import', HOOK, ...args], {
    cwd,
    env: { ...ENV, ...env, BENCH_USAGE_FILE: usageFile, MCP_TYPEGEN_CACHE: cacheDir, XDG_CACHE_HOME: cacheDir },
  });
  const wallMs = performance.now() - started;
  if (!ok.includes(result.code))
    throw new Error(`node ${args.join(' ')} exited ${result.code}\n${result.stdout}${result.stderr}`);
  const usage = JSON.parse(readFileSync(usageFile, 'utf8'));
  return { wallMs, cpuMs: usage.cpuMs, rssMb: usage.maxRssKb / 1024, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs a command and writes its own CPU time and peak RSS, as the kernel reports them when it is reaped
 * (wait4: microseconds, where GNU time prints hundredths of a second), to the file named first. Python's
 * standard library has wait4; Node's child_process reports no usage.
 */
const WAIT4 = `import json, os, sys
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ)
_, status, ru = os.wait4(pid, 0)
json.dump({"cpuMs": (ru.ru_utime + ru.ru_stime) * 1000, "maxRssKb": ru.ru_maxrss}, open(sys.argv[1], "w"))
sys.exit(os.waitstatus_to_exitcode(status))`;

/**
 * One fresh `node` process with nothing preloaded (nodeProcess's usage hook starts Node's ES module loader
 * before the program, which a bare `node -e 0` never does), measured from outside through wait4.
 */
async function bareNodeProcess(args, { ok = [0] } = {}) {
  const usageFile = join(tmp, `usage-${usageCounter++}.json`);
  const cacheDir = join(tmp, `cache-${usageCounter}`);
  const result = await run('python3', ['-c', WAIT4, usageFile, process.execPath, ...args], {
    env: { ...ENV, MCP_TYPEGEN_CACHE: cacheDir, XDG_CACHE_HOME: cacheDir },
  });
  if (!ok.includes(result.code))
    throw new Error(`node ${args.join(' ')} exited ${result.code}\n${result.stdout}${result.stderr}`);
  const usage = JSON.parse(readFileSync(usageFile, 'utf8'));
  // No wall time: seen from here it would include python's own start.
  return { cpuMs: usage.cpuMs, rssMb: usage.maxRssKb / 1024, stdout: result.stdout, stderr: result.stderr };
}

/** The median of each round's ratio `a[i] / b[i]` of a metric: paired, so a drift in the machine's speed cancels. */
function pairedRatio(a, b, metric) {
  return stats(a.map((x, i) => x[metric] / b[i][metric])).median;
}

/** Warm-ups, then `runs` rounds; the sides alternate their order each round. */
async function alternate(sides, runs, warmup) {
  const names = Object.keys(sides);
  for (let i = 0; i < warmup; i++) for (const name of names) await sides[name](-1 - i);
  const out = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < runs; i++) {
    for (const name of i % 2 ? [...names].reverse() : names) out[name].push(await sides[name](i));
  }
  return out;
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: values };
}

/** Each metric of a list of measurements, as stats. */
function measures(results, keys) {
  return Object.fromEntries(
    keys.filter((k) => results[0][k] !== undefined).map((k) => [k, stats(results.map((r) => r[k]))]),
  );
}

/** Metric → unit and label. */
const METRICS = {
  wallMs: { unit: 'ms', label: 'wall' },
  cpuMs: { unit: 'ms', label: 'CPU' },
  rssMb: { unit: 'MB', label: 'RSS' },
  rate: { unit: '/s', label: '' },
  cpuUs: { unit: 'µs', label: 'CPU/op' },
  checkS: { unit: 's', label: 'check' },
  cpuAboveMs: { unit: 'ms', label: 'CPU above empty' },
  cpuAboveUs: { unit: 'µs', label: 'CPU/op above no auth' },
  cpuAboveClientMs: { unit: 'ms', label: 'CPU above the program without calls' },
  instantiations: { unit: 'count', label: '' },
  types: { unit: 'count', label: 'types' },
  // Bytes, printed whole: a "kB" could be read as 1,000 or 1,024 of them.
  gzipBytes: { unit: 'B', label: 'gzip' },
  rawBytes: { unit: 'B', label: 'minified' },
  growth: { unit: '×', label: 'growth' },
  p99Ms: { unit: 'ms', label: 'p99' },
  redisPerCall: { unit: 'per call', label: 'Redis commands' },
  cpuWithRedisUs: { unit: 'µs', label: 'CPU/op with redis-server' },
};

const rows = [];
/**
 * A table row. `ours`/`baseline` map metric names (wallMs, cpuMs, rssMb; rate, cpuUs) to stats; `ratio`
 * is ours ÷ baseline of the medians of `metric`, and `goal` ({ metric, kind: 'ratio' | 'absolute', op,
 * value }) says which way is good. Extra ratios for the other metrics go to `ratios`.
 *
 * A ratio row has a floor (lib/floors.mjs): by default the baseline's own `metric`, named `floorName`; a row
 * whose sides are differences above a third program (tsc above an empty program) passes that program as
 * `floor` ({ name, metric, stats }). Its absolute figure is printed beside the ratio, and the row is marked
 * unreliable when the floor swung or sat outside its normal range. `deterministic` rows (sizes, tsc's counts)
 * need no rounds.
 */
function addRow({
  id,
  label,
  metric,
  ours,
  baseline,
  goals = [],
  note = '',
  extra,
  floorName = 'baseline',
  floor,
  deterministic = false,
}) {
  const ratios = {};
  if (baseline) for (const k of Object.keys(ours)) if (baseline[k]) ratios[k] = ours[k].median / baseline[k].median;
  // A row without a baseline (an absolute figure) stands on itself: its own rounds must agree.
  const floorStats = floor ?? {
    name: baseline ? floorName : floorName === 'baseline' ? 'itself' : floorName,
    metric,
    stats: (baseline ?? ours)[metric],
  };
  const verdict = judgeFloor(floorStats, { deterministic });
  const checks = goals.map((goal) => {
    const value = goal.kind === 'ratio' ? ratios[goal.metric] : ours[goal.metric].median;
    const pass = goal.op === '<=' ? value <= goal.value : goal.op === '<' ? value < goal.value : value >= goal.value;
    return { ...goal, value: goal.value, actual: value, pass };
  });
  const row = {
    id,
    label,
    metric,
    ours,
    baseline: baseline ?? null,
    ratio: baseline ? ratios[metric] : null,
    ratios,
    goals: checks,
    pass: checks.length ? checks.every((c) => c.pass) : null,
    floor: verdict,
    reliable: verdict.reliable,
    note,
    ...(extra ? { extra } : {}),
  };
  rows.push(row);
  log(
    `  ${label}: ${cell(ours)}${baseline ? ` vs ${cell(baseline)} (${ratios[metric].toFixed(2)}× ${METRICS[metric].label || metric})` : ''}${checks.length ? (row.pass ? ' pass' : ' MISS') : ''} · floor ${floorCell(verdict)}${verdict.reliable ? '' : ` UNRELIABLE (${verdict.reasons.join('; ')})`}`,
  );
  return row;
}

/** "echo, sequential: CPU/op 14.2 µs (±6%, 5 rounds)": a floor's own figure, its spread and its rounds. */
function floorCell(floor) {
  const { unit, label } = METRICS[floor.metric];
  return `${floor.name}: ${label ? `${label} ` : ''}${fmt(floor.median, unit)} (spread ${Math.round(floor.spread * 100)}%, ${floor.rounds} round${floor.rounds === 1 ? '' : 's'})`;
}

function fmt(value, unit) {
  if (!Number.isFinite(value)) return String(value);
  if (unit === 'ms') return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
  if (unit === 's') return `${value.toFixed(2)} s`;
  if (unit === 'MB') return `${Math.round(value)} MB`;
  if (unit === 'B') return `${Math.round(value).toLocaleString('en-US')} B`;
  if (unit === 'µs') return value >= 100 ? `${Math.round(value)} µs` : `${value.toFixed(1)} µs`;
  if (unit === '/s')
    return value >= 1e6
      ? `${(value / 1e6).toFixed(2)}M/s`
      : value >= 1e3
        ? `${(value / 1e3).toFixed(1)}k/s`
        : `${Math.round(value)}/s`;
  if (unit === '×') return `${value.toFixed(2)}×`;
  if (unit === 'per call') return `${value.toFixed(2)}/call`;
  if (unit === 'count')
    return value >= 1e6 ? `${(value / 1e6).toFixed(2)}M` : value >= 1e3 ? `${(value / 1e3).toFixed(1)}k` : `${value}`;
  return `${value}`;
}

/** "wall 1.2 s (1.1–1.3) · CPU 2.0 s (…) · RSS 230 MB (…)": median with min–max, metric by metric. */
function cell(side) {
  if (!side) return '—';
  return Object.entries(side)
    .map(([k, s]) => {
      const { unit, label } = METRICS[k];
      const range = s.runs.length > 1 ? ` (${fmt(s.min, unit)}–${fmt(s.max, unit)})` : '';
      return `${label ? `${label} ` : ''}${fmt(s.median, unit)}${range}`;
    })
    .join(' · ');
}

const PROCESS = ['wallMs', 'cpuMs', 'rssMb'];
/** A process row's goals: CPU ratio and, when given, RSS ratio. */
const cpuGoal = (value) => ({ metric: 'cpuMs', kind: 'ratio', op: '<=', value });
const rssGoal = (value) => ({ metric: 'rssMb', kind: 'ratio', op: '<=', value });

// ---------------------------------------------------------------------------------------------- rows

log(
  `bench: ${smoke ? 'smoke, ' : ''}${RUNS} run(s) after ${WARMUP} warm-up(s); node ${process.version}; ${cpus().length} CPU(s); load ${startLoad.map((l) => l.toFixed(1)).join(' ')}`,
);
log(`bench: temp dir ${tmp}`);

// Node's own start-up: the floor under every process row, and the baseline of --check and diff.
const nodeStartup = () => nodeProcess(['-e', '0']);
log('node start-up');
{
  const r = await alternate({ node: nodeStartup }, RUNS, WARMUP);
  addRow({
    id: 'node-startup',
    label: 'node start-up (`node -e 0`, the floor)',
    metric: 'cpuMs',
    ours: measures(r.node, PROCESS),
    floorName: 'node -e 0',
    note: 'every child carries the same preloaded usage hook',
  });
}

// 1. generate each version, every artifact, formatted, fresh process and empty user cache, vs JSTT
// compileFromFile on the same schema.
let genDir;
for (const version of want('generate') ? VERSIONS.filter((v) => wantRow(`generate-${v}`)) : []) {
  log(`generate ${version}`);
  const r = await alternate(
    {
      ours: async (i) => {
        const dir = join(tmp, `gen-${version}-${i}`);
        const result = await nodeProcess([CLI, 'generate', '--spec', version, '--out', dir]);
        if (version === VERSION) genDir = dir;
        return result;
      },
      jstt: (i) =>
        nodeProcess([join(BENCH, 'lib', 'jstt.mjs'), join(tmp, `jstt-${version}-${i}`), schemaPath(version)]),
    },
    version === VERSION ? RUNS : HEAVY_RUNS,
    version === VERSION ? WARMUP : 0,
  );
  addRow({
    id: `generate-${version}`,
    label: `generate ${version} (all artifacts, formatted; empty user cache) vs JSTT compileFromFile`,
    metric: 'cpuMs',
    ours: measures(r.ours, PROCESS),
    baseline: measures(r.jstt, PROCESS),
    floorName: 'JSTT',
    // Issue 28: ts-morph writes, prettier formats every file, JSTT through compile() — at most twice JSTT's own job.
    goals: version === VERSION ? [cpuGoal(2), rssGoal(1.5)] : [],
    note: 'the published bin (esbuild bundle, split into chunks, with the V8 settings it gives itself: src/cli/v8-tuning.ts), fresh process each, imports included, empty compile cache; JSTT: unreachableDefinitions, types only, its default formatting',
  });
}

// The later rows (check, round trips, tsc) use the output of VERSION: generated once, unmeasured, without row 1.
if (genDir === undefined && ['check', 'stdio', 'memory', 'eras', 'validation', 'tsc', 'auth'].some(want)) {
  genDir = join(tmp, `gen-${VERSION}`);
  await nodeProcess([CLI, 'generate', '--spec', VERSION, '--out', genDir]);
}

// 1a. the same with a warm user cache, for information.
log(`generate ${VERSION}, warm user cache`);
if (want('generate') && wantRow('generate-warm')) {
  const cache = join(tmp, 'warm-cache');
  const warm = (i) =>
    nodeProcess([CLI, 'generate', '--spec', VERSION, ...SMOKE_ARTIFACTS, '--out', join(tmp, `warm-${i}`)], { cache });
  // The smoke run only needs the row to run: its first run fills the cache instead.
  if (!smoke) await warm(0);
  const r = await alternate(
    {
      ours: (i) => warm(i + 1),
      jstt: (i) => nodeProcess([join(BENCH, 'lib', 'jstt.mjs'), join(tmp, `jstt-warm-${i}`), schemaPath(VERSION)]),
    },
    HEAVY_RUNS,
    0,
  );
  addRow({
    id: 'generate-warm',
    label: `generate ${VERSION}, warm user cache, vs JSTT (information)`,
    metric: 'cpuMs',
    ours: measures(r.ours, PROCESS),
    baseline: measures(r.jstt, PROCESS),
    floorName: 'JSTT',
    note: 'the user cache filled by one earlier run of the same command (new output directory each run)',
  });
}

// 1b. every version in one process, against one version in the same rounds: each library is loaded once, not
// per version.
log(`generate ${VERSIONS.length} version(s) in one process`);
if (want('generate') && wantRow('generate-all')) {
  // The smoke run only keeps the row alive: types of one small schema, not five versions' worth.
  const one = (i) => [CLI, 'generate', '--spec', VERSION, ...SMOKE_ARTIFACTS, '--out', join(tmp, `all-one-${i}`)];
  const r = await alternate(
    {
      ours: (i) =>
        nodeProcess(
          smoke
            ? [CLI, 'generate', '--spec', VERSIONS[0], '--artifacts', 'types', '--out', join(tmp, `all-${i}`)]
            : [CLI, 'generate', '--all', '--out', join(tmp, `all-${i}`)],
        ),
      one: (i) => nodeProcess(one(i)),
      jstt: (i) =>
        nodeProcess([join(BENCH, 'lib', 'jstt.mjs'), join(tmp, `jstt-all-${i}`), ...VERSIONS.map(schemaPath)]),
    },
    HEAVY_RUNS,
    0,
  );
  addRow({
    id: 'generate-all',
    label: `generate ${VERSIONS.length === 5 ? 'all five versions' : VERSIONS.join(', ')} in one process vs generate ${VERSION} alone`,
    metric: 'cpuMs',
    ours: measures(r.ours, PROCESS),
    baseline: measures(r.one, PROCESS),
    floorName: `generate ${VERSION}`,
    // Issue 49 item 4 (issue 28 asked ≤ 2.5×): each library loaded once, five versions at most twice one's CPU.
    goals: [cpuGoal(2)],
    note: `${smoke ? 'smoke: --spec --artifacts types' : '--all, every artifact'}; the one version in the same rounds, the sides taking turns; JSTT on the same ${VERSIONS.length} file(s): CPU ${fmt(measures(r.jstt, PROCESS).cpuMs.median, 'ms')}`,
  });
}

// 1c. no ceiling: synthetic MCP-shaped schemas (and a large extension) vs JSTT on the same file; and the largest
// with every default artifact, what a user runs, against JSTT doing the types alone (issue 49 item 4).
if (!flags['no-scale'] && want('scale')) {
  const scaled = [];
  const base = JSON.parse(readFileSync(schemaPath('2025-11-25'), 'utf8'));
  const largestDefinitions = SCALE.schemas[SCALE.schemas.length - 1][0];
  const jsttOn = (file, name) => (i) => nodeProcess([join(BENCH, 'lib', 'jstt.mjs'), join(tmp, `${name}-${i}`), file]);
  for (const [definitions, methods] of SCALE.schemas) {
    const largest = definitions === largestDefinitions;
    const smallest = definitions === SCALE.schemas[0][0];
    const typesRow = wantRow(`scale-${definitions}`) || (wantRow('scale-growth') && (largest || smallest));
    const artifactsRow = largest && wantRow(`scale-${definitions}-artifacts`);
    if (!typesRow && !artifactsRow) continue;
    const file = join(tmp, `synthetic-${definitions}.json`);
    writeFileSync(file, JSON.stringify(syntheticSchema(base, { definitions, methods })));
    const size = `${definitions.toLocaleString('en')} definitions / ${methods.toLocaleString('en')} methods`;
    if (typesRow) {
      log(`generate synthetic ${definitions} definitions / ${methods} methods`);
      const r = await alternate(
        {
          ours: (i) =>
            nodeProcess([
              CLI,
              'generate',
              '--schema',
              file,
              // The same job as JSTT's: a type for every definition (issue 28: "on the same job"). The full
              // artifact set's cost is the next row's subject.
              '--artifacts',
              'types',
              '--out',
              join(tmp, `syn-${definitions}-${i}`),
            ]),
          jstt: jsttOn(file, `jstt-syn-${definitions}`),
        },
        SCALE_RUNS,
        0,
      );
      const ours = measures(r.ours, PROCESS);
      scaled.push({ definitions, ours, jstt: measures(r.jstt, PROCESS) });
      addRow({
        id: `scale-${definitions}`,
        label: `generate synthetic schema, ${size}, types only, vs JSTT`,
        metric: 'cpuMs',
        ours,
        baseline: measures(r.jstt, PROCESS),
        floorName: 'JSTT',
        goals: largest ? [cpuGoal(1.5), rssGoal(1.5)] : [],
        note: `--artifacts types (types.ts and its index, formatted), JSTT compileFromFile with unreachableDefinitions; per 1,000 definitions: CPU ${fmt((ours.cpuMs.median / definitions) * 1000, 'ms')}, RSS ${fmt((ours.rssMb.median / definitions) * 1000, 'MB')}`,
      });
    }
    if (artifactsRow) {
      log(`generate synthetic ${definitions} definitions / ${methods} methods, default artifacts`);
      const r = await alternate(
        {
          ours: (i) =>
            nodeProcess([CLI, 'generate', '--schema', file, '--out', join(tmp, `syn-all-${definitions}-${i}`)]),
          jstt: jsttOn(file, `jstt-syn-all-${definitions}`),
        },
        SCALE_RUNS,
        0,
      );
      addRow({
        id: `scale-${definitions}-artifacts`,
        label: `generate synthetic schema, ${size}, default artifacts (what a user runs), vs JSTT doing the types alone`,
        metric: 'cpuMs',
        ours: measures(r.ours, PROCESS),
        baseline: measures(r.jstt, PROCESS),
        floorName: 'JSTT',
        // Issue 49 item 4: every default artifact for at most 1.5× JSTT's CPU and RSS on the types alone.
        goals: [cpuGoal(1.5), rssGoal(1.5)],
        note: 'no --artifacts: types, client, server, validators and their index, formatted, as `generate` writes by default; JSTT compileFromFile with unreachableDefinitions (types only)',
      });
    }
  }
  // Growth from the smallest to the largest synthetic schema: ours no steeper than JSTT's own.
  if (scaled.length > 1 && wantRow('scale-growth')) {
    const [small, large] = [scaled[0], scaled[scaled.length - 1]];
    const growth = (side) => stats([large[side].cpuMs.median / small[side].cpuMs.median]);
    addRow({
      id: 'scale-growth',
      label: `CPU growth, ${small.definitions.toLocaleString('en')} → ${large.definitions.toLocaleString('en')} definitions, vs JSTT's growth`,
      metric: 'growth',
      ours: { growth: growth('ours') },
      baseline: { growth: growth('jstt') },
      // A ratio of medians: JSTT's CPU at the largest schema is the figure that swings.
      floor: {
        name: `JSTT, ${large.definitions.toLocaleString('en')} definitions`,
        metric: 'cpuMs',
        stats: large.jstt.cpuMs,
      },
      goals: [{ metric: 'growth', kind: 'ratio', op: '<=', value: 1 }],
      note: 'growth = CPU at the largest ÷ CPU at the smallest schema',
    });
  }
  log(`generate ${VERSION} + a ${SCALE.extension}-method extension`);
  if (wantRow('scale-extension')) {
    const file = join(tmp, 'synthetic.extension.json');
    writeFileSync(file, JSON.stringify(syntheticExtension(SCALE.extension, VERSION)));
    const r = await alternate(
      {
        ours: (i) =>
          nodeProcess([
            CLI,
            'generate',
            '--spec',
            VERSION,
            '--ext',
            file,
            ...SMOKE_ARTIFACTS,
            '--out',
            join(tmp, `ext-${i}`),
          ]),
        plain: (i) =>
          nodeProcess([CLI, 'generate', '--spec', VERSION, ...SMOKE_ARTIFACTS, '--out', join(tmp, `ext-plain-${i}`)]),
      },
      SCALE_RUNS,
      0,
    );
    addRow({
      id: 'scale-extension',
      label: `generate ${VERSION} + ${SCALE.extension.toLocaleString('en')}-method extension vs without it`,
      metric: 'cpuMs',
      ours: measures(r.ours, PROCESS),
      baseline: measures(r.plain, PROCESS),
      floorName: `generate ${VERSION}`,
      note: 'baseline: the same command without the extension; both as a user gets them: the bin turns TurboFan off for a run whose inputs are all under 512 kB (src/cli/v8-tuning.ts), so the baseline runs without it and the run with the extension (larger) with it',
    });
  }
}

// 2. generate --check on up-to-date output, against node's own start-up.
log('generate --check');
if (want('check')) {
  const r = await alternate(
    {
      ours: async () => {
        const result = await nodeProcess([CLI, 'generate', '--spec', VERSION, '--out', genDir, '--check']);
        if (!/up to date/.test(result.stdout + result.stderr))
          throw new Error(`--check did not report up to date:\n${result.stdout}${result.stderr}`);
        return result;
      },
      node: nodeStartup,
    },
    RUNS,
    WARMUP,
  );
  addRow({
    id: 'check',
    label: `generate --check, up to date (${VERSION}), vs \`node -e 0\``,
    metric: 'cpuMs',
    ours: measures(r.ours, PROCESS),
    baseline: measures(r.node, PROCESS),
    floorName: 'node -e 0',
    goals: [{ metric: 'cpuMs', kind: 'absolute', op: '<=', value: 400 }, cpuGoal(6)],
    note: 'CLI through yargs, fresh process, hash fast path (loads none of ts-morph, prettier, JSTT, ajv: test/cli/bundle.test.ts); the ratio is against a bare node start-up',
  });
}

// 3. watch: after the first run, each edit of the extension file, from the file event to the last write.
log('watch: edits of the starter extension');
if (want('watch')) {
  const edits = smoke ? 2 : 2 * RUNS + 1;
  const dir = join(tmp, 'watch');
  mkdirSync(dir, { recursive: true });
  const result = await run(process.execPath, [join(BENCH, 'lib', 'watch-edit.mjs'), dir, String(edits)], {
    env: { ...ENV, MCP_TYPEGEN_CACHE: join(tmp, 'watch-cache') },
  });
  if (result.code !== 0) throw new Error(`watch-edit exited ${result.code}\n${result.stdout}${result.stderr}`);
  const { cpuMs, wallMs, rssMb } = JSON.parse(result.stdout);
  addRow({
    id: 'watch-edit',
    label: `watch, the published bin (${VERSION} + the starter extension of \`init\`): one edit of the extension file, write to "waiting"`,
    metric: 'cpuMs',
    ours: { wallMs: stats(wallMs), cpuMs: stats(cpuMs), rssMb: stats([rssMb]) },
    goals: [{ metric: 'cpuMs', kind: 'absolute', op: '<=', value: 400 }],
    note: `${edits} edits after the first run; CPU of the bin's process from /proc (nothing instrumented inside it), wall from the write to its "waiting for changes" line (includes the 100 ms debounce, which costs no CPU); RSS: its peak`,
  });
}

// 4. Node's compile cache (the bin enables it where Node has one, Node >= 22.1), on Node 22 from tools/:
// a warm cache against NODE_DISABLE_COMPILE_CACHE=1, for a cold generate and for --check.
log('compile cache (node 22)');
if (want('cache') && existsSync(NODE22)) {
  const cache = join(tmp, 'compile-cache');
  const generate = (i, env) =>
    nodeProcess(
      [CLI, 'generate', '--spec', VERSION, ...SMOKE_ARTIFACTS, '--out', join(tmp, `cc-${i}-${env ? 'off' : 'on'}`)],
      {
        node: NODE22,
        cache,
        env,
      },
    );
  if (!smoke) await generate(-1); // fills the compile cache (the smoke run's first `on` run does)
  const off = { NODE_DISABLE_COMPILE_CACHE: '1' };
  const g = await alternate({ on: (i) => generate(i), off: (i) => generate(i, off) }, HEAVY_RUNS, 0);
  addRow({
    id: 'cache-generate',
    label: `node 22: generate ${VERSION} with the compile cache warm vs disabled`,
    metric: 'cpuMs',
    ours: measures(g.on, PROCESS),
    baseline: measures(g.off, PROCESS),
    floorName: 'compile cache disabled',
    note: 'same user cache folder (schemas cached on both sides); baseline: NODE_DISABLE_COMPILE_CACHE=1',
  });
  const checkDir = join(tmp, `cc-0-on`);
  const check = (env) =>
    nodeProcess([CLI, 'generate', '--spec', VERSION, ...SMOKE_ARTIFACTS, '--out', checkDir, '--check'], {
      node: NODE22,
      cache,
      env,
    });
  const c = await alternate({ on: () => check(), off: () => check(off) }, RUNS, WARMUP);
  addRow({
    id: 'cache-check',
    label: `node 22: generate --check (up to date) with the compile cache warm vs disabled`,
    metric: 'cpuMs',
    ours: measures(c.on, PROCESS),
    baseline: measures(c.off, PROCESS),
    floorName: 'compile cache disabled',
    note: 'baseline: NODE_DISABLE_COMPILE_CACHE=1',
  });
}

// Compile the generated TypeScript to plain JS for the throughput rows (as the runtime tests do).
log('compile generated output to JS');
const jsDir = join(tmp, 'js');
if (['stdio', 'memory', 'validation', 'eras', 'auth'].some(want)) await compileGenerated(genDir, jsDir);

/** Generated TypeScript (`from`) as plain ES modules (`to`), the generated .js files copied. */
async function compileGenerated(from, to) {
  const ts = (await import('typescript')).default;
  const walk = (dir) =>
    readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
  for (const file of walk(from)) {
    const rel = relative(from, file);
    const target = join(to, rel.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    if (rel.endsWith('.d.ts') || !/\.(ts|js)$/.test(rel)) continue;
    const text = readFileSync(file, 'utf8');
    const out = rel.endsWith('.ts')
      ? ts.transpileModule(text, {
          fileName: rel,
          compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
        }).outputText
      : text;
    writeFileSync(target, out);
  }
}

/** One throughput side in its own child: rate, CPU per operation, peak RSS (with its server's). */
const throughputSide = (script, args, side, config) => async () => {
  const result = await nodeProcess(
    [join(BENCH, 'lib', script), ...args, JSON.stringify({ ...config, sides: [side] })],
    {
      cwd: ROOT,
    },
  );
  const out = JSON.parse(result.stdout);
  return { rate: out.rate[side][0], cpuUs: out.cpuUs[side][0], rssMb: result.rssMb + (out.serverRssMb?.[side] ?? 0) };
};

/** Throughput sides in their own child each, taking turns. */
async function throughput(script, args, sides, config, runs) {
  return alternate(Object.fromEntries(sides.map((s) => [s, throughputSide(script, args, s, config)])), runs, 0);
}
const THROUGHPUT = ['rate', 'cpuUs', 'rssMb'];
const rateGoal = (value) => ({ metric: 'rate', kind: 'ratio', op: '>=', value });

// 3. round trips: over stdio (a spawned server process per side) as the headline; in memory for information.
const v2 = existsSync(join(ROOT, 'node_modules', '@modelcontextprotocol', 'client', 'package.json'));
// --stdio-only leaves the v2 SDK out: its rows are not issue 14's, and at ~1k calls/s they take minutes.
const SDK_SIDES = v2 && !STDIO_ONLY ? ['sdk', 'sdk2'] : ['sdk'];
const SDK_NAMES = { sdk: '@modelcontextprotocol/sdk 1.32.2', sdk2: '@modelcontextprotocol/client + server 2.4.0' };
log(`round trips over stdio (${COUNTS.calls} calls per run)`);
for (const [inflight, name] of !want('stdio')
  ? []
  : [
      [1, 'sequential'],
      [64, '64 in flight'],
    ]) {
  const id = `roundtrip-stdio-${inflight === 1 ? 'seq' : '64'}`;
  // Each baseline side and the row that reads it: `--only <row id>` runs ours and that side alone.
  const rowOf = { sdk: id, sdk2: `${id}-v2`, echo: `${id}-echo`, 'echo-readline': `${id}-echo-readline` };
  const baselines = [...SDK_SIDES, 'echo', 'echo-readline'].filter((side) => wantRow(rowOf[side]));
  if (baselines.length === 0) continue;
  const r = await throughput(
    'roundtrip.mjs',
    [jsDir],
    ['ours', ...baselines],
    { transport: 'stdio', calls: COUNTS.calls, inflight: [inflight], runs: 1, warmup: smoke ? 0 : 1 },
    HEAVY_RUNS,
  );
  /** The echo's own CPU per call: the figure a flattering run hides (issue 49: 104 µs in one, 14–50 in others). */
  const echoFloor = (side) => ({
    name: `${side}, ${inflight === 1 ? 'sequential' : '64 in flight'}`,
    metric: 'cpuUs',
    stats: measures(r[side], ['cpuUs']).cpuUs,
  });
  for (const sdk of SDK_SIDES.filter((side) => baselines.includes(side))) {
    addRow({
      id: rowOf[sdk],
      label: `tools/call over stdio, ${name}: generated client + server vs ${SDK_NAMES[sdk]}`,
      metric: 'rate',
      ours: measures(r.ours, THROUGHPUT),
      baseline: measures(r[sdk], THROUGHPUT),
      floorName: SDK_NAMES[sdk],
      // Issue 14: at least 3× SDK 1.32.2's rate at 64 in flight.
      goals: [rateGoal(inflight === 64 && sdk === 'sdk' ? 3 : 5)],
      note: `${fmt(COUNTS.calls, 'count')} calls per run, server spawned over stdio; CPU/op = client + server CPU ÷ calls; RSS = client + server peak`,
    });
  }
  if (baselines.includes('echo'))
    addRow({
      id: `${id}-echo`,
      label: `tools/call over stdio, ${name}: generated client + server vs a raw newline-JSON echo that splits lines by hand (the floor)`,
      metric: 'rate',
      ours: measures(r.ours, THROUGHPUT),
      baseline: measures(r.echo, THROUGHPUT),
      floor: echoFloor('echo'),
      // Issue 37: sequential ≥ 0.8× the floor's rate at ≤ 1.5× its CPU per call; 64 in flight ≥ 0.9× its rate.
      goals:
        inflight === 1 ? [rateGoal(0.8), { metric: 'cpuUs', kind: 'ratio', op: '<=', value: 1.5 }] : [rateGoal(0.9)],
      note: 'the echo writes one JSON line per call and parses one back, lines split by hand on both ends; its server parses each line and answers: the floor any stdio stack pays',
    });
  if (baselines.includes('echo-readline'))
    addRow({
      id: `${id}-echo-readline`,
      label: `tools/call over stdio, ${name}: generated client + server vs the same echo with a node:readline server (not the floor; information)`,
      metric: 'rate',
      ours: measures(r.ours, THROUGHPUT),
      baseline: measures(r['echo-readline'], THROUGHPUT),
      floor: echoFloor('echo-readline'),
      note: 'readline splits lines about 10% slower than by hand: a ratio against it flatters, so no goal is set on it',
    });
}
log('round trips in memory');
if (want('memory')) {
  const r = await throughput(
    'roundtrip.mjs',
    [jsDir],
    ['ours', 'sdk'],
    { transport: 'memory', calls: COUNTS.calls, inflight: [64], runs: 1, warmup: smoke ? 0 : 1 },
    HEAVY_RUNS,
  );
  addRow({
    id: 'roundtrip-memory-64',
    label: 'tools/call in memory, 64 in flight: ours (clone: true) vs SDK InMemoryTransport (information)',
    metric: 'rate',
    ours: measures(r.ours, THROUGHPUT),
    baseline: measures(r.sdk, THROUGHPUT),
    floorName: 'SDK InMemoryTransport',
    note: 'ours copies every message as JSON would; the SDK pair passes objects through uncopied',
  });
}

// 3b. issue 37 item 3: a 2026-07-28 call against a 2025-11-25 call on the same transport, both generated pairs.
const ERA = '2026-07-28';
log(`round trips, ${ERA} vs ${VERSION}`);
if (want('eras')) {
  const eraGen = join(tmp, `gen-${ERA}`);
  await nodeProcess([CLI, 'generate', '--spec', ERA, ...SMOKE_UNFORMATTED, '--out', eraGen]);
  const eraJs = join(tmp, `js-${ERA}`);
  await compileGenerated(eraGen, eraJs);
  const small = (n) => (smoke ? COUNTS.calls : n);
  // Issue 49 item 3: in memory, on stdio at 1 and 64 in flight, over HTTP at 1 and 32 in flight.
  for (const [id, transport, inflight, calls, how] of [
    ['era-memory', 'memory', 64, COUNTS.calls, 'in memory (clone: true), 64 in flight'],
    ['era-stdio', 'stdio', 1, COUNTS.calls, 'over stdio (a spawned server), sequential'],
    ['era-stdio-64', 'stdio', 64, COUNTS.calls, 'over stdio (a spawned server), 64 in flight'],
    ['era-http', 'http', 1, small(5_000), 'over Streamable HTTP on loopback (server in the same process), sequential'],
    [
      'era-http-32',
      'http',
      32,
      small(10_000),
      'over Streamable HTTP on loopback (server in the same process), 32 in flight',
    ],
  ]) {
    if (!wantRow(id)) continue;
    const config = { transport, calls, inflight: [inflight], runs: 1, warmup: smoke ? 0 : 1 };
    const r = await alternate(
      {
        modern: throughputSide('roundtrip.mjs', [eraJs], 'ours', config),
        legacy: throughputSide('roundtrip.mjs', [jsDir], 'ours', config),
      },
      HEAVY_RUNS,
      0,
    );
    addRow({
      id,
      label: `tools/call ${how}: ${ERA} generated client + server vs ${VERSION}`,
      metric: 'cpuUs',
      ours: measures(r.modern, THROUGHPUT),
      baseline: measures(r.legacy, THROUGHPUT),
      floorName: `${VERSION} call`,
      // Issue 37: per-request _meta and result defaults cost at most a fifth more CPU and memory than 2025's calls.
      goals: [
        { metric: 'cpuUs', kind: 'ratio', op: '<=', value: 1.2 },
        { metric: 'rssMb', kind: 'ratio', op: '<=', value: 1.2 },
      ],
      note: `${fmt(calls, 'count')} calls per run; CPU/op = client + server CPU ÷ calls; RSS = client + server peak; the same handler on both`,
    });
  }
}

// 4. validation: the generated validator vs ajv compiled at run time with the same options, and vs zod.
log('validation');
if (want('validation')) {
  const config = { iterations: COUNTS.validations, runs: 1, warmup: WARMUP };
  const one = (side) => async () => {
    const result = await nodeProcess(
      [join(BENCH, 'lib', 'validate.mjs'), jsDir, schemaPath(VERSION), JSON.stringify({ ...config, sides: [side] })],
      { cwd: ROOT },
    );
    const out = JSON.parse(result.stdout);
    return { rate: out[side][0], cpuUs: 1e6 / out[side][0], rssMb: result.rssMb };
  };
  const r = await alternate({ ours: one('ours'), ajv: one('ajv'), zod: one('zod') }, RUNS, 0);
  const note = `validators.js paramsValidators['tools/call'] (CallToolRequestParams), 3 valid inputs in turn, ${fmt(COUNTS.validations, 'count')} per run; CPU/op ≈ 1 / rate (single-threaded loop)`;
  addRow({
    id: 'validation-ajv',
    label: 'tools/call params: generated validator vs ajv compiled at run time (same options)',
    metric: 'rate',
    ours: measures(r.ours, THROUGHPUT),
    baseline: measures(r.ajv, THROUGHPUT),
    floorName: 'ajv',
    goals: [rateGoal(1)],
    note: `${note}; ajv: the schema's CallToolRequestParams with the generator's options (ownProperties, no formats)`,
  });
  addRow({
    id: 'validation-zod',
    label: 'tools/call params: generated validator vs SDK zod CallToolRequestParamsSchema',
    metric: 'rate',
    ours: measures(r.ours, THROUGHPUT),
    baseline: measures(r.zod, THROUGHPUT),
    floorName: 'zod',
    goals: [rateGoal(10)],
    note: `${note}; this ratio is mostly ajv's (compiled code) against zod's (interpreted) approach`,
  });
}

// 5. type-check cost.
/** The empty program's tsc runs (the floor), for the SDK adapter's row in a smoke run. */
let emptyTsc;
log(`type-check cost (${COUNTS.usageCalls} calls)`);
if (want('tsc')) {
  const files = usageFiles(COUNTS.usageCalls);
  const project = (side) => {
    const dir = join(tmp, `tsc-${side}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'usage.ts'), files[side]);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig(join(ROOT, 'node_modules', '@types')), null, 2));
    if (side === 'ours') symlinkSync(genDir, join(dir, 'gen'), 'dir');
    return dir;
  };
  const dirs = { ours: project('ours'), sdk: project('sdk'), empty: project('empty') };
  if (v2) dirs.sdk2 = project('sdk2');
  // For information: the same usage against declarations emitted from the generated code (what a user gets
  // by compiling the output once, e.g. into a package), to separate the cost of checking the generated
  // bodies from the cost of the types themselves.
  const declDir = join(tmp, 'decl');
  {
    const declConfig = {
      compilerOptions: {
        ...tsconfig('').compilerOptions,
        typeRoots: [join(ROOT, 'node_modules', '@types')],
        noEmit: false,
        declaration: true,
        emitDeclarationOnly: true,
        outDir: declDir,
      },
      include: [join(genDir, '**', '*.ts')],
    };
    writeFileSync(join(tmp, 'tsconfig.decl.json'), JSON.stringify(declConfig, null, 2));
    await nodeProcess([TSC, '-p', join(tmp, 'tsconfig.decl.json')]);
    // Declarations are not emitted again: validators.d.ts goes along as it is.
    copyFileSync(join(genDir, 'validators.d.ts'), join(declDir, 'validators.d.ts'));
    const dir = join(tmp, 'tsc-ours-dts');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'usage.ts'), files.ours);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig(join(ROOT, 'node_modules', '@types')), null, 2));
    symlinkSync(declDir, join(dir, 'gen'), 'dir');
    dirs['ours-dts'] = dir;
  }
  const tsc = async (side) => {
    const result = await nodeProcess(
      [TSC, '-p', join(dirs[side], 'tsconfig.json'), '--extendedDiagnostics', '--pretty', 'false'],
      { cwd: dirs[side] },
    );
    const d = parseDiagnostics(result.stdout);
    if (!Number.isFinite(d.checkS) || !Number.isFinite(d.instantiations))
      throw new Error(`no diagnostics from tsc (${side}):\n${result.stdout}`);
    return { ...result, ...d };
  };
  const r = await alternate(
    {
      ours: () => tsc('ours'),
      sdk: () => tsc('sdk'),
      ...(v2 ? { sdk2: () => tsc('sdk2') } : {}),
      empty: () => tsc('empty'),
      dts: () => tsc('ours-dts'),
    },
    TSC_RUNS,
    smoke ? 0 : 1,
  );
  // Issue 37 item 4 (and issue 29's budget, the same method): the whole tsc process as a user pays it, above an
  // empty program with the same settings, each round's own floor subtracted (rounds alternate the sides' order).
  const aboveEmpty = (side) => r[side].map((x, i) => ({ cpuAboveMs: x.cpuMs - r.empty[i].cpuMs }));
  emptyTsc = r.empty;
  if (v2)
    addRow({
      id: 'tsc-process',
      label:
        'tsc whole-process CPU above an empty program: usage vs generated index vs @modelcontextprotocol/client 2.4.0',
      metric: 'cpuAboveMs',
      ours: measures(aboveEmpty('ours'), ['cpuAboveMs']),
      baseline: measures(aboveEmpty('sdk2'), ['cpuAboveMs']),
      // Both sides are differences above the empty program: its CPU is the figure that must hold still.
      floor: { name: 'tsc, empty program', metric: 'cpuMs', stats: measures(r.empty, ['cpuMs']).cpuMs },
      goals: [{ metric: 'cpuAboveMs', kind: 'ratio', op: '<=', value: 0.5 }],
      note: `(X − empty) ÷ (SDK v2 − empty), CPU of the whole tsc process (user + sys), each round's empty program subtracted; empty program: CPU ${fmt(measures(r.empty, ['cpuMs']).cpuMs.median, 'ms')}; ${COUNTS.usageCalls} typed calls importing the generated index (validators as validators.js + validators.d.ts); strict, NodeNext, skipLibCheck, types: node`,
    });
  const note = `${COUNTS.usageCalls} typed calls; strict, NodeNext, skipLibCheck; our generated .ts is checked as source`;
  const TSC_METRICS = ['checkS', ...PROCESS];
  addRow({
    id: 'tsc-check',
    label: 'tsc check time: usage vs generated client vs SDK Client',
    metric: 'checkS',
    ours: measures(r.ours, TSC_METRICS),
    baseline: measures(r.sdk, TSC_METRICS),
    floorName: 'tsc, SDK Client',
    goals: [{ metric: 'checkS', kind: 'ratio', op: '<=', value: 0.5 }],
    note,
    extra: {
      totalS: { ours: stats(r.ours.map((x) => x.totalS)), baseline: stats(r.sdk.map((x) => x.totalS)) },
      files: { ours: r.ours[0].files, baseline: r.sdk[0].files },
      types: { ours: r.ours[0].types, baseline: r.sdk[0].types },
    },
  });
  addRow({
    id: 'tsc-instantiations',
    label: 'tsc instantiations: same usage files',
    metric: 'instantiations',
    ours: measures(r.ours, ['instantiations']),
    baseline: measures(r.sdk, ['instantiations']),
    floorName: 'tsc, SDK Client',
    deterministic: true,
    goals: [{ metric: 'instantiations', kind: 'ratio', op: '<=', value: 0.5 }],
    note: 'deterministic',
  });
  addRow({
    id: 'tsc-check-dts',
    label: 'tsc check time: same usage vs declarations emitted from the generated code, vs SDK Client (information)',
    metric: 'checkS',
    ours: measures(r.dts, TSC_METRICS),
    baseline: measures(r.sdk, TSC_METRICS),
    floorName: 'tsc, SDK Client',
    note: `generated .ts compiled once to .d.ts (skipLibCheck then skips it); ${r.dts[0].instantiations} instantiations`,
  });
}

// 6. diff, against node's own start-up: both bare processes (nothing preloaded), measured through wait4.
log(`diff ${DIFF.join(' → ')}`);
if (want('diff')) {
  const help = await run(process.execPath, [CLI, '--help'], { env: ENV });
  const viaCli = /\bdiff\b/.test(help.stdout + help.stderr);
  const runs = smoke ? RUNS : Math.max(RUNS, 9);
  const r = await alternate(
    {
      ours: () =>
        viaCli
          ? bareNodeProcess([CLI, 'diff', DIFF[0], DIFF[1]], { ok: [0, 1] })
          : bareNodeProcess([join(BENCH, 'lib', 'diff-core.mjs'), ROOT, DIFF[0], DIFF[1]]),
      node: () => bareNodeProcess(['-e', '0']),
    },
    runs,
    WARMUP,
  );
  const row = addRow({
    id: 'diff',
    label: `diff ${DIFF.join(' → ')} vs \`node -e 0\``,
    metric: 'cpuMs',
    ours: measures(r.ours, PROCESS),
    baseline: measures(r.node, PROCESS),
    floorName: 'node -e 0',
    // Issue 45: the whole diff of two released versions at most 3.5× the CPU of a bare `node -e 0`, paired.
    goals: [{ metric: 'cpuMs', kind: 'ratio', op: '<=', value: 3.5 }],
    note: `${viaCli ? 'CLI, fresh process, text report' : 'diffModels in a fresh process (no diff CLI yet)'}; both processes bare (nothing preloaded), CPU and RSS from wait4; ${runs} rounds, the ratio the median of each round's (paired); the floor, a bare node start-up, ${Math.round(stats(r.node.map((x) => x.cpuMs)).median)} ms of CPU`,
  });
  // The goal is read on the paired ratio: a drift in the machine's speed between rounds cancels in it.
  row.ratios.cpuMs = row.ratio = pairedRatio(r.ours, r.node, 'cpuMs');
  for (const goal of row.goals) if (goal.metric === 'cpuMs') goal.pass = (goal.actual = row.ratio) <= goal.value;
  row.pass = row.goals.every((g) => g.pass);
  log(
    `  paired CPU ratio ${row.ratio.toFixed(2)}× (floor ${Math.round(row.baseline.cpuMs.median)} ms): ${row.pass ? 'pass' : 'MISS'}`,
  );
}

// 7. browser bundle: client + Streamable HTTP transport, ours (client-only output) vs the SDK's, same esbuild.
log('browser bundle size');
if (want('bundle')) {
  // The bench's version, and the dual-era 2026-07-28 client (it also falls back to initialize servers).
  for (const version of smoke ? [VERSION] : [VERSION, '2026-07-28']) {
    const dir = join(tmp, `bundle-${version}`);
    await nodeProcess([
      CLI,
      'generate',
      '--spec',
      version,
      '--artifacts',
      'client',
      ...SMOKE_UNFORMATTED,
      '--out',
      join(dir, 'gen'),
    ]);
    const sizes = await bundleSizes(dir);
    if (sizes.ours.nodeImports) throw new Error('the browser bundle of the generated client imports node: modules');
    // Sizes are deterministic: one build each, as one-run stats.
    const bytes = (side) => ({ gzipBytes: stats([sizes[side].gzip]), rawBytes: stats([sizes[side].raw]) });
    addRow({
      id: version === VERSION ? 'bundle' : `bundle-${version}`,
      label: `browser bundle: createClient + StreamableHttpClientTransport (client-only ${version}) vs SDK Client + StreamableHTTPClientTransport`,
      metric: 'gzipBytes',
      ours: bytes('ours'),
      baseline: bytes('sdk'),
      floorName: 'SDK bundle',
      deterministic: true,
      // Issue 13: the client and its HTTP transport at most 12 kB (12,000 bytes) gzip in a browser bundle.
      goals: [{ metric: 'gzipBytes', kind: 'absolute', op: '<=', value: 12_000 }],
      note: 'esbuild --bundle --minify --platform=browser --format=esm, gzip -9; deterministic, one build each',
    });
    if (sizes.auth.nodeImports) throw new Error('the browser bundle of the OAuth client imports node: modules');
    addRow({
      id: version === VERSION ? 'bundle-auth' : `bundle-auth-${version}`,
      deterministic: true,
      label: `browser bundle: what oauthClient (@mcp-typegen/runtime/auth, oauth4webapi included) adds to that client (${version})`,
      metric: 'gzipBytes',
      ours: {
        gzipBytes: stats([sizes.auth.gzip - sizes.ours.gzip]),
        rawBytes: stats([sizes.auth.raw - sizes.ours.raw]),
      },
      // Issue 42: the client with its auth option at most 16 kB more than without.
      goals: [{ metric: 'gzipBytes', kind: 'absolute', op: '<=', value: 16_000 }],
      note: `gzip -9 difference (with auth ${sizes.auth.gzip} B, without ${sizes.ours.gzip} B); same esbuild settings`,
    });
  }
}

// 7b. The MCP Apps ends (issue 46): a view (UiView) and a host (UiHost) with PostMessageTransport, beside ext-apps'
// App and AppBridge. The view's goal: at most 8 kB gzip.
if (want('bundle')) {
  const dir = join(tmp, 'bundle-apps');
  await nodeProcess([
    CLI,
    'generate',
    '--spec',
    // The ui extension targets 2025-06-18 and later (the smoke run's VERSION is older).
    '2025-11-25',
    '--ext',
    'io.modelcontextprotocol/ui',
    ...SMOKE_UNFORMATTED,
    '--out',
    join(dir, 'gen'),
  ]);
  const sizes = await appsBundleSizes(dir);
  const bytes = (side) => ({ gzipBytes: stats([sizes[side].gzip]), rawBytes: stats([sizes[side].raw]) });
  for (const [end, theirs, goals] of [
    ['view', 'extView', [{ metric: 'gzipBytes', kind: 'absolute', op: '<=', value: 8_000 }]],
    ['host', 'extHost', []],
  ]) {
    addRow({
      id: `bundle-${end}`,
      label: `browser bundle: MCP Apps ${end} (Ui${end === 'view' ? 'View' : 'Host'} + PostMessageTransport, ${VERSION}) vs ext-apps ${end === 'view' ? 'App' : 'AppBridge'}`,
      metric: 'gzipBytes',
      ours: bytes(end),
      baseline: bytes(theirs),
      floorName: 'ext-apps bundle',
      deterministic: true,
      goals,
      note: 'esbuild --bundle --minify --platform=browser --format=esm, gzip -9; deterministic, one build each',
    });
  }
}

// 8. The SDK adapter (issue 29): the generated `sdk` artifact of the example extension on SDK v2.
if (want('sdk') && v2) {
  const version = smoke ? '2025-06-18' : VERSION;
  log(`SDK adapter (acme/jobs, ${version})`);
  const gen = join(tmp, 'sdk-gen');
  const acme = join(ROOT, 'schema', 'examples', 'acme-jobs.extension.json');
  await nodeProcess([
    CLI,
    'generate',
    '--spec',
    version,
    '--ext',
    acme,
    '--artifacts',
    'sdk',
    ...SMOKE_UNFORMATTED,
    '--out',
    gen,
  ]);
  const files = { ...sdkUsageFiles(COUNTS.usageCalls), empty: 'export {};\n' };
  const dirs = {};
  for (const side of Object.keys(files)) {
    const dir = join(tmp, `sdk-tsc-${side}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'usage.ts'), files[side]);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig(join(ROOT, 'node_modules', '@types')), null, 2));
    if (side === 'ours') symlinkSync(gen, join(dir, 'gen'), 'dir');
    dirs[side] = dir;
  }
  const tsc = async (side) => {
    const result = await nodeProcess([TSC, '-p', join(dirs[side], 'tsconfig.json'), '--pretty', 'false'], {
      cwd: dirs[side],
    });
    return result;
  };
  // The smoke run takes the empty program's one run from the tsc rows (same settings, same empty module).
  const reuseEmpty = smoke && emptyTsc !== undefined;
  const r = await alternate(
    {
      ours: () => tsc('ours'),
      zod: () => tsc('zod'),
      client: () => tsc('client'),
      ...(reuseEmpty ? {} : { empty: () => tsc('empty') }),
    },
    TSC_RUNS,
    smoke ? 0 : 1,
  );
  if (reuseEmpty) r.empty = emptyTsc;
  const above = (side, floor, key) => r[side].map((x, i) => ({ [key]: x.cpuMs - r[floor][i].cpuMs }));
  const aboveEmpty = (side) => above(side, 'empty', 'cpuAboveMs');
  const clientShare = measures(aboveEmpty('client'), ['cpuAboveMs']).cpuAboveMs.median;
  addRow({
    id: 'sdk-tsc',
    label: `tsc whole-process CPU above an empty program: ${COUNTS.usageCalls} acme/jobs calls through sdkClient vs hand-made zod schemas, both on @modelcontextprotocol/client 2.4.0`,
    metric: 'cpuAboveMs',
    ours: measures(aboveEmpty('ours'), ['cpuAboveMs']),
    baseline: measures(aboveEmpty('zod'), ['cpuAboveMs']),
    floor: { name: 'tsc, empty program', metric: 'cpuMs', stats: measures(r.empty, ['cpuMs']).cpuMs },
    goals: [{ metric: 'cpuAboveMs', kind: 'ratio', op: '<=', value: 0.5 }],
    note: `(X − empty) ÷ (zod − empty), as the tsc-process row; the zod side declares the extension's results as the SDK v2 docs show custom methods (client.request({ method, params }, schema)); strict, NodeNext, skipLibCheck. Both sides import, construct and connect the SDK's Client, which alone costs ${fmt(clientShare, 'ms')} above the empty program: no adapter can read below that share of the zod side`,
  });
  addRow({
    id: 'sdk-tsc-calls',
    label: `tsc whole-process CPU above the same program without the calls: ${COUNTS.usageCalls} acme/jobs calls through sdkClient vs hand-made zod schemas (what the calls and their types cost, the SDK's own Client left out)`,
    metric: 'cpuAboveClientMs',
    ours: measures(above('ours', 'client', 'cpuAboveClientMs'), ['cpuAboveClientMs']),
    baseline: measures(above('zod', 'client', 'cpuAboveClientMs'), ['cpuAboveClientMs']),
    floor: { name: 'tsc, SDK Client alone', metric: 'cpuMs', stats: measures(r.client, ['cpuMs']).cpuMs },
    note: 'information: (X − client) ÷ (zod − client), where client imports, constructs and connects the SDK Client and calls nothing',
  });
  await typeCounts(dirs, {
    id: 'sdk-tsc-counts',
    label: `tsc's own counts above the program without calls: ${COUNTS.usageCalls} acme/jobs calls through sdkClient vs hand-made zod schemas (SDK v2 Client)`,
  });
  await sdkToolsCounts(version);
  const dir = join(tmp, 'sdk-bundle');
  mkdirSync(dir, { recursive: true });
  symlinkSync(gen, join(dir, 'gen'), 'dir');
  const sizes = await sdkBundleSizes(dir);
  addRow({
    id: 'sdk-bundle',
    deterministic: true,
    label: 'browser bundle: sdkClient calling every acme/jobs method, minus the validators those calls use',
    metric: 'gzipBytes',
    ours: {
      gzipBytes: stats([sizes.facade.gzip - sizes.validators.gzip]),
      rawBytes: stats([sizes.facade.raw - sizes.validators.raw]),
    },
    goals: [{ metric: 'gzipBytes', kind: 'absolute', op: '<=', value: 1_500 }],
    note: `the adapter's own bytes (gzip -9 difference; facade bundle ${sizes.facade.gzip} B, validators alone ${sizes.validators.gzip} B); esbuild --bundle --minify --platform=browser; the SDK is not bundled (the adapter never imports it)`,
  });
}

/**
 * tsc's own counts (`--extendedDiagnostics`: types and instantiations, deterministic, one run each) of the `ours`
 * and `zod` programs above the `client` one (the SDK's Client imported, constructed and connected): what the
 * calls and their types cost the type checker, whatever the machine (issue 44 item 8).
 */
async function typeCounts(dirs, { id, label }) {
  const counts = {};
  for (const side of ['ours', 'zod', 'client']) {
    const args = [TSC, '-p', join(dirs[side], 'tsconfig.json'), '--extendedDiagnostics', '--pretty', 'false'];
    counts[side] = parseDiagnostics((await nodeProcess(args, { cwd: dirs[side] })).stdout);
  }
  const above = (side) => ({
    instantiations: stats([counts[side].instantiations - counts.client.instantiations]),
    types: stats([counts[side].types - counts.client.types]),
  });
  addRow({
    id,
    label,
    metric: 'instantiations',
    ours: above('ours'),
    baseline: above('zod'),
    floorName: 'tsc, hand-made zod',
    deterministic: true,
    goals: [
      { metric: 'instantiations', kind: 'ratio', op: '<=', value: 0.5 },
      { metric: 'types', kind: 'ratio', op: '<=', value: 0.5 },
    ],
    note: `(X − client) ÷ (zod − client) of tsc --extendedDiagnostics counts; the client program alone: ${counts.client.types} types, ${counts.client.instantiations} instantiations; strict, NodeNext, skipLibCheck`,
  });
}

/** The SDK tools facade (issue 44): `sdkTools(client).tool.forecast(…)` on the weather snapshot vs callTool and hand-made zod. */
async function sdkToolsCounts(version) {
  const gen = join(tmp, 'sdk-tools-gen');
  const snapshot = join(ROOT, 'test', 'fixtures', 'snapshots', 'weather.snapshot.json');
  await nodeProcess([CLI, 'generate', '--spec', version, '--tools', snapshot, ...SMOKE_UNFORMATTED, '--out', gen]);
  const files = sdkToolsUsageFiles(COUNTS.usageCalls);
  const dirs = {};
  for (const side of Object.keys(files)) {
    const dir = join(tmp, `sdk-tools-tsc-${side}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'usage.ts'), files[side]);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig(join(ROOT, 'node_modules', '@types')), null, 2));
    if (side === 'ours') symlinkSync(gen, join(dir, 'gen'), 'dir');
    dirs[side] = dir;
  }
  await typeCounts(dirs, {
    id: 'sdk-tools-tsc-counts',
    label: `tsc's own counts above the program without calls: ${COUNTS.usageCalls} tool calls through sdkTools vs callTool with hand-made zod schemas (SDK v2 Client)`,
  });
}

// 8b. The resource-server gate (issue 42 item 7): the same call with and without `auth`, paired round by round in
// one process (lib/auth-gate.mjs), with a token already verified and with a token never seen before.
log('the auth gate: tools/call over Streamable HTTP with and without auth');
if (want('auth')) {
  const calls = smoke ? 20 : 2_000;
  // Nine rounds: the budgets are absolute (µs above the call without auth), so the median needs more rounds than a ratio.
  const config = { calls, runs: smoke ? 1 : Math.max(RUNS, 9), warmup: smoke ? 0 : 1 };
  const result = await nodeProcess([join(BENCH, 'lib', 'auth-gate.mjs'), jsDir, JSON.stringify(config)], { cwd: ROOT });
  const out = JSON.parse(result.stdout);
  const sideOf = (name) => out.cpuUs[name].map((cpuUs, i) => ({ cpuUs, rate: out.rate[name][i] }));
  const above = (name) => sideOf(name).map((x, i) => ({ ...x, cpuAboveUs: x.cpuUs - out.cpuUs.none[i] }));
  for (const [side, what, budget] of [
    ['cached', 'a token already verified (remembered by its hash)', 100],
    ['first', 'a token never seen before (an ES256 JWT signature check each call)', 300],
    ['firstRs256', 'a token never seen before (an RS256 JWT signature check each call)', 300],
    // Information: RFC 9449 asks for a proof check on every request, so the remembered token's budget is not its.
    [
      'dpop',
      'a DPoP-bound token already verified and a fresh ES256 proof each call (a proof check on every request)',
      undefined,
    ],
  ]) {
    addRow({
      id: `auth-gate-${side.replace('Rs256', '-rs256')}`,
      label: `tools/call over Streamable HTTP on loopback, sequential: the auth gate with ${what} vs the same call without auth`,
      metric: 'cpuUs',
      ours: measures(above(side), ['cpuUs', 'rate', 'cpuAboveUs']),
      baseline: measures(sideOf('none'), ['cpuUs', 'rate']),
      floorName: 'the call without auth',
      // Issue 42: at most 0.1 ms more CPU per call for a remembered token, 0.3 ms for a first verification.
      goals: budget === undefined ? [] : [{ metric: 'cpuAboveUs', kind: 'absolute', op: '<=', value: budget }],
      note: `${fmt(calls, 'count')} calls per round, the sides taking turns every 100 calls in one process (client and server both in it); CPU/op above no auth = each round's difference; RFC 9068 JWTs checked by jwtVerifier, minted before the round`,
    });
  }
}

/** A cluster-cpu row's goal read on the paired ratio of CPU per call (each round's, then the median). */
function pairCpu(row, ours, plain) {
  row.ratios.cpuUs = row.ratio = pairedRatio(ours, plain, 'cpuUs');
  row.ratios.cpuWithRedisUs = pairedRatio(ours, plain, 'cpuWithRedisUs');
  for (const goal of row.goals) goal.pass = (goal.actual = row.ratio) <= goal.value;
  row.pass = row.goals.every((g) => g.pass);
  log(
    `  paired CPU ratio ${row.ratio.toFixed(2)}× (with redis-server ${row.ratios.cpuWithRedisUs.toFixed(2)}×; floor ${Math.round(row.baseline.cpuUs.median)} µs/call): ${row.pass ? 'pass' : 'MISS'}`,
  );
}

// 9. A cluster (issue 31): 1 node without Redis, 1 node with its state in Redis, 3 nodes behind HAProxy, both
// eras. Not in --smoke: it needs redis-server and haproxy (installed with apt-get when missing).
if (want('cluster') && !smoke) {
  log('cluster: redis-server, haproxy, node processes on loopback');
  const { ensureClusterTools } = await import('./lib/cluster-processes.mjs');
  const { clusterBench } = await import('./lib/cluster.mjs');
  ensureClusterTools();
  const dirs = {};
  for (const version of ['2025-11-25', '2026-07-28']) {
    const gen = join(tmp, `cluster-gen-${version}`);
    await nodeProcess([CLI, 'generate', '--spec', version, '--out', gen]);
    await compileGenerated(gen, (dirs[version] = join(tmp, `cluster-js-${version}`)));
  }
  // At least MIN_ROUNDS: the cluster-cpu rows are paired ratios (the configurations take turns each round).
  const config = {
    clients: 8,
    calls: 4_000,
    inflight: 32,
    sequentialCalls: 1_500,
    runs: smoke ? 1 : Math.max(HEAVY_RUNS, MIN_ROUNDS),
  };
  const r = await clusterBench(dirs, config);
  const CLUSTER = ['rate', 'p99Ms', 'redisPerCall', 'cpuUs', 'cpuWithRedisUs'];
  const eras = { '2025-11-25': '2025-11-25 session', '2026-07-28': '2026-07-28 (sessionless)' };
  for (const [version, era] of Object.entries(eras)) {
    const plain = measures(r[`${version}-plain`], CLUSTER);
    addRow({
      id: `cluster-${version}-redis`,
      label: `tools/call over Streamable HTTP, ${era}, ${config.inflight} in flight: 1 node with its state in Redis vs 1 node without`,
      metric: 'rate',
      ours: measures(r[`${version}-redis`], CLUSTER),
      baseline: plain,
      floorName: '1 node without Redis',
      // Issue 31: a sessionless call asks nothing of the shared state.
      goals: version === '2026-07-28' ? [{ metric: 'redisPerCall', kind: 'absolute', op: '<=', value: 0 }] : [],
      note: `${fmt(config.calls, 'count')} calls from ${config.clients} generated clients; Redis commands = INFO total_commands_processed around the calls ÷ calls${version === '2025-11-25' ? ' (each SSE event is XADD + PEXPIRE, sent together: a priming event and the answer per call)' : ''}`,
    });
    addRow({
      id: `cluster-${version}-three`,
      label: `tools/call over Streamable HTTP, ${era}, ${config.inflight} in flight: 3 nodes behind HAProxy round-robin vs 1 node without Redis`,
      metric: 'rate',
      ours: measures(r[`${version}-three`], CLUSTER),
      baseline: plain,
      floorName: '1 node without Redis',
      goals: version === '2026-07-28' ? [{ metric: 'redisPerCall', kind: 'absolute', op: '<=', value: 0 }] : [],
      note: `${cpus().length} CPU(s) shared by the client, HAProxy, Redis and the 3 nodes: on a small machine this row shows correctness under contention and the proxy's cost, not scaling`,
    });
    // Issue 46 item 3: what the shared state costs the server, in CPU per call (the node's own; redis-server's
    // beside it), paired round by round with the node without Redis so a drift in the machine's speed cancels;
    // one call at a time, every node behind the auth gate (sessions bound to identities).
    const row = addRow({
      id: version === '2025-11-25' ? 'cluster-cpu' : `cluster-cpu-${version}`,
      label: `server CPU per tools/call over Streamable HTTP, ${era}, sequential, auth gate on: 1 node with its state in Redis vs 1 node without`,
      metric: 'cpuUs',
      ours: measures(r[`${version}-cpuRedis`], CLUSTER),
      baseline: measures(r[`${version}-cpuPlain`], CLUSTER),
      floorName: '1 node without Redis',
      goals: [{ metric: 'cpuUs', kind: 'ratio', op: '<=', value: 2 }],
      note: `${fmt(config.sequentialCalls, 'count')} calls one at a time per round, ${config.runs} rounds, the configurations taking turns; every node behind the auth gate (jwtVerifier, a token per client, its session bound to the identity); CPU = the node process's utime + stime (/proc) around the calls ÷ calls, the ratio the median of each round's (paired); CPU/op with redis-server adds Redis's own`,
    });
    pairCpu(row, r[`${version}-cpuRedis`], r[`${version}-cpuPlain`]);
    if (r[`${version}-cpuRedisLater`] === undefined) continue;
    const later = addRow({
      id: `cluster-cpu-later`,
      label: `server CPU per tools/call over Streamable HTTP, ${era}, sequential, auth gate on, a handler answering a turn of the event loop later: 1 node with its state in Redis vs 1 node without`,
      metric: 'cpuUs',
      ours: measures(r[`${version}-cpuRedisLater`], CLUSTER),
      baseline: measures(r[`${version}-cpuPlainLater`], CLUSTER),
      floorName: '1 node without Redis',
      goals: [{ metric: 'cpuUs', kind: 'ratio', op: '<=', value: 2 }],
      note: `as cluster-cpu, but each call's stream opens with a priming event (stored, then deleted with the stream: XADD + PEXPIRE, DEL)`,
    });
    pairCpu(later, r[`${version}-cpuRedisLater`], r[`${version}-cpuPlainLater`]);
  }
}

// ---------------------------------------------------------------------------------------------- output

/** The table's column heads; the last cell of each row is the command that reproduces it. */
const TABLE_HEAD = [
  '| Measure | Ours | Baseline | Ratio | Floor | Goal | Result | Notes | Reproduce (`npm run bench -- --only <id>`) |',
  '|---|---|---|---|---|---|---|---|---|',
];

const endLoad = loadavg();
const results = {
  date: new Date().toISOString(),
  smoke,
  runs: RUNS,
  warmup: WARMUP,
  heavyRuns: HEAVY_RUNS,
  tscRuns: TSC_RUNS,
  scaleRuns: SCALE_RUNS,
  minRounds: MIN_ROUNDS,
  spreadBound: SPREAD_BOUND,
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? '',
  loadavg: { start: startLoad, end: endLoad },
  version: VERSION,
  // `--only <row id>`: the rows asked for (a section runs whole rows that share its measurements).
  rows: rows.filter((row) => wantRow(row.id)),
};
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, JSON.stringify(results, null, 2) + '\n');
const table = renderTable(results);
process.stdout.write(table.join('\n') + '\n');
log(`bench: results in ${relative(process.cwd(), outFile) || outFile}`);
const unreliable = results.rows.filter((row) => !row.reliable);
if (unreliable.length)
  log(`bench: ${unreliable.length} row(s) marked unreliable: ${unreliable.map((row) => row.id).join(', ')}`);
if (flags['write-readme']) updateReadme(results);
if (!flags.keep) rmSync(tmp, { recursive: true, force: true });

/** The table's lines: a header line of the run, the column heads, one line per row. */
function renderTable(r) {
  const lines = [
    `${r.date.slice(0, 10)} · node ${r.node} · ${r.cpus} CPU(s) · load ${r.loadavg.start[0].toFixed(1)} → ${r.loadavg.end[0].toFixed(1)} · median of ${r.runs} round(s) after ${r.warmup} warm-up(s) (heavy rows: ${r.heavyRuns}, tsc rows: ${r.tscRuns ?? r.heavyRuns}, scaling rows: ${r.scaleRuns ?? 1}), the sides taking turns, min–max in brackets; a row is unreliable under ${r.minRounds} rounds or when its floor's spread ((max − min) ÷ median) exceeds ${Math.round(r.spreadBound * 100)}% or its normal range`,
    '',
    ...TABLE_HEAD,
  ];
  for (const row of r.rows) lines.push(tableLine(row, runStamp(r)));
  return lines;
}

/** "2026-12-02, load 1.1 → 2.8": which run a README line came from. */
function runStamp(r) {
  return `${r.date.slice(0, 10)}, load ${r.loadavg.start[0].toFixed(1)} → ${r.loadavg.end[0].toFixed(1)}, ${r.cpus} CPU(s)`;
}

function tableLine(row, stamp) {
  const metricName = (m) => METRICS[m].label || m;
  const ratios = Object.entries(row.ratios)
    .map(([m, v]) => `${v.toFixed(2)}× ${metricName(m)}`)
    .join(', ');
  const goals = row.goals
    .map((g) => {
      const op = g.op === '>=' ? '≥' : g.op === '<' ? '<' : '≤';
      const unit = METRICS[g.metric]?.unit ?? '';
      return g.kind === 'ratio'
        ? `${metricName(g.metric)} ${op} ${g.value}×`
        : `${metricName(g.metric)} ${op} ${fmt(g.value, unit)}`;
    })
    .join(', ');
  const verdicts = row.pass === null ? [] : row.goals.map((g) => (g.pass ? 'pass' : '**miss**'));
  if (!row.reliable) verdicts.push(`**unreliable** (${row.floor.reasons.join('; ')})`);
  return `| ${row.label} | ${cell(row.ours)} | ${cell(row.baseline)} | ${ratios} | ${floorCell(row.floor)} | ${goals} | ${verdicts.join(', ')} | ${row.note} | \`--only ${row.id}\` (${stamp}) |`;
}

/**
 * Puts this run's reliable rows into bench/README.md, in place of the same rows of an earlier run; rows marked
 * unreliable are left out (the earlier quote, if any, stays), so the README quotes only floors that held.
 */
function updateReadme(r) {
  const file = join(BENCH, 'README.md');
  const start = '<!-- bench:table:start -->';
  const end = '<!-- bench:table:end -->';
  if (!existsSync(file)) return;
  const text = readFileSync(file, 'utf8');
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) return;
  const quoted = r.rows.filter((row) => row.reliable && !r.smoke);
  const fresh = quoted.map((row) => [row.id, tableLine(row, runStamp(r))]);
  const header = [
    `Each row is quoted from the run in its last cell; rows are medians of ≥ ${r.minRounds} rounds, the sides taking turns, and a run's row is quoted only when its floor held (spread ≤ ${Math.round(r.spreadBound * 100)}%, within its normal range: \`bench/lib/floors.mjs\`).`,
    '',
    ...TABLE_HEAD,
  ];
  const merged = mergeTable(text.slice(a + start.length, b), fresh, header);
  writeFileSync(file, `${text.slice(0, a + start.length)}\n${merged}\n${text.slice(b)}`);
  const left = r.rows.length - quoted.length;
  log(
    `bench: ${quoted.length} row(s) written to bench/README.md${left ? `, ${left} left out (${r.smoke ? 'a smoke run' : 'unreliable'})` : ''}`,
  );
}
