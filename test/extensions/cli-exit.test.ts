/**
 * Every bad extension file through the command line: `generate` exits 2 with one error line naming the
 * file and the JSON pointer (or the file alone when no pointer applies), and writes nothing. The name
 * rules (rule-cases.ts, shared with rules.test.ts) and the other bad files (bad-files.ts) go through
 * the same helper; the CLI runs in-process (main()), so the whole table takes about a second.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Out } from '../../src/run/console.js';
import { type BadCase, badCases } from './bad-files.js';
import { ROOT, SCHEMA_DIR } from './helpers.js';
import { R, rows } from './rule-cases.js';

const work = mkdtempSync(join(tmpdir(), 'mcp-typegen-ext-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Rule rows checked in the same context the CLI uses: a 2025-11-25 generation. */
const ruleCases: BadCase[] = rows
  .filter(([, , , , ctx]) => ctx === undefined)
  .map(([fixtures, file, pointer, reason]) => ({
    name: fixtures.join('+'),
    files: fixtures.map((f) => resolve(ROOT, R, f)),
    file: resolve(ROOT, R, file),
    pointer,
    reason: reason.split(`${R}/`).join(`${resolve(ROOT, R)}/`),
    spec: '2025-11-25',
  }));
const cases = [...ruleCases, ...badCases()];

function capture(): Out & { errors: string[] } {
  const errors: string[] = [];
  return {
    errors,
    info: () => undefined,
    verbose: () => undefined,
    warn: () => undefined,
    error: (line, hint) => errors.push(hint ? `${line}\n  hint: ${hint}` : line),
  };
}

/** `generate --ext …` in-process: the exit code, the error lines, and what the out dir holds afterwards. */
async function generateWith(c: BadCase, out: string): Promise<{ code: number; errors: string[]; written: string[] }> {
  const argv = [
    'generate',
    '--spec',
    c.spec,
    '--schema-dir',
    SCHEMA_DIR,
    '--out',
    out,
    '--artifacts',
    'types',
    '--no-format',
  ];
  for (const f of c.files) argv.push('--ext', f);
  const console = capture();
  const code = await main(argv, console);
  return { code, errors: console.errors, written: existsSync(out) ? readdirSync(out) : [] };
}

describe('the hint of a refused direction on 2026-07-28 names the fix (issue 46)', () => {
  it('a "both" request: keep its client->server half; a server->client one: make it an input request', async () => {
    const hintOf = async (name: string) => {
      const c = badCases().find((b) => b.name === name)!;
      const { errors } = await generateWith(c, join(work, `hint-${name}`));
      return errors[0]!.split('\n  hint: ')[1];
    };
    expect(await hintOf('server-request-both-on-2026.json')).toMatch(/^declare it "direction": "client->server"/);
    expect(await hintOf('server-request-on-2026.json')).toMatch(/^declare it "direction": "input"/);
  });
});

describe('generate --ext with a bad extension file: exit 2, one error line with file and pointer, nothing written', () => {
  it('covers at least 60 distinct bad files', () => {
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const out = join(work, `out-${c.name.replace(/[^\w.-]/g, '_')}`);
    const { code, errors, written } = await generateWith(c, out);
    // One error (a hint may follow it on its own line, as for every input error).
    expect(errors).toHaveLength(1);
    expect(errors[0]!.split('\n')[0]).toBe(`${c.file}${c.pointer !== undefined ? `#${c.pointer}` : ''}: ${c.reason}`);
    expect(code).toBe(2);
    expect(written).toEqual([]);
  });
});
