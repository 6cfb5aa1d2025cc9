/**
 * Formatting in statement pieces (src/emit/shared/statement-pieces.ts) gives prettier's text for the whole
 * file: every generated file of every version, and of a synthetic schema, unformatted, formatted cut at every
 * top-level statement it can be cut at, against prettier over the whole file. And the cuts are only made where
 * nothing can continue a statement.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { formatText } from '../../src/emit/shared/format.js';
import { statementPieces } from '../../src/emit/shared/statement-pieces.js';
import { generate } from '../../src/generate.js';
import { syntheticSchema } from '../../bench/lib/synthetic-schema.mjs';
import { generated, officialSchemaPath, tempDir, VERSIONS } from '../helpers/generate.js';

const PARSERS: Record<string, string> = { ts: 'babel-ts', js: 'babel' };

async function expectPiecewiseIsWhole(files: readonly { path: string; contents: string }[]): Promise<number> {
  let cut = 0;
  for (const file of files) {
    const parser = PARSERS[file.path.slice(file.path.lastIndexOf('.') + 1)];
    // validators.js is never formatted (generate.ts).
    if (parser === undefined || file.path === 'validators.js') continue;
    const pieces = statementPieces(file.contents, 0);
    if (pieces !== null && pieces.length > 1) cut++;
    const whole = await prettier.format(file.contents, { parser });
    expect(await formatText(file.contents, { parser }, 0), file.path).toBe(whole);
  }
  return cut;
}

describe('formatting in statement pieces', () => {
  it.each(VERSIONS)(
    'gives the whole file formatted: %s, every default artifact and the vendored runtime',
    async (version) => {
      const result = await generated(version, { format: false, runtime: 'copy' });
      // types.ts, maps.ts, client.ts, server.ts, validators.d.ts at least are cut.
      expect(await expectPiecewiseIsWhole(result.files)).toBeGreaterThanOrEqual(5);
    },
    120_000,
  );

  it('gives the whole file formatted: a synthetic schema of 500 definitions', async () => {
    const dir = tempDir('format-pieces');
    const schema = join(dir, 'synthetic.json');
    const base = JSON.parse(readFileSync(officialSchemaPath('2025-11-25'), 'utf8')) as object;
    writeFileSync(schema, JSON.stringify(syntheticSchema(base, { definitions: 500, methods: 50 })));
    const result = await generate({ schema, outDir: join(dir, 'out'), format: false });
    expect(await expectPiecewiseIsWhole(result.files)).toBeGreaterThanOrEqual(5);
  }, 120_000);
});

describe('statementPieces', () => {
  const text = [
    'import type { A } from "./a.js";',
    'export interface B {',
    '  c: { d: string };',
    '}',
    '',
    '',
    '/** E. */',
    'export type E = A | B; // trailing',
    'export const F = {',
    '  g: 1,',
    '}',
    '.g;',
    'export declare const H: (x: number) => void;',
    '',
  ].join('\n');

  it('cuts before each top-level declaration a `;` or `}` ended, and says where a blank line was', () => {
    const pieces = statementPieces(text, 0)!;
    expect(pieces.map((p) => p.text.split('\n')[0])).toEqual([
      'import type { A } from "./a.js";',
      'export interface B {',
      '',
      // Not before `.g;` (no declaration starts there), so `export const F` is cut after `// trailing`.
      'export const F = {',
      'export declare const H: (x: number) => void;',
    ]);
    expect(pieces.map((p) => p.blankBefore)).toEqual([false, false, true, false, false]);
    expect(pieces.map((p) => p.text).join('')).toBe(text);
  });

  it('keeps pieces of at least the size asked, and one piece for a file smaller than that', () => {
    expect(statementPieces(text, text.length)).toHaveLength(1);
    const pieces = statementPieces(text, 40)!;
    expect(pieces.slice(0, -1).every((p) => p.text.length >= 40)).toBe(true);
  });

  it('never cuts a file with a template literal or a `/` (a regular expression could hide a bracket)', () => {
    expect(statementPieces('export const a = `x`;\nexport const b = 1;\n', 0)).toBeNull();
    expect(statementPieces('export const a = /}/;\nexport const b = 1;\n', 0)).toBeNull();
    // In a comment or a string, neither counts.
    expect(statementPieces('// a `b` / c\nexport const a = "`/";\nexport const b = 1;\n', 0)).toHaveLength(2);
  });
});
