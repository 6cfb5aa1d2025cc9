/**
 * The layout table of docs/architecture.md matches the tree: every folder of src/ and of templates/ has a row, and every path
 * a row names exists.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';

const readme = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Layout'), readme.indexOf('\n## ', readme.indexOf('## Layout') + 1));
const rows = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!.replace(/\/$/, ''));

it.each(['src', 'templates'])('lists every folder of %s/', (top) => {
  const folders = readdirSync(join(ROOT, top)).filter((n) => statSync(join(ROOT, top, n)).isDirectory());
  expect(folders.map((f) => `${top}/${f}`).filter((f) => !rows.includes(f))).toEqual([]);
});

it('names only paths that exist', () => {
  expect(rows.length).toBeGreaterThan(5);
  expect(rows.filter((r) => !existsSync(join(ROOT, r)))).toEqual([]);
});
