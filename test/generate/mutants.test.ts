/**
 * Property (issue 36): over 320 seeded mutants of small schemas cut from the five official ones (see
 * test/helpers/mutants.ts), `generate()` either returns output that `tsc --strict` compiles, or throws an
 * InputError naming the mutant's file and a JSON pointer into it — never anything else. In process, with
 * every successful output checked in ONE tsc program, so the whole property costs seconds.
 * A failure names the seed: `mutant(seed, bases)` rebuilds that schema alone.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { generate } from '../../src/generate.js';
import { resolvePointer } from '../../src/load/pointer.js';
import { oneLine } from '../../src/run/console.js';
import { tempDir, tscProject, writeFiles, type Version } from '../helpers/generate.js';
import { BASE_VERSIONS, baseSchema, mutant, type Schema } from '../helpers/mutants.js';

const COUNT = 320;

interface Outcome {
  seed: number;
  what: string;
  kind: 'written' | 'refused' | 'crashed';
  detail: string;
}

const outcomes: Outcome[] = [];
let dir = '';

beforeAll(async () => {
  const bases = new Map<Version, Schema>(BASE_VERSIONS.map((v) => [v, baseSchema(v)]));
  dir = tempDir('mutants');
  for (let seed = 1; seed <= COUNT; seed++) {
    const { text, what } = mutant(seed, bases);
    const file = `mutant-${seed}.json`;
    try {
      const result = await generate({ schema: file, text, outDir: join(dir, `m${seed}`), cwd: dir, format: false });
      writeFiles(join(dir, `m${seed}`), result.files);
      outcomes.push({ seed, what, kind: 'written', detail: '' });
    } catch (error) {
      outcomes.push({
        seed,
        what,
        kind: refusedWell(error, file, text) ? 'refused' : 'crashed',
        detail: String(error),
      });
    }
  }
}, 120_000);

/** An InputError about this file, with a pointer that resolves in it (or in its parent, for a missing key). */
function refusedWell(error: unknown, file: string, text: string): boolean {
  if (!(error instanceof InputError) || error.file !== file || error.pointer === undefined) return false;
  const json: unknown = JSON.parse(text);
  const parent = error.pointer.slice(0, error.pointer.lastIndexOf('/'));
  return resolvePointer(json, error.pointer) !== undefined || resolvePointer(json, parent) !== undefined;
}

describe(`${COUNT} seeded mutants of the five schemas`, () => {
  it('never crash: every failure is an InputError with the file and a pointer into it', () => {
    const crashed = outcomes.filter((o) => o.kind === 'crashed').map((o) => `seed ${o.seed} (${o.what}): ${o.detail}`);
    expect(crashed).toEqual([]);
    // Both outcomes occur, or the mutations are too tame or too wild to test anything.
    expect(outcomes.filter((o) => o.kind === 'written').length).toBeGreaterThan(COUNT / 5);
    expect(outcomes.filter((o) => o.kind === 'refused').length).toBeGreaterThan(COUNT / 5);
  });

  it('print every refusal as one line', () => {
    for (const o of outcomes.filter((x) => x.kind === 'refused')) expect(oneLine(o.detail)).not.toMatch(/[\n\r\u2028]/);
  });

  it('write only output that tsc --strict compiles (all of it in one program)', async () => {
    const result = await tscProject(dir, { skipLibCheck: true });
    const errors = result.stdout.split('\n').filter((l) => l.includes('error TS'));
    const bySeed = errors.map((line) => {
      const seed = Number(/m(\d+)[\\/]/.exec(line)?.[1]);
      return `seed ${seed} (${outcomes.find((o) => o.seed === seed)?.what}): ${line}`;
    });
    expect(bySeed.slice(0, 20)).toEqual([]);
  }, 120_000);
});
