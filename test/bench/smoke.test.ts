/**
 * Keeps `npm run bench` from rotting: one smoke run of bench/run.mjs (one iteration each, tiny counts, the
 * smallest schema), checked for a results JSON with every row and numeric figures. Timings are never
 * asserted: the machine is shared and noisy.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, SCHEMA_DIR, ensureBuilt, run } from '../helpers/generate.js';

const ROWS = [
  'node-startup',
  'generate',
  'generate-rss',
  'generate-all',
  'generate-all-rss',
  'check',
  'roundtrip-seq',
  'roundtrip-64',
  'roundtrip-64-clone',
  'validation',
  'tsc-check',
  'tsc-instantiations',
  'tsc-check-dts',
  'diff',
  'bundle-gzip',
  'bundle-raw',
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
  unit: string;
  ours: Stats;
  baseline: Stats | null;
  ratio: number | null;
  goal: { kind: string; op: string; value: number } | null;
  pass: boolean | null;
  note: string;
}

describe('bench smoke run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-typegen-bench-smoke-'));
  const outFile = join(dir, 'results.json');
  let result: { code: number | null; stdout: string; stderr: string };

  beforeAll(async () => {
    await ensureBuilt();
    result = await run(process.execPath, [join(ROOT, 'bench', 'run.mjs'), '--smoke', '--out', outFile], {
      env: { MCP_SCHEMA_DIR: SCHEMA_DIR },
    });
  }, 600_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 and prints the table', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('| Measure | Ours | Baseline | Ratio | Goal | Result | Notes |');
  });

  it('writes a results JSON with every row and numeric figures', () => {
    const results = JSON.parse(readFileSync(outFile, 'utf8')) as { smoke: boolean; rows: Row[] };
    expect(results.smoke).toBe(true);
    expect(results.rows.map((r) => r.id)).toEqual(ROWS);
    const finite = (s: Stats) => {
      for (const n of [s.median, s.min, s.max, ...s.runs]) expect(Number.isFinite(n) && n >= 0).toBe(true);
      expect(s.runs.length).toBeGreaterThan(0);
    };
    for (const row of results.rows) {
      finite(row.ours);
      if (row.baseline) {
        finite(row.baseline);
        expect(Number.isFinite(row.ratio)).toBe(true);
      }
      if (row.goal) expect(typeof row.pass).toBe('boolean');
      expect(row.label.length).toBeGreaterThan(0);
    }
  });
});
