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
  'era-http',
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
  note: string;
}

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
    expect(result.stdout).toContain('| Measure | Ours | Baseline | Ratio | Goal | Result | Notes |');
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
});
