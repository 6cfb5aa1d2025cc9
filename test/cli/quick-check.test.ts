/**
 * The pre-yargs paths: a plain `generate` runs as the yargs command would; `generate --check` answers only
 * "up to date", and only when every hash matches; everything else falls through (undefined) to the full
 * command line.
 */
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Out } from '../../src/run/console.js';
import { main } from '../../src/cli/main.js';
import { quickCheck, quickGenerate } from '../../src/cli/quick-check.js';

import { SCHEMA_DIR } from '../helpers/paths.js';
const work = mkdtempSync(join(tmpdir(), 'mcp-typegen-quick-'));
const out = join(work, 'out');
const base = ['generate', '--spec', '2025-11-25', '--schema-dir', SCHEMA_DIR, '--out', out, '--artifacts', 'types'];

function capture(): Out & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (l) => lines.push(l),
    verbose: () => undefined,
    warn: () => undefined,
    error: (l) => lines.push(`error: ${l}`),
  };
}

beforeAll(async () => {
  expect(await main(base, capture())).toBe(0);
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('quickGenerate', () => {
  const tsFiles = (dir: string) =>
    Object.fromEntries(
      readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
    );

  it('writes what the yargs command writes, without loading yargs', async () => {
    vi.doMock('yargs', () => {
      throw new Error('yargs was loaded');
    });
    try {
      const quick = base.map((a) => (a === out ? join(work, 'quick') : a));
      expect(await main(quick, capture())).toBe(0);
    } finally {
      vi.doUnmock('yargs');
    }
    // `--schemaDir` (camel case) is yargs' alone, so this run takes the full command line.
    const full = base.map((a) => (a === '--schema-dir' ? '--schemaDir' : a === out ? join(work, 'full') : a));
    expect(await quickGenerate(full, capture())).toBeUndefined();
    expect(await main(full, capture())).toBe(0);
    expect(tsFiles(join(work, 'quick'))).toEqual(tsFiles(join(work, 'full')));
  }, 120_000);

  it('reports bad input as one error line, exit 2', async () => {
    const bad = capture();
    expect(await quickGenerate(['generate', '--schema', join(work, 'nope.json'), '--out', out], bad)).toBe(2);
    expect(bad.lines).toHaveLength(1);
    expect(bad.lines[0]).toMatch(/^error: .*nope\.json: file not found/);
  });

  it.each([
    ['--check', [...base, '--check']],
    ['--watch', [...base, '--watch']],
    ['yargs array syntax', [...base, 'maps']],
    ['a repeated single-value option', [...base, '--out', out]],
    ['a short option with an inline value', ['generate', '--spec', '2025-11-25', '-o=x']],
    ['a value outside the choices', [...base, '--runtime', 'nope']],
    ['help', ['generate', '--help']],
  ])('leaves %s to the full command line', async (_, argv) => {
    expect(await quickGenerate(argv as string[], capture())).toBeUndefined();
  });
});

describe('quickCheck', () => {
  it('answers up to date with the same line the full check prints', async () => {
    const quick = capture();
    expect(await quickCheck([...base, '--check'], quick)).toBe(0);
    expect(quick.lines).toHaveLength(1);
    expect(quick.lines[0]).toMatch(/^2025-11-25: up to date \(.*out\) in \d+ ms$/);
  });

  it.each([
    ['not a check', base],
    ['--no-format', [...base, '--check', '--no-format']],
    ['an unknown option', [...base, '--check', '--frobnicate']],
    ['a missing schema', ['generate', '--spec', '2099-01-01', '--schema-dir', SCHEMA_DIR, '--out', out, '--check']],
  ])('falls through for %s', async (_, argv) => {
    expect(await quickCheck(argv as string[], capture())).toBeUndefined();
  });

  it('falls through when a file changed, and the full check then reports it (exit 1)', async () => {
    appendFileSync(join(out, 'types.ts'), '// edited\n');
    expect(await quickCheck([...base, '--check'], capture())).toBeUndefined();
    const full = capture();
    expect(await main([...base, '--check'], full)).toBe(1);
    expect(full.lines.join('\n')).toContain('changed: types.ts');
  }, 120_000);
});

describe('quickDiff', () => {
  it('runs a plain diff with the exit code of the full command (1 breaking, 0 with --fail-on none)', async () => {
    const { quickDiff } = await import('../../src/cli/quick-check.js');
    const { vi } = await import('vitest');
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const sides = ['2025-11-25', '2026-07-28', '--schema-dir', SCHEMA_DIR];
      expect(await quickDiff(['diff', ...sides], capture())).toBe(1);
      expect(written.join('')).toContain('initialize-removed');
      expect(await quickDiff(['diff', ...sides, '--fail-on', 'none', '--format', 'json'], capture())).toBe(0);
      const missing = capture();
      expect(
        await quickDiff(['diff', join(work, 'nope.json'), '2026-07-28', '--schema-dir', SCHEMA_DIR], missing),
      ).toBe(2);
      expect(missing.lines[0]).toMatch(/^error: .*nope\.json: file not found/);
    } finally {
      spy.mockRestore();
    }
  });

  it.each([
    ['--rules', ['diff', '--rules']],
    ['one side', ['diff', '2025-11-25']],
    ['a bad format', ['diff', '2025-11-25', '2026-07-28', '--format', 'nope']],
    ['an unknown option', ['diff', '2025-11-25', '2026-07-28', '--frobnicate']],
    ['help', ['diff', '--help']],
    ['a repeated single-value option', ['diff', '2025-11-25', '2026-07-28', '--format', 'json', '--format', 'text']],
  ])('leaves %s to the full command line', async (_, argv) => {
    const { quickDiff } = await import('../../src/cli/quick-check.js');
    expect(await quickDiff(argv as string[], capture())).toBeUndefined();
  });
});

describe('a single-value option given twice', () => {
  // yargs collected the values into an array that the commands read as one value: `-o a -o b` was the path
  // "a,b", two --import-extension values gave imports from './types,.ts'.
  it.each([
    ['--out', [...base, '-o', join(work, 'twice')]],
    ['--import-extension', [...base, '--import-extension', 'none', '--import-extension', '.ts']],
    ['--spec', [...base, '--spec', '2024-11-05']],
    ['--format', ['diff', '2025-06-18', '2025-11-25', '--format', 'json', '--format', 'text']],
  ])('%s: one usage line, exit 2, nothing written', async (flag, argv) => {
    const run = capture();
    expect(await main(argv, run)).toBe(2);
    expect(run.lines).toEqual([`error: ${flag} was given more than once`]);
    expect(readdirSync(work)).not.toContain('twice');
  });
});
