/** The bin's choice of V8 compiler setting by the size of each target's inputs (src/cli/v8-tuning.ts). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { isSmallRun, SMALL_TARGET_BYTES } from '../../src/cli/v8-tuning.js';
import { ROOT, run } from '../helpers/generate.js';

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

/**
 * The size V8's new space reaches in a fresh process with the bin's settings (kept small at start-up, then tuned
 * for a run of `target`), after allocating objects that survive a scavenge or two: the built module, as the
 * bin runs it.
 */
async function newSpaceAfterRun(...targets: string[]): Promise<number> {
  const tuning = pathToFileURL(join(ROOT, 'dist', 'src', 'cli', 'v8-tuning.js')).href;
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    const { keepYoungGenerationSmall, tuneCompilerForRun } = await import(${JSON.stringify(tuning)});
    keepYoungGenerationSmall();
    tuneCompilerForRun(process.argv.slice(1).map((file) => [file]));
    const kept = [];
    for (let i = 0; i < 2e6; i++) { kept.push({ i, s: 'x' + i }); if (kept.length > 50000) kept.length = 0; }
    console.log(getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);`;
  const result = await run(process.execPath, ['--input-type=module', '-e', script, ...targets]);
  expect(result.code, result.stderr).toBe(0);
  return Number(result.stdout.trim());
}

it('keeps the young generation small for a small run and lets it grow for a large one (issue 49: half the CPU was the collector)', async () => {
  const MiB = 1024 * 1024;
  const half = file('half-again.json', SMALL_TARGET_BYTES / 2);
  expect(await newSpaceAfterRun(file('tiny.json', 10))).toBeLessThanOrEqual(4 * MiB);
  expect(await newSpaceAfterRun(half)).toBeLessThanOrEqual(4 * MiB);
  expect(await newSpaceAfterRun(file('big.json', SMALL_TARGET_BYTES))).toBeGreaterThan(4 * MiB);
  // `--all`: small targets, together over the line: still no TurboFan (isSmallRun), but the young generation grows.
  expect(await newSpaceAfterRun(half, half)).toBeGreaterThan(4 * MiB);
}, 60_000);
