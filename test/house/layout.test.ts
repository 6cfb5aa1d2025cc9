/**
 * The README's layout table matches the tree: every folder of src/ has a row, and every path a row names
 * exists.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Layout'), readme.indexOf('\n## ', readme.indexOf('## Layout') + 1));
const rows = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!.replace(/\/$/, ''));

it('lists every folder of src/', () => {
  const folders = readdirSync(join(ROOT, 'src')).filter((n) => statSync(join(ROOT, 'src', n)).isDirectory());
  expect(folders.map((f) => `src/${f}`).filter((f) => !rows.includes(f))).toEqual([]);
});

it('names only paths that exist', () => {
  expect(rows.length).toBeGreaterThan(5);
  expect(rows.filter((r) => !existsSync(join(ROOT, r)))).toEqual([]);
});
