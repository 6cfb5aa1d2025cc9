#!/usr/bin/env node
/**
 * `npm run bench`: mcp-typegen against its baselines, side by side, in one run.
 *
 *   node bench/run.mjs [--runs N] [--warmup N] [--out file] [--no-readme] [--keep] [--smoke]
 *
 * Start-up-bound work (generate, --check, diff, tsc) runs as a fresh `node` child per measurement, the two
 * sides alternating so machine noise hits both alike; throughput (round trips, validation) runs in-process in
 * one child per row. Every figure is a median of several runs after a warm-up, with min–max. Writes
 * bench/results/latest.json and the table in bench/README.md. `--smoke` is the rot check run by the tests:
 * one iteration each, tiny counts, the smallest schema, nothing written but the results JSON.
 * Timings are only printed and recorded, never asserted.
 */
import { spawn } from 'node:child_process';
import {
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
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleSizes } from './lib/bundle.mjs';
import { parseDiagnostics, tsconfig, usageFiles } from './lib/usage-files.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = join(BENCH, '..');
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const HOOK = pathToFileURL(join(BENCH, 'lib', 'usage-hook.mjs')).href;
const SCHEMA_DIR = process.env.MCP_SCHEMA_DIR ?? join(ROOT, '..', 'shared', 'mcp-schema');
const ALL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

const { values: flags } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    runs: { type: 'string' },
    warmup: { type: 'string' },
    out: { type: 'string' },
    'no-readme': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const smoke = flags.smoke;
const RUNS = Number(flags.runs ?? (smoke ? 1 : 5));
const WARMUP = Number(flags.warmup ?? (smoke ? 0 : 1));
/** Heavy process rows (all five versions, tsc) take fewer runs. */
const HEAVY_RUNS = smoke ? 1 : Math.max(1, Math.min(RUNS, 3));
const VERSION = smoke ? '2024-11-05' : '2025-11-25';
const DIFF = smoke ? ['2024-11-05', '2025-03-26'] : ['2025-11-25', '2026-07-28'];
const VERSIONS = smoke ? ['2024-11-05'] : ALL_VERSIONS;
const COUNTS = smoke
  ? { calls: 50, warmCalls: 1, validations: 1_000, usageCalls: 10 }
  : { calls: 5_000, warmCalls: 1, validations: 200_000, usageCalls: 50 };
const outFile = flags.out ?? join(BENCH, 'results', 'latest.json');
const schemaPath = (v) => join(SCHEMA_DIR, v, 'schema.json');

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
/** One fresh `node` process: wall time seen from here, CPU time and peak RSS reported by the child. */
async function nodeProcess(args, { ok = [0], cwd } = {}) {
  const usageFile = join(tmp, `usage-${usageCounter++}.json`);
  const started = performance.now();
  const result = await run(process.execPath, ['--import', HOOK, ...args], {
    cwd,
    env: { ...ENV, BENCH_USAGE_FILE: usageFile },
  });
  const wallMs = performance.now() - started;
  if (!ok.includes(result.code))
    throw new Error(`node ${args.join(' ')} exited ${result.code}\n${result.stdout}${result.stderr}`);
  const usage = JSON.parse(readFileSync(usageFile, 'utf8'));
  return { wallMs, cpuMs: usage.cpuMs, maxRssKb: usage.maxRssKb, stdout: result.stdout, stderr: result.stderr };
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

const rows = [];
/**
 * A table row. `ours`/`baseline` are stats; `ratio` is ours ÷ baseline of the medians (absolute rows have
 * none); `goal` says which way is good.
 */
function addRow({ id, label, unit, ours, baseline, goal, note, extra }) {
  const ratio = baseline ? ours.median / baseline.median : null;
  const value = goal?.kind === 'ratio' ? ratio : ours.median;
  const pass = goal
    ? goal.op === '<='
      ? value <= goal.value
      : goal.op === '<'
        ? value < goal.value
        : value >= goal.value
    : null;
  // Child CPU time is much less sensitive to a busy machine than wall time: shown beside it.
  const cpu = extra?.cpuMs;
  const cpuNote = cpu
    ? `child CPU ${cpu.ours ? `${fmt(cpu.ours.median, 'ms')} vs ${fmt(cpu.baseline.median, 'ms')} (${(cpu.ours.median / cpu.baseline.median).toFixed(2)}×)` : fmt(cpu.median, 'ms')}`
    : '';
  note = [note, cpuNote].filter(Boolean).join('; ');
  const row = {
    id,
    label,
    unit,
    ours,
    baseline: baseline ?? null,
    ratio,
    goal: goal ?? null,
    pass,
    note,
    ...(extra ? { extra } : {}),
  };
  rows.push(row);
  log(
    `  ${label}: ${fmt(ours.median, unit)}${baseline ? ` vs ${fmt(baseline.median, unit)} (${ratio.toFixed(2)}×)` : ''}${goal ? (pass ? ' pass' : ' MISS') : ''}`,
  );
  return row;
}

function fmt(value, unit) {
  if (!Number.isFinite(value)) return String(value);
  if (unit === 'ms') return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
  if (unit === 's') return `${value.toFixed(2)} s`;
  if (unit === 'MB') return `${Math.round(value)} MB`;
  if (unit === 'kB') return `${value.toFixed(1)} kB`;
  if (unit === '/s')
    return value >= 1e6
      ? `${(value / 1e6).toFixed(2)}M/s`
      : value >= 1e3
        ? `${(value / 1e3).toFixed(1)}k/s`
        : `${Math.round(value)}/s`;
  if (unit === 'count')
    return value >= 1e6 ? `${(value / 1e6).toFixed(2)}M` : value >= 1e3 ? `${(value / 1e3).toFixed(1)}k` : `${value}`;
  return `${value}`;
}

const pick = (results, key) => stats(results.map((r) => r[key]));
const mb = (results) => stats(results.map((r) => r.maxRssKb / 1024));

// ---------------------------------------------------------------------------------------------- rows

log(
  `bench: ${smoke ? 'smoke, ' : ''}${RUNS} run(s) after ${WARMUP} warm-up(s); node ${process.version}; ${cpus().length} CPU(s); load ${startLoad.map((l) => l.toFixed(1)).join(' ')}`,
);
log(`bench: temp dir ${tmp}`);

// Node's own start-up, the floor under every process row.
log('node start-up');
{
  const r = await alternate({ node: () => nodeProcess(['-e', '0']) }, RUNS, WARMUP);
  addRow({
    id: 'node-startup',
    label: 'node start-up (floor)',
    unit: 'ms',
    ours: pick(r.node, 'wallMs'),
    note: '`node -e 0`, for scale',
    extra: { cpuMs: pick(r.node, 'cpuMs') },
  });
}

// 1. generate one version, every artifact, formatted vs JSTT compileFromFile; each a fresh process.
log(`generate ${VERSION}`);
let genDir;
{
  const r = await alternate(
    {
      ours: async (i) => {
        const dir = join(tmp, `gen-${i}`);
        const result = await nodeProcess([CLI, 'generate', '--spec', VERSION, '--out', dir]);
        genDir = dir;
        return result;
      },
      jstt: (i) => nodeProcess([join(BENCH, 'lib', 'jstt.mjs'), join(tmp, `jstt-${i}`), schemaPath(VERSION)]),
    },
    RUNS,
    WARMUP,
  );
  addRow({
    id: 'generate',
    label: `generate ${VERSION} (all artifacts, formatted) vs JSTT compileFromFile`,
    unit: 'ms',
    ours: pick(r.ours, 'wallMs'),
    baseline: pick(r.jstt, 'wallMs'),
    goal: { kind: 'ratio', op: '<=', value: 1 },
    note: 'fresh process each, imports included; JSTT emits types only',
    extra: { cpuMs: { ours: pick(r.ours, 'cpuMs'), baseline: pick(r.jstt, 'cpuMs') } },
  });
  addRow({
    id: 'generate-rss',
    label: `peak RSS, generate ${VERSION} vs JSTT`,
    unit: 'MB',
    ours: mb(r.ours),
    baseline: mb(r.jstt),
    note: 'maxRSS of the child',
  });
}

// 1b. every version in one process.
log(`generate ${VERSIONS.length} version(s) in one process`);
{
  const r = await alternate(
    {
      ours: (i) =>
        nodeProcess(
          smoke
            ? // The smoke run only keeps the row alive: types of one small schema, not five versions' worth.
              [CLI, 'generate', '--spec', VERSIONS[0], '--artifacts', 'types', '--out', join(tmp, `all-${i}`)]
            : [CLI, 'generate', '--all', '--out', join(tmp, `all-${i}`)],
        ),
      jstt: (i) =>
        nodeProcess([join(BENCH, 'lib', 'jstt.mjs'), join(tmp, `jstt-all-${i}`), ...VERSIONS.map(schemaPath)]),
    },
    HEAVY_RUNS,
    0,
  );
  addRow({
    id: 'generate-all',
    label: `generate ${VERSIONS.length === 5 ? 'all five versions' : VERSIONS.join(', ')} in one process vs JSTT`,
    unit: 'ms',
    ours: pick(r.ours, 'wallMs'),
    baseline: pick(r.jstt, 'wallMs'),
    note: `${smoke ? 'smoke: --spec --artifacts types' : '--all, every artifact'}; no warm-up (the row above warmed the caches)`,
    extra: { cpuMs: { ours: pick(r.ours, 'cpuMs'), baseline: pick(r.jstt, 'cpuMs') } },
  });
  addRow({
    id: 'generate-all-rss',
    label: 'peak RSS, all versions vs JSTT',
    unit: 'MB',
    ours: mb(r.ours),
    baseline: mb(r.jstt),
    note: 'maxRSS of the child',
  });
}

// 2. generate --check on up-to-date output.
log('generate --check');
{
  const r = await alternate(
    {
      ours: async () => {
        const result = await nodeProcess([CLI, 'generate', '--spec', VERSION, '--out', genDir, '--check']);
        if (!/up to date/.test(result.stdout + result.stderr))
          throw new Error(`--check did not report up to date:\n${result.stdout}${result.stderr}`);
        return result;
      },
    },
    RUNS,
    WARMUP,
  );
  addRow({
    id: 'check',
    label: `generate --check, up to date (${VERSION})`,
    unit: 'ms',
    ours: pick(r.ours, 'wallMs'),
    goal: { kind: 'absolute', op: '<=', value: 250 },
    note: 'CLI, fresh process, hash fast path',
    extra: { cpuMs: pick(r.ours, 'cpuMs') },
  });
}

// Compile the generated TypeScript to plain JS for the in-process rows (as the runtime tests do).
log('compile generated output to JS');
const jsDir = join(tmp, 'js');
{
  const ts = (await import('typescript')).default;
  const walk = (dir) =>
    readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
  for (const file of walk(genDir)) {
    const rel = relative(genDir, file);
    const target = join(jsDir, rel.replace(/\.ts$/, '.js'));
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

// 3. round trips, in-process.
log('round trips');
{
  const config = (clone, inflight) =>
    JSON.stringify({ calls: COUNTS.calls, inflight, runs: RUNS, warmup: WARMUP ? COUNTS.warmCalls : 0, clone });
  const fair = JSON.parse(
    (await nodeProcess([join(BENCH, 'lib', 'roundtrip.mjs'), jsDir, config(false, [1, 64])], { cwd: ROOT })).stdout,
  );
  const cloned = JSON.parse(
    (await nodeProcess([join(BENCH, 'lib', 'roundtrip.mjs'), jsDir, config(true, [64])], { cwd: ROOT })).stdout,
  );
  const note =
    'ours over createInMemoryPair({ clone: false }) — the SDK InMemoryTransport passes objects through uncloned too';
  for (const [inflight, name] of [
    [1, 'sequential'],
    [64, '64 in flight'],
  ]) {
    addRow({
      id: `roundtrip-${inflight === 1 ? 'seq' : '64'}`,
      label: `tools/call round trips, ${name}: generated client+server vs SDK Client+Server`,
      unit: '/s',
      ours: stats(fair[inflight].ours),
      baseline: stats(fair[inflight].sdk),
      goal: { kind: 'ratio', op: '>=', value: 5 },
      note,
    });
  }
  addRow({
    id: 'roundtrip-64-clone',
    label: 'tools/call, 64 in flight, ours with clone: true (default) vs SDK',
    unit: '/s',
    ours: stats(cloned[64].ours),
    baseline: stats(cloned[64].sdk),
    note: 'for information: the default in-memory pair copies every message as JSON would',
  });
}

// 4. validation, in-process.
log('validation');
{
  const config = JSON.stringify({ iterations: COUNTS.validations, runs: RUNS, warmup: WARMUP });
  const r = JSON.parse((await nodeProcess([join(BENCH, 'lib', 'validate.mjs'), jsDir, config], { cwd: ROOT })).stdout);
  addRow({
    id: 'validation',
    label: `tools/call params: compiled validator vs SDK zod ${r.sdkName}`,
    unit: '/s',
    ours: stats(r.ours),
    baseline: stats(r.sdk),
    goal: { kind: 'ratio', op: '>=', value: 10 },
    note: "validators.ts paramsValidators['tools/call'] (CallToolRequestParams); 3 inputs in turn",
  });
}

// 5. type-check cost.
log(`type-check cost (${COUNTS.usageCalls} calls)`);
{
  const files = usageFiles(COUNTS.usageCalls);
  const project = (side) => {
    const dir = join(tmp, `tsc-${side}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'usage.ts'), files[side]);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig(join(ROOT, 'node_modules', '@types')), null, 2));
    if (side === 'ours') symlinkSync(genDir, join(dir, 'gen'), 'dir');
    return dir;
  };
  const dirs = { ours: project('ours'), sdk: project('sdk') };
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
    { ours: () => tsc('ours'), sdk: () => tsc('sdk'), dts: () => tsc('ours-dts') },
    HEAVY_RUNS,
    smoke ? 0 : 1,
  );
  const note = `${COUNTS.usageCalls} typed calls; strict, NodeNext, skipLibCheck; our generated .ts is checked as source`;
  addRow({
    id: 'tsc-check',
    label: 'tsc check time: usage vs generated client vs SDK Client',
    unit: 's',
    ours: pick(r.ours, 'checkS'),
    baseline: pick(r.sdk, 'checkS'),
    goal: { kind: 'ratio', op: '<=', value: 0.5 },
    note,
    extra: {
      totalS: { ours: pick(r.ours, 'totalS'), baseline: pick(r.sdk, 'totalS') },
      files: { ours: r.ours[0].files, baseline: r.sdk[0].files },
      types: { ours: r.ours[0].types, baseline: r.sdk[0].types },
    },
  });
  addRow({
    id: 'tsc-instantiations',
    label: 'tsc instantiations: same usage files',
    unit: 'count',
    ours: pick(r.ours, 'instantiations'),
    baseline: pick(r.sdk, 'instantiations'),
    goal: { kind: 'ratio', op: '<=', value: 0.5 },
    note: 'deterministic',
  });
  addRow({
    id: 'tsc-check-dts',
    label: 'tsc check time: same usage vs declarations emitted from the generated code, vs SDK Client',
    unit: 's',
    ours: pick(r.dts, 'checkS'),
    baseline: pick(r.sdk, 'checkS'),
    note: `for information: generated .ts compiled once to .d.ts (skipLibCheck then skips it); ${r.dts[0].instantiations} instantiations`,
    extra: { instantiations: pick(r.dts, 'instantiations') },
  });
}

// 6. diff.
log(`diff ${DIFF.join(' → ')}`);
{
  const help = await run(process.execPath, [CLI, '--help'], { env: ENV });
  const viaCli = /\bdiff\b/.test(help.stdout + help.stderr);
  const r = await alternate(
    {
      ours: () =>
        viaCli
          ? nodeProcess([CLI, 'diff', DIFF[0], DIFF[1]], { ok: [0, 1] })
          : nodeProcess([join(BENCH, 'lib', 'diff-core.mjs'), ROOT, DIFF[0], DIFF[1]]),
    },
    RUNS,
    WARMUP,
  );
  addRow({
    id: 'diff',
    label: `diff ${DIFF.join(' → ')}`,
    unit: 'ms',
    ours: pick(r.ours, 'wallMs'),
    goal: { kind: 'absolute', op: '<', value: 300 },
    note: viaCli ? 'CLI, fresh process, text report' : 'diffModels in a fresh process (no diff CLI yet)',
    extra: { cpuMs: pick(r.ours, 'cpuMs') },
  });
}

// 7. browser bundle: client + Streamable HTTP transport, ours (client-only output) vs the SDK's, same esbuild.
log('browser bundle size');
{
  const dir = join(tmp, 'bundle');
  await nodeProcess([CLI, 'generate', '--spec', VERSION, '--artifacts', 'client', '--out', join(dir, 'gen')]);
  const sizes = await bundleSizes(dir);
  if (sizes.ours.nodeImports) throw new Error('the browser bundle of the generated client imports node: modules');
  const kB = (side, key) => stats([sizes[side][key] / 1024]);
  const note = 'esbuild --bundle --minify --platform=browser --format=esm; deterministic, one build each';
  addRow({
    id: 'bundle-gzip',
    label: `browser bundle, gzip: createClient + StreamableHttpClientTransport (client-only ${VERSION}) vs SDK Client + StreamableHTTPClientTransport`,
    unit: 'kB',
    ours: kB('ours', 'gzip'),
    baseline: kB('sdk', 'gzip'),
    goal: { kind: 'absolute', op: '<=', value: 12 },
    note: `${note}; gzip -9`,
  });
  addRow({
    id: 'bundle-raw',
    label: 'browser bundle, minified bytes: same bundles',
    unit: 'kB',
    ours: kB('ours', 'raw'),
    baseline: kB('sdk', 'raw'),
    note,
  });
}

// ---------------------------------------------------------------------------------------------- output

const endLoad = loadavg();
const results = {
  date: new Date().toISOString(),
  smoke,
  runs: RUNS,
  warmup: WARMUP,
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? '',
  loadavg: { start: startLoad, end: endLoad },
  version: VERSION,
  rows,
};
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, JSON.stringify(results, null, 2) + '\n');
const table = renderTable(results);
process.stdout.write(table + '\n');
log(`bench: results in ${relative(process.cwd(), outFile) || outFile}`);
if (!smoke && !flags['no-readme']) updateReadme(table);
if (!flags.keep) rmSync(tmp, { recursive: true, force: true });

function renderTable(r) {
  const cell = (s) => (s ? `${fmt(s.median, unitOf)} (${fmt(s.min, unitOf)}–${fmt(s.max, unitOf)})` : '—');
  let unitOf;
  const lines = [
    `${r.date.slice(0, 10)} · node ${r.node} · ${r.cpus} CPU(s) · load ${r.loadavg.start[0].toFixed(1)} → ${r.loadavg.end[0].toFixed(1)} · median of ${r.runs} run(s) after ${r.warmup} warm-up(s) (heavy rows: ${HEAVY_RUNS}), min–max in brackets`,
    '',
    '| Measure | Ours | Baseline | Ratio | Goal | Result | Notes |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of r.rows) {
    unitOf = row.unit;
    const goal = row.goal
      ? row.goal.kind === 'ratio'
        ? `${row.goal.op === '>=' ? '≥' : row.goal.op === '<' ? '<' : '≤'} ${row.goal.value}×`
        : `${row.goal.op === '<' ? '<' : '≤'} ${fmt(row.goal.value, row.unit)}`
      : '';
    const result = row.pass === null ? '' : row.pass ? 'pass' : '**miss**';
    lines.push(
      `| ${row.label} | ${cell(row.ours)} | ${cell(row.baseline)} | ${row.ratio === null ? '' : `${row.ratio.toFixed(2)}×`} | ${goal} | ${result} | ${row.note} |`,
    );
  }
  return lines.join('\n');
}

function updateReadme(table) {
  const file = join(BENCH, 'README.md');
  const start = '<!-- bench:table:start -->';
  const end = '<!-- bench:table:end -->';
  if (!existsSync(file)) return;
  const text = readFileSync(file, 'utf8');
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) return;
  writeFileSync(file, `${text.slice(0, a + start.length)}\n${table}\n${text.slice(b)}`);
  log('bench: table written to bench/README.md');
}
