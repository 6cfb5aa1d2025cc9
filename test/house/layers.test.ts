/**
 * src/ is layered and imports point one way: each part may import only parts of a lower layer (or
 * itself). Type-only and dynamic imports count too: a type import still ties the lower layer to the
 * higher one's shape. The order is the README's "Layers" line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';

/** Lowest first. A part is a folder of src/ or a file at its top. */
const LAYERS: readonly (readonly string[])[] = [
  ['errors.ts', 'protocol-terms.ts'],
  ['load'],
  ['extensions'],
  ['model'],
  ['emit'],
  ['config'],
  ['inputs.ts'],
  ['generate.ts'],
  ['write', 'diff'],
  ['snapshot'],
  ['run'],
  ['cli', 'index.ts'],
];

const SRC = join(ROOT, 'src');
const rank = new Map(LAYERS.flatMap((parts, i) => parts.map((p) => [p, i] as const)));
/**
 * The runtime (templates/) is below every part of src/: it imports nothing of the tool (its own tsconfig
 * sees only templates/), and the snapshot command's client is the runtime's own.
 */
const RUNTIME = 'templates/';
rank.set(RUNTIME, -1);

/** The part a file (or an import's `.js` specifier, resolved) belongs to: its top folder, or itself at the top. */
function partOf(file: string): string {
  if (relative(ROOT, file).startsWith(RUNTIME)) return RUNTIME;
  const [part = ''] = relative(SRC, file).split('/');
  return part.replace(/\.js$/, '.ts');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

const files = sourceFiles(SRC);

it('ranks every file: a top-level file is a part of its own, an import of it is seen (../x.js is x.ts)', () => {
  expect(partOf(join(SRC, 'generate.ts'))).toBe('generate.ts');
  expect(partOf(resolve(SRC, 'run', '../generate.js'))).toBe('generate.ts');
  expect(partOf(join(SRC, 'emit', 'maps.ts'))).toBe('emit');
  expect(partOf(resolve(SRC, 'snapshot', '../../templates/stdio.js'))).toBe('templates/');
});

it('every part of src/ has a layer', () => {
  expect([...new Set(files.map(partOf))].filter((p) => !rank.has(p))).toEqual([]);
});

it('no import points to the same or a higher layer of another part', () => {
  const wrong: string[] = [];
  for (const file of files) {
    const from = partOf(file);
    for (const [, spec = ''] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = partOf(resolve(dirname(file), spec));
      const [fromRank, toRank] = [rank.get(from), rank.get(to)];
      // A part without a rank is a failure of its own, never a pass.
      if (to !== from && (fromRank === undefined || toRank === undefined || toRank >= fromRank))
        wrong.push(`${relative(ROOT, file)} → ${spec}`);
    }
  }
  expect(wrong).toEqual([]);
});

it('the README states the same order', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const line = LAYERS.map((parts) => parts.map((p) => `\`${p.endsWith('.ts') ? p : `${p}/`}\``).join(', ')).join(' → ');
  expect(readme).toContain(line);
});
