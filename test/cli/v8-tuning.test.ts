/** The bin's choice of V8 compiler setting by the size of each target's inputs (src/cli/v8-tuning.ts). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { isSmallRun, SMALL_TARGET_BYTES } from '../../src/cli/v8-tuning.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-typegen-v8-tuning-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: number): string {
  const path = join(dir, name);
  writeFileSync(path, 'x'.repeat(bytes));
  return path;
}

it('counts each target on its own: many small targets are a small run, one large target is not', () => {
  const half = file('half.json', SMALL_TARGET_BYTES / 2);
  const rest = file('rest.json', SMALL_TARGET_BYTES / 2 - 1);
  expect(isSmallRun([[half, rest]])).toBe(true);
  // `--all`: five schemas, each small, together over the line.
  expect(isSmallRun(Array.from({ length: 5 }, () => [half]))).toBe(true);
  const large = file('large.json', SMALL_TARGET_BYTES);
  expect(isSmallRun([[half], [large]])).toBe(false);
  // A schema and its extension are one target's inputs.
  expect(isSmallRun([[half, file('ext.json', SMALL_TARGET_BYTES / 2)]])).toBe(false);
});

it('counts a file that is not there as empty (the run itself reports it)', () => {
  expect(isSmallRun([[join(dir, 'missing.json')]])).toBe(true);
  expect(isSmallRun([])).toBe(true);
});
