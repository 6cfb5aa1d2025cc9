/**
 * `singleFile: true`: fold types.ts, maps.ts, client.ts and server.ts into one `index.ts`, in the run's
 * ts-morph Project (ts-project.ts): the modules are read there, and the merged index.ts is written there
 * from its imports (structures) and the modules' rewritten statements. generate() merges the bodies before
 * the header and before prettier, which formats the result like any other file.
 *
 * The registry says which modules merge (registry.ts, `mergeable`); validators.ts and a vendored
 * runtime/ stay separate files; the merged index.ts imports them as before. Imports between the merged
 * modules are removed; `T.Name` references through a namespace import (`import type * as T from
 * './types.js'`) become `Name`; a top-level name of maps/client/server that a schema definition already
 * uses (e.g. 2026-07-28 defines `InputRequests`) is renamed `<Name>_<module>` (the definition keeps its
 * name, as in the multi-file index.ts, where the definition wins too). Imports of kept files are merged.
 */
import type { ts as Ts } from 'ts-morph';
import type { GeneratedFile } from './shared/context.js';
import { MERGEABLE } from './registry.js';
import { compareStrings } from '../load/order.js';
import { tsMorph, type Statement, type TsFiles } from './shared/ts-project.js';
import { importDecl } from './shared/ts-structures.js';

// Loaded only for `singleFile` (generate.ts imports this module then).
const { ts } = tsMorph();
const MERGED = MERGEABLE;
type Merged = string;

/** `./types.js`, `./types.ts`, `./types` → `types` when it is one of the merged modules. */
function mergedModule(specifier: string): Merged | undefined {
  const name = /^\.\/([\w-]+)(?:\.js|\.ts)?$/.exec(specifier)?.[1];
  return name !== undefined && MERGED.includes(name) ? name : undefined;
}

function topLevelNames(source: Ts.SourceFile): string[] {
  const names: string[] = [];
  for (const st of source.statements) {
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
    } else if (
      (ts.isInterfaceDeclaration(st) ||
        ts.isTypeAliasDeclaration(st) ||
        ts.isEnumDeclaration(st) ||
        ts.isClassDeclaration(st) ||
        ts.isFunctionDeclaration(st) ||
        ts.isModuleDeclaration(st)) &&
      st.name &&
      ts.isIdentifier(st.name)
    ) {
      names.push(st.name.text);
    }
  }
  return names;
}

/** Is this identifier a property name (not a reference to a binding)? */
function isPropertyName(id: Ts.Identifier): boolean {
  const p = id.parent;
  if ((ts.isPropertyAccessExpression(p) && p.name === id) || (ts.isQualifiedName(p) && p.right === id)) return true;
  if (
    (ts.isPropertySignature(p) ||
      ts.isPropertyDeclaration(p) ||
      ts.isPropertyAssignment(p) ||
      ts.isMethodSignature(p) ||
      ts.isMethodDeclaration(p) ||
      ts.isEnumMember(p) ||
      ts.isGetAccessor(p) ||
      ts.isSetAccessor(p)) &&
    p.name === id
  ) {
    return true;
  }
  return false;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

type Sources = Map<Merged, { body: string; source: Ts.SourceFile }>;
type FinalNames = Map<Merged, Map<string, string>>;

/** What the merged file imports and re-exports from files that stay separate. */
interface KeptImports {
  /** specifier → "a" | "a as b" → type-only */
  named: Map<string, Map<string, boolean>>;
  other: Set<string>;
  exports: Set<string>;
}

/** The files with the mergeable modules folded into index.ts (unchanged when there is none to fold). */
export function mergeSingleFile(files: GeneratedFile[], tsFiles: TsFiles): GeneratedFile[] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const present = MERGED.filter((m) => byPath.has(`${m}.ts`));
  if (present.length === 0) return files;
  const sources: Sources = new Map();
  for (const m of present) {
    const path = `${m}.ts`;
    const text = byPath.get(path)?.contents ?? '';
    // maps, client and server were written into the Project by their emitters; types.ts is added here.
    const known = tsFiles.source(path);
    const source = (known?.getFullText() === text ? known : tsFiles.add(path, text)).compilerNode;
    sources.set(m, { body: text, source });
  }
  const finalNames = assignFinalNames(present, sources);
  const kept: KeptImports = { named: new Map(), other: new Set(), exports: new Set() };
  const bodies = present.map(
    (m) => `\n// --- ${m} ---\n${rewriteModule(m, sourceOf(sources, m), finalNames, kept).trim()}\n`,
  );
  const index = byPath.get('index.ts');
  if (index) for (const line of separateReExports(index.contents, tsFiles)) kept.exports.add(line);
  const statements: Statement[] = [...kept.other, ...namedImports(kept.named), ...bodies, ...kept.exports];
  const mergedPaths = new Set([...present.map((m) => `${m}.ts`), 'index.ts']);
  const out = files.filter((f) => !mergedPaths.has(f.path));
  out.push({ path: 'index.ts', contents: tsFiles.print(statements) });
  out.sort((a, b) => compareStrings(a.path, b.path));
  return out;
}

function sourceOf(sources: Sources, m: Merged): { body: string; source: Ts.SourceFile } {
  const found = sources.get(m);
  if (found === undefined) throw new Error(`single-file: ${m}.ts was not read`);
  return found;
}

/** Final names: the first module to declare a name keeps it (types first); later ones are renamed. */
function assignFinalNames(present: readonly Merged[], sources: Sources): FinalNames {
  const taken = new Set<string>();
  const finalNames: FinalNames = new Map();
  for (const m of present) {
    const names = new Map<string, string>();
    for (const n of topLevelNames(sourceOf(sources, m).source)) {
      const final = taken.has(n) ? `${n}_${m}` : n;
      names.set(n, final);
      taken.add(final);
    }
    finalNames.set(m, names);
  }
  return finalNames;
}

/** One module's body with its imports and re-exports removed and its identifiers renamed to the final names. */
function rewriteModule(
  m: Merged,
  { body, source }: { body: string; source: Ts.SourceFile },
  finalNames: FinalNames,
  kept: KeptImports,
): string {
  const nameIn = (module: Merged, n: string) => finalNames.get(module)?.get(n) ?? n;
  const renames = new Map<string, string>(); // local identifier → final name
  for (const [n, f] of finalNames.get(m) ?? []) if (n !== f) renames.set(n, f);
  const namespaces = new Map<string, Merged>(); // local namespace alias → module
  const edits: Edit[] = [];
  for (const st of source.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      edits.push({ start: st.getFullStart(), end: st.getEnd(), text: '' });
      const target = mergedModule(st.moduleSpecifier.text);
      if (target) bindMergedImport(st, m, target, nameIn, renames, namespaces);
      else keepImport(st, kept);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      edits.push({ start: st.getFullStart(), end: st.getEnd(), text: '' });
      if (!mergedModule(st.moduleSpecifier.text)) kept.exports.add(st.getText().trim());
    }
  }
  edits.push(...renameEdits(source, renames, namespaces, nameIn));
  edits.sort((a, b) => b.start - a.start);
  let text = body;
  for (const e of edits) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return text;
}

/** An import from another merged module: its names become renames, a namespace import is remembered. */
function bindMergedImport(
  st: Ts.ImportDeclaration,
  m: Merged,
  target: Merged,
  nameIn: (module: Merged, n: string) => string,
  renames: Map<string, string>,
  namespaces: Map<string, Merged>,
): void {
  const clause = st.importClause;
  if (clause?.name) throw new Error(`single-file: unsupported default import from ${target} in ${m}.ts`);
  const nb = clause?.namedBindings;
  if (nb && ts.isNamespaceImport(nb)) namespaces.set(nb.name.text, target);
  else if (nb)
    for (const el of nb.elements) renames.set(el.name.text, nameIn(target, (el.propertyName ?? el.name).text));
}

/** An import from a file that stays separate: named imports merge by specifier, others are kept as written. */
function keepImport(st: Ts.ImportDeclaration, kept: KeptImports): void {
  const spec = (st.moduleSpecifier as Ts.StringLiteral).text;
  const clause = st.importClause;
  const nb = clause?.namedBindings;
  if (!clause || clause.name || !nb || !ts.isNamedImports(nb)) {
    kept.other.add(st.getText().trim());
    return;
  }
  const map = kept.named.get(spec) ?? new Map<string, boolean>();
  kept.named.set(spec, map);
  for (const el of nb.elements) {
    const key = el.propertyName ? `${el.propertyName.text} as ${el.name.text}` : el.name.text;
    const typeOnly = clause.isTypeOnly || el.isTypeOnly;
    map.set(key, (map.get(key) ?? true) && typeOnly);
  }
}

/** Edits renaming identifiers and `ns.Name` accesses to their final names. */
function renameEdits(
  source: Ts.SourceFile,
  renames: ReadonlyMap<string, string>,
  namespaces: ReadonlyMap<string, Merged>,
  nameIn: (module: Merged, n: string) => string,
): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: Ts.Node): void => {
    if (ts.isImportDeclaration(node) || (ts.isExportDeclaration(node) && node.moduleSpecifier)) return;
    if (
      (ts.isQualifiedName(node) && ts.isIdentifier(node.left)) ||
      (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression))
    ) {
      const left = ts.isQualifiedName(node) ? (node.left as Ts.Identifier) : (node.expression as Ts.Identifier);
      const right = ts.isQualifiedName(node) ? node.right : node.name;
      const ns = namespaces.get(left.text);
      if (ns && ts.isIdentifier(right)) {
        edits.push({ start: node.getStart(), end: node.getEnd(), text: nameIn(ns, right.text) });
        return;
      }
    }
    if (ts.isIdentifier(node) && renames.has(node.text) && !isPropertyName(node)) {
      const final = renames.get(node.text) ?? node.text;
      // `{ Name }` shorthand keeps its property name.
      const text = ts.isShorthandPropertyAssignment(node.parent) ? `${node.text}: ${final}` : final;
      edits.push({ start: node.getStart(), end: node.getEnd(), text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edits;
}

/** Re-exports of the original index.ts that point at files kept separate (runtime/, validators). */
function separateReExports(indexContents: string, tsFiles: TsFiles): string[] {
  const src = tsFiles.add('index.ts', indexContents).compilerNode;
  return src.statements
    .filter(
      (st) =>
        ts.isExportDeclaration(st) &&
        st.moduleSpecifier !== undefined &&
        ts.isStringLiteral(st.moduleSpecifier) &&
        !mergedModule(st.moduleSpecifier.text),
    )
    .map((st) => st.getText().trim());
}

/** The named imports of kept files, one declaration per module, type-only when every name is a type. */
function namedImports(named: KeptImports['named']): Statement[] {
  return [...named].map(([spec, map]) => {
    const entries = [...map];
    const allTypes = entries.every(([, t]) => t);
    return importDecl(
      allTypes,
      entries.map(([k, t]) => (t && !allTypes ? `type ${k}` : k)),
      spec,
    );
  });
}
