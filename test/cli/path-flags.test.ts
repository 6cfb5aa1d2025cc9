/**
 * A path flag whose value names nothing the user can have meant is a usage error (one line, exit 2), not
 * a path: `--out ''` resolved to the working directory and generated into it, `-o -` made a directory
 * named "-", and an empty `--ignore`, `--pairing` or `--schema-dir` was silently dropped.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { captureOut, outsideTempDir, runCli } from './helpers.js';
import { FIXTURE_SCHEMAS } from '../helpers/generate.js';

const MINIMAL = join(FIXTURE_SCHEMAS, 'minimal.schema.json');
const EMPTY = (flag: string) => `${flag} needs a path, and its value is empty ("${flag} -" reads as empty too)`;

describe('generate into an output that is no directory name', () => {
  // The built CLI in an empty working directory: what the user ran, and the place it wrote into.
  it.each([
    [['--out', ''], EMPTY('--out')],
    [['--out', '-'], EMPTY('--out')],
    [['-o', '-'], '--out -: writing to standard output is not supported; name a directory (./- for one named "-")'],
  ])('%j: one usage line, exit 2, the working directory stays empty', async (flags, error) => {
    const cwd = outsideTempDir('out-flag');
    const run = await runCli(['generate', '--schema', MINIMAL, '--artifacts', 'types', ...flags], { cwd });
    expect(run.stderr.split('\n')[0]).toBe(`error: ${error}`);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('an empty path to any command', () => {
  const out = join(outsideTempDir('path-flags'), 'out');
  const generate = ['generate', '--schema', MINIMAL, '--out', out];
  const diff = ['diff', MINIMAL, MINIMAL];
  it.each([
    ['--schema', ['generate', '--schema', '', '--out', out]],
    ['--schema-dir', ['generate', '--spec', '2025-11-25', '--schema-dir', '', '--out', out]],
    ['--ext', [...generate, '--ext', '']],
    ['--pairing', [...generate, '--pairing', '']],
    ['--config', ['generate', '--config', '']],
    ['--ignore', [...diff, '--ignore', '']],
    ['--pairing', [...diff, '--pairing', '']],
    ['--schema-dir', [...diff, '--schema-dir', '']],
    ['--old-ext', [...diff, '--old-ext', '']],
    ['--schema', ['methods', '--schema', '']],
    ['--schema-dir', ['methods', '--spec', '2025-11-25', '--schema-dir', '']],
    ['--schema-dir', ['schemas', 'list', '--schema-dir', '']],
  ])('%s in %j: one usage line, exit 2, nothing written', async (flag, argv) => {
    const run = captureOut();
    expect(await main(argv, run)).toBe(2);
    expect(run.errors).toEqual([EMPTY(flag)]);
    expect(readdirSync(join(out, '..'))).toEqual([]);
  });
});
