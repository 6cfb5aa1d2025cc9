/**
 * The name rules through the command line: every rule's fixture makes `generate` exit 2 with one error
 * line naming the file and the JSON pointer, and writes nothing. Runs the CLI in-process (main()).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Out } from '../../src/cli/console.js';
import { ROOT, SCHEMA_DIR } from './helpers.js';
import { R, rows } from './rule-cases.js';

const work = mkdtempSync(join(tmpdir(), 'mcp-typegen-ext-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Rows checked in the same context the CLI uses: a 2025-11-25 generation with every MCP method known. */
const cliRows = rows.filter(([, , , , ctx]) => ctx === undefined);

function capture(): Out & { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  return {
    errors,
    warnings,
    info: () => undefined,
    verbose: () => undefined,
    warn: (line) => warnings.push(line),
    error: (line, hint) => errors.push(hint ? `${line}\n  hint: ${hint}` : line),
  };
}

describe('generate --ext with a rule-breaking extension: exit 2, one error line, nothing written', () => {
  it('covers most rules', () => {
    expect(cliRows.length).toBeGreaterThan(30);
  });

  it.each(cliRows)('%j', async (fixtures, file, pointer, reason) => {
    const out = join(work, `out-${fixtures.join('+')}`);
    const absolute = (name: string) => resolve(ROOT, R, name);
    const argv = [
      'generate',
      '--spec',
      '2025-11-25',
      '--schema-dir',
      SCHEMA_DIR,
      '--out',
      out,
      '--artifacts',
      'types',
      '--no-format',
    ];
    for (const f of fixtures) argv.push('--ext', absolute(f));
    const console = capture();
    const code = await main(argv, console);
    expect(code).toBe(2);
    expect(console.errors).toHaveLength(1);
    const expected = `${absolute(file)}#${pointer}: ${reason.split(`${R}/`).join(`${resolve(ROOT, R)}/`)}`;
    expect(console.errors[0]!.split('\n')[0]).toBe(expected);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });
});
