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
  expect(partOf(resolve(SRC, 'snapshot', '../../templates/transports/stdio/stdio.js'))).toBe('templates/');
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

/**
 * Inside emit/, the same rule between artifact families: one folder per family over shared/, with the
 * artifact registry and its two readers (index.ts, the single-file layout) at the top, files of their own.
 * A family imports only lower families (or itself); families of one rank import neither. And no file of
 * emit/ reaches itself through its imports, within a family either. The order is the README's line below
 * its layers.
 */
const EMIT_FAMILIES: readonly (readonly string[])[] = [
  ['shared'],
  ['types'],
  ['validators'],
  ['maps'],
  ['client-server'],
  ['sdk', 'tools'],
  ['registry.ts'],
  ['index-file.ts', 'single-file.ts'],
];

const EMIT = join(SRC, 'emit');
const familyRank = new Map(EMIT_FAMILIES.flatMap((families, i) => families.map((f) => [f, i] as const)));

/** The family of a file of emit/ (or of an import's `.js` specifier): its folder, or itself at the top. */
function familyOf(file: string): string | undefined {
  const path = relative(EMIT, file);
  if (path.startsWith('..')) return undefined;
  const [family = ''] = path.split('/');
  return family.replace(/\.js$/, '.ts');
}

/** Each file of emit/ with the files of emit/ it imports (counted as above). */
const emitImports: ReadonlyMap<string, readonly string[]> = new Map(
  files
    .filter((file) => familyOf(file) !== undefined)
    .map((file) => {
      const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map(([, spec = '']) =>
        resolve(dirname(file), spec).replace(/\.js$/, '.ts'),
      );
      return [file, targets.filter((t) => familyOf(t) !== undefined)] as const;
    }),
);

/** A circle of imports in a graph, as the files on it (the first one again at the end), or [] without one. */
function circleIn(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): string[] => {
    if (path.includes(file)) return [...path.slice(path.indexOf(file)), file];
    if (done.has(file)) return [];
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const circle = visit(next);
      if (circle.length > 0) return circle;
    }
    path.pop();
    done.add(file);
    return [];
  };
  for (const file of graph.keys()) {
    const circle = visit(file);
    if (circle.length > 0) return circle;
  }
  return [];
}

it('emit/: a family is a folder or a file at the top; circleIn finds a circle', () => {
  expect(familyOf(join(EMIT, 'maps', 'tables.ts'))).toBe('maps');
  expect(familyOf(resolve(EMIT, 'sdk', '../registry.js'))).toBe('registry.ts');
  expect(familyOf(join(SRC, 'model', 'types.ts'))).toBeUndefined();
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['b']],
  ]);
  expect(circleIn(graph)).toEqual(['b', 'c', 'b']);
  expect(circleIn(new Map([['a', ['b']]]))).toEqual([]);
});

it('every family of emit/ has a rank', () => {
  expect([...new Set([...emitImports.keys()].map(familyOf))].filter((f) => !familyRank.has(f ?? ''))).toEqual([]);
});

it('no import inside emit/ points to the same or a higher rank of another family', () => {
  const wrong: string[] = [];
  for (const [file, targets] of emitImports) {
    const from = familyOf(file) ?? '';
    for (const target of targets) {
      const to = familyOf(target) ?? '';
      const [fromRank, toRank] = [familyRank.get(from), familyRank.get(to)];
      if (to !== from && (fromRank === undefined || toRank === undefined || toRank >= fromRank))
        wrong.push(`${relative(EMIT, file)} → ${relative(EMIT, target)}`);
    }
  }
  expect(wrong).toEqual([]);
});

it('no circle of imports inside emit/', () => {
  expect(circleIn(emitImports).map((file) => relative(EMIT, file))).toEqual([]);
});

it("the README states emit/'s families in the same order", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const line = EMIT_FAMILIES.map((families) =>
    families.map((f) => `\`${f.endsWith('.ts') ? f : `${f}/`}\``).join(', '),
  ).join(' → ');
  expect(readme).toContain(line);
});
