/**
 * What keeps a bench ratio from flattering (issue 49 item 1): the floor's verdict (bench/lib/floors.mjs), `--only`
 * by row id (bench/lib/sections.mjs) and the README's table merged row by row (bench/lib/readme-table.mjs).
 */
import { describe, expect, it } from 'vitest';
import { MIN_ROUNDS, SPREAD_BOUND, judgeFloor, spread } from '../../bench/lib/floors.mjs';
import { parseOnly, sectionOfRow } from '../../bench/lib/sections.mjs';
import { lineId, mergeTable } from '../../bench/lib/readme-table.mjs';

const stats = (runs: number[]) => {
  const sorted = [...runs].sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1]!, min: sorted[0]!, max: sorted[sorted.length - 1]!, runs };
};

describe('judgeFloor', () => {
  it('holds a floor of 5 rounds that agree within the bound and sit in their normal range', () => {
    const verdict = judgeFloor({ name: 'echo, sequential', metric: 'cpuUs', stats: stats([30, 31, 32, 33, 34]) });
    expect(verdict).toMatchObject({ reliable: true, reasons: [], rounds: 5, median: 32 });
    expect(verdict.spread).toBeCloseTo(4 / 32);
  });

  it('marks too few rounds, a floor that swung past the bound, and one outside its normal range', () => {
    expect(judgeFloor({ name: 'JSTT', metric: 'cpuMs', stats: stats([900, 910, 920]) }).reasons).toEqual([
      `3 round(s) < ${MIN_ROUNDS}`,
    ]);
    const swung = stats([100, 100, 100, 100, 100 * (1 + SPREAD_BOUND) + 1]);
    expect(judgeFloor({ name: 'JSTT', metric: 'cpuMs', stats: swung }).reasons).toEqual([
      `floor spread ${Math.round(spread(swung) * 100)}% > ${Math.round(SPREAD_BOUND * 100)}%`,
    ]);
    // Issue 49: the echo at 104 µs per call in every round flattered the stdio rows.
    const slow = judgeFloor({ name: 'echo, sequential', metric: 'cpuUs', stats: stats([104, 104, 105, 104, 106]) });
    expect(slow.reliable).toBe(false);
    expect(slow.reasons).toEqual(['floor 104 outside its normal 10–60']);
  });

  it('asks no rounds of a deterministic row (sizes, counts)', () => {
    expect(
      judgeFloor({ name: 'SDK bundle', metric: 'gzipBytes', stats: stats([91380]) }, { deterministic: true }),
    ).toMatchObject({ reliable: true, rounds: 1 });
  });
});

describe('--only', () => {
  it('takes sections and row ids, and runs a row id’s section showing only that row', () => {
    expect(sectionOfRow('roundtrip-stdio-seq-echo')).toBe('stdio');
    expect(sectionOfRow('era-http-32')).toBe('eras');
    expect(sectionOfRow('scale-10000-artifacts')).toBe('scale');
    const only = parseOnly(['tsc', 'era-stdio-64']);
    expect(only.sections).toEqual(['tsc', 'eras']);
    expect(only.wantRow('tsc-check')).toBe(true);
    expect(only.wantRow('era-stdio-64')).toBe(true);
    expect(only.wantRow('era-memory')).toBe(false);
    expect(only.wantRow('node-startup')).toBe(true);
    expect(() => parseOnly(['nonsense'])).toThrow('nonsense is neither a section');
  });
});

describe('the README table', () => {
  const line = (id: string, figure: string) => `| ${id} | ${figure} | \`--only ${id}\` (2026-12-02, load 1.0 → 1.0) |`;
  const header = ['intro', '', '| Measure | Reproduce |', '|---|---|'];

  it('replaces rows by id, keeps the rows a run did not quote, and drops rows that carry no id', () => {
    const previous = [
      'old intro',
      '',
      '| Measure | Reproduce |',
      '|---|---|',
      '| a row without an id | 1 |',
      line('a', '1'),
      line('b', '1'),
      line('c', '1'),
    ].join('\n');
    const merged = mergeTable(
      previous,
      [
        ['b', line('b', '2')],
        ['new', line('new', '2')],
      ],
      header,
    ).split('\n');
    expect(merged.slice(0, 4)).toEqual(header);
    expect(merged.slice(4).map(lineId)).toEqual(['a', 'b', 'new', 'c']);
    expect(merged[5]).toBe(line('b', '2'));
    expect(merged[4]).toBe(line('a', '1'));
  });

  it('appends a row new to the table when no row of its run comes before it', () => {
    const merged = mergeTable(line('a', '1'), [['z', line('z', '1')]], header).split('\n');
    expect(merged.slice(4).map(lineId)).toEqual(['a', 'z']);
  });
});
