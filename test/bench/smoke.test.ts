/**
 * Keeps `npm run bench` from rotting: one smoke run of bench/run.mjs (one iteration each, tiny counts, the
 * smallest schema), checked for a results JSON with every row and numeric figures. Timings are never
 * asserted: the machine is shared and noisy.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, SCHEMA_DIR, run } from '../helpers/generate.js';

const V2 = existsSync(join(ROOT, 'node_modules', '@modelcontextprotocol', 'client', 'package.json'));
/** The compile-cache rows run on Node 22 from tools/ (the test setup installs it). */
const NODE22 = existsSync(join(ROOT, 'tools', 'node22', 'node_modules', '.bin', 'node'));
const ROWS = [
  'node-startup',
  'generate-2024-11-05',
  'generate-warm',
  'generate-all',
  'scale-250',
  'scale-250-artifacts',
  'scale-extension',
  'check',
  'watch-edit',
  ...(NODE22 ? ['cache-generate', 'cache-check'] : []),
  'roundtrip-stdio-seq',
  ...(V2 ? ['roundtrip-stdio-seq-v2'] : []),
  'roundtrip-stdio-seq-echo',
  'roundtrip-stdio-seq-echo-readline',
  'roundtrip-stdio-64',
  ...(V2 ? ['roundtrip-stdio-64-v2'] : []),
  'roundtrip-stdio-64-echo',
  'roundtrip-stdio-64-echo-readline',
  'roundtrip-memory-64',
  'era-memory',
  'era-stdio',
  'era-stdio-64',
  'era-http',
  'era-http-32',
  'validation-ajv',
  'validation-zod',
  ...(V2 ? ['tsc-process'] : []),
  'tsc-check',
  'tsc-instantiations',
  'tsc-check-dts',
  'diff',
  'bundle',
  'bundle-auth',
  'bundle-view',
  'bundle-host',
  ...(V2 ? ['sdk-tsc', 'sdk-tsc-calls', 'sdk-tsc-counts', 'sdk-tools-tsc-counts', 'sdk-bundle'] : []),
  'auth-gate-cached',
  'auth-gate-first',
  'auth-gate-first-rs256',
  'auth-gate-dpop',
];

interface Stats {
  median: number;
  min: number;
  max: number;
  runs: number[];
}
interface Row {
  id: string;
  label: string;
  metric: string;
  ours: Record<string, Stats>;
  baseline: Record<string, Stats> | null;
  ratio: number | null;
  goals: { metric: string; kind: string; op: string; value: number; pass: boolean }[];
  pass: boolean | null;
  floor: {
    name: string;
    metric: string;
    median: number;
    rounds: number;
    spread: number;
    reliable: boolean;
    reasons: string[];
  };
  reliable: boolean;
  note: string;
}

/** Rows whose figures are deterministic (sizes, tsc's own counts): no rounds needed to quote them. */
const DETERMINISTIC = new Set([
  'tsc-instantiations',
  'bundle',
  'bundle-auth',
  'bundle-view',
  'bundle-host',
  'sdk-tsc-counts',
  'sdk-tools-tsc-counts',
  'sdk-bundle',
]);

describe('bench smoke run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-typegen-bench-smoke-'));
  const outFile = join(dir, 'results.json');
  let result: { code: number | null; stdout: string; stderr: string };
  const readme = readFileSync(join(ROOT, 'bench', 'README.md'), 'utf8');

  beforeAll(async () => {
    result = await run(process.execPath, [join(ROOT, 'bench', 'run.mjs'), '--smoke', '--out', outFile], {
      env: { MCP_SCHEMA_DIR: SCHEMA_DIR },
    });
  }, 600_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0, prints the table and leaves the tracked README alone', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      '| Measure | Ours | Baseline | Ratio | Floor | Goal | Result | Notes | Reproduce (`npm run bench -- --only <id>`) |',
    );
    expect(readFileSync(join(ROOT, 'bench', 'README.md'), 'utf8')).toBe(readme);
  });

  it('writes a results JSON with every row and numeric figures: wall (but where bare), CPU and RSS on every process row', () => {
    const results = JSON.parse(readFileSync(outFile, 'utf8')) as { smoke: boolean; rows: Row[] };
    expect(results.smoke).toBe(true);
    expect(results.rows.map((r) => r.id)).toEqual(ROWS);
    // A difference of two processes' CPU (X − empty, X − the program without calls), or of two sides' (with auth −
    // without), is measured once in a smoke run and may read below zero on a busy machine: finite, not
    // necessarily positive.
    const DIFFERENCES = new Set(['cpuAboveMs', 'cpuAboveClientMs', 'cpuAboveUs']);
    const finite = (s: Stats, metric: string) => {
      for (const n of [s.median, s.min, s.max, ...s.runs])
        expect(Number.isFinite(n) && (DIFFERENCES.has(metric) || n >= 0)).toBe(true);
      expect(s.runs.length).toBeGreaterThan(0);
    };
    for (const row of results.rows) {
      for (const [metric, s] of Object.entries(row.ours)) finite(s, metric);
      expect(row.ours[row.metric]).toBeDefined();
      // Rows of tsc's own counts (instantiations, types) have no process figures.
      const counts =
        row.id.startsWith('tsc-instantiations') || row.id.startsWith('sdk-tsc') || row.id.startsWith('sdk-tools-tsc');
      if (!counts && row.id !== 'tsc-process') {
        const metrics =
          row.id.startsWith('roundtrip') || row.id.startsWith('era-') || row.id.startsWith('validation')
            ? ['rate', 'cpuUs', 'rssMb']
            : row.id.startsWith('auth-gate')
              ? // Both sides in one process: no RSS of their own; the CPU above the side without auth.
                ['rate', 'cpuUs', 'cpuAboveUs']
              : row.id.startsWith('bundle') || row.id === 'sdk-bundle'
                ? ['gzipBytes', 'rawBytes']
                : // The diff row's processes are bare, measured through wait4 by a python parent: no wall time.
                  row.id === 'diff'
                  ? ['cpuMs', 'rssMb']
                  : ['wallMs', 'cpuMs', 'rssMb'];
        expect(Object.keys(row.ours), row.id).toEqual(expect.arrayContaining(metrics));
      }
      if (row.baseline) {
        for (const [metric, s] of Object.entries(row.baseline)) finite(s, metric);
        expect(Number.isFinite(row.ratio)).toBe(true);
      }
      for (const goal of row.goals) expect(typeof goal.pass).toBe('boolean');
      expect(row.label.length).toBeGreaterThan(0);
    }
  });

  it("prints every row's floor beside its ratio, and marks a smoke run's timed rows unreliable (too few rounds)", () => {
    const results = JSON.parse(readFileSync(outFile, 'utf8')) as { rows: Row[] };
    const lines = result.stdout.split('\n');
    for (const row of results.rows) {
      expect(row.floor.name.length, row.id).toBeGreaterThan(0);
      expect(Number.isFinite(row.floor.median) && Number.isFinite(row.floor.spread), row.id).toBe(true);
      // A ratio row's floor is, unless the row names another, its baseline's own figure of the row's metric.
      if (row.baseline && row.floor.metric === row.metric)
        expect(row.floor.median, row.id).toBe(row.baseline[row.metric]!.median);
      // One round each: a timed row cannot be quoted; a deterministic one (sizes, counts) can.
      expect(row.reliable, row.id).toBe(DETERMINISTIC.has(row.id));
      // (The watch row's rounds are edits: two in a smoke run.)
      if (!row.reliable) expect(row.floor.reasons.join('; '), row.id).toMatch(/^[12] round\(s\) < 5\b/);
      // The table line: its floor cell with the floor's name, the unreliable mark, the command that reproduces it.
      const line = lines.find((l) => l.includes(`\`--only ${row.id}\` (`));
      expect(line, row.id).toBeDefined();
      const cells = line!.split(' | ');
      expect(cells[4], row.id).toContain(`${row.floor.name}: `);
      expect(/\*\*unreliable\*\* \([12] round\(s\) < 5/.test(line!), row.id).toBe(!row.reliable);
    }
  });
});

describe('bench --only <row id>', () => {
  it('runs that row alone (and node start-up, the floor under every process row)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-typegen-bench-only-'));
    try {
      const out = join(dir, 'results.json');
      const only = await run(
        process.execPath,
        [join(ROOT, 'bench', 'run.mjs'), '--smoke', '--only', 'generate-all', '--out', out],
        { env: { MCP_SCHEMA_DIR: SCHEMA_DIR } },
      );
      expect(only.code, only.stderr).toBe(0);
      const rows = (JSON.parse(readFileSync(out, 'utf8')) as { rows: Row[] }).rows.map((r) => r.id);
      expect(rows).toEqual(['node-startup', 'generate-all']);
      const bad = await run(process.execPath, [join(ROOT, 'bench', 'run.mjs'), '--smoke', '--only', 'no-such-row'], {
        env: { MCP_SCHEMA_DIR: SCHEMA_DIR },
      });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('no-such-row is neither a section');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
