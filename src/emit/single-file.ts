/**
 * `singleFile: true`: fold types.ts, maps.ts, client.ts and server.ts into one `index.ts`.
 *
 * The registry says which modules merge (registry.ts, `mergeable`); validators.ts and a vendored
 * runtime/ stay separate files (ajv's code and the templates are kept as written); the merged index.ts
 * imports them as before. Imports between the
 * merged modules are removed; `T.Name` references through a namespace import (`import type * as T from
 * './types.js'`) become `Name`; a top-level name of maps/client/server that a schema definition already
 * uses (e.g. 2026-07-28 defines `InputRequests`) is renamed `<Name>_<module>` (the definition keeps its
 * name, as in the multi-file index.ts, where the definition wins too). Imports of kept files are merged.
 */
import ts from 'typescript';
import type { GeneratedFile } from './registry.js';
import { MERGEABLE } from './registry.js';

const MERGED = MERGEABLE;
type Merged = string;

/** `./types.js`, `./types.ts`, `./types` → `types` when it is one of the merged modules. */
function mergedModule(specifier: string): Merged | undefined {
  const m = /^\.\/([\w-]+)(?:\.js|\.ts)?$/.exec(specifier);
  return m && MERGED.includes(m[1]!) ? m[1] : undefined;
}

function stripHeader(text: string): { header: string; body: string } {
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && (lines[i]!.startsWith('//') || lines[i] === '/* eslint-disable */')) i++;
  return { header: lines.slice(0, i).join('\n'), body: lines.slice(i).join('\n') };
}

function topLevelNames(source: ts.SourceFile): string[] {
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
function isPropertyName(id: ts.Identifier): boolean {
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

export function mergeSingleFile(files: GeneratedFile[]): GeneratedFile[] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const present = MERGED.filter((m) => byPath.has(`${m}.ts`));
  if (present.length === 0) return files;

  const sources = new Map<Merged, { header: string; body: string; source: ts.SourceFile }>();
  for (const m of present) {
    const { header, body } = stripHeader(byPath.get(`${m}.ts`)!.contents);
    sources.set(m, {
      header,
      body,
      source: ts.createSourceFile(`${m}.ts`, body, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS),
    });
  }

  // Final names: first module to declare a name keeps it (types first); later ones are renamed.
  const taken = new Set<string>();
  const finalName = new Map<Merged, Map<string, string>>();
  for (const m of present) {
    const names = new Map<string, string>();
    for (const n of topLevelNames(sources.get(m)!.source)) {
      const final = taken.has(n) ? `${n}_${m}` : n;
      names.set(n, final);
      taken.add(final);
    }
    finalName.set(m, names);
  }
  const nameIn = (m: Merged, n: string) => finalName.get(m)?.get(n) ?? n;

  // Imports of files that stay separate, merged by specifier.
  const named = new Map<string, Map<string, boolean>>(); // specifier → "a" | "a as b" → type-only
  const otherImports = new Set<string>();
  const keptExports = new Set<string>();

  const bodies: string[] = [];
  for (const m of present) {
    const { body, source } = sources.get(m)!;
    const edits: Edit[] = [];
    const renames = new Map<string, string>(); // local identifier → final name
    for (const [n, f] of finalName.get(m)!) if (n !== f) renames.set(n, f);
    const namespaces = new Map<string, Merged>(); // local namespace alias → module

    for (const st of source.statements) {
      if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
        const spec = st.moduleSpecifier.text;
        const target = mergedModule(spec);
        edits.push({ start: st.getFullStart(), end: st.getEnd(), text: '' });
        const clause = st.importClause;
        if (target) {
          if (clause?.name) throw new Error(`single-file: unsupported default import from ${spec} in ${m}.ts`);
          const nb = clause?.namedBindings;
          if (nb && ts.isNamespaceImport(nb)) namespaces.set(nb.name.text, target);
          else if (nb)
            for (const el of nb.elements) renames.set(el.name.text, nameIn(target, (el.propertyName ?? el.name).text));
          continue;
        }
        const nb = clause?.namedBindings;
        if (clause && !clause.name && nb && ts.isNamedImports(nb)) {
          const map = named.get(spec) ?? new Map<string, boolean>();
          named.set(spec, map);
          for (const el of nb.elements) {
            const key = el.propertyName ? `${el.propertyName.text} as ${el.name.text}` : el.name.text;
            const typeOnly = clause.isTypeOnly || el.isTypeOnly;
            map.set(key, (map.get(key) ?? true) && typeOnly);
          }
        } else {
          otherImports.add(st.getText().trim());
        }
      } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
        edits.push({ start: st.getFullStart(), end: st.getEnd(), text: '' });
        if (!mergedModule(st.moduleSpecifier.text)) keptExports.add(st.getText().trim());
      }
    }

    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) || (ts.isExportDeclaration(node) && node.moduleSpecifier)) return;
      if (
        (ts.isQualifiedName(node) && ts.isIdentifier(node.left)) ||
        (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression))
      ) {
        const left = ts.isQualifiedName(node) ? (node.left as ts.Identifier) : (node.expression as ts.Identifier);
        const right = ts.isQualifiedName(node) ? node.right : node.name;
        const ns = namespaces.get(left.text);
        if (ns && ts.isIdentifier(right)) {
          edits.push({ start: node.getStart(), end: node.getEnd(), text: nameIn(ns, right.text) });
          return;
        }
      }
      if (ts.isIdentifier(node) && renames.has(node.text) && !isPropertyName(node)) {
        const p = node.parent;
        const final = renames.get(node.text)!;
        // `{ Name }` shorthand keeps its property name.
        edits.push({
          start: node.getStart(),
          end: node.getEnd(),
          text: ts.isShorthandPropertyAssignment(p) ? `${node.text}: ${final}` : final,
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);

    edits.sort((a, b) => b.start - a.start);
    let text = body;
    for (const e of edits) text = text.slice(0, e.start) + e.text + text.slice(e.end);
    bodies.push(`// --- ${m} ---\n${text.trim()}\n`);
  }

  // Re-exports of the original index.ts that point at files kept separate (runtime/, validators).
  const index = byPath.get('index.ts');
  if (index) {
    const src = ts.createSourceFile(
      'index.ts',
      stripHeader(index.contents).body,
      ts.ScriptTarget.Latest,
      true,
      ts.ScriptKind.TS,
    );
    for (const st of src.statements) {
      if (
        ts.isExportDeclaration(st) &&
        st.moduleSpecifier &&
        ts.isStringLiteral(st.moduleSpecifier) &&
        !mergedModule(st.moduleSpecifier.text)
      ) {
        keptExports.add(st.getText().trim());
      }
    }
  }

  const importLines: string[] = [...otherImports];
  for (const [spec, map] of named) {
    const entries = [...map];
    const allTypes = entries.every(([, t]) => t);
    const list = entries.map(([k, t]) => (t && !allTypes ? `type ${k}` : k)).join(', ');
    importLines.push(`import ${allTypes ? 'type ' : ''}{ ${list} } from '${spec}';`);
  }

  const header = sources.get(present[0]!)!.header;
  const contents = [header, '', ...importLines, importLines.length ? '' : null, ...bodies, ...keptExports]
    .filter((l) => l !== null)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
  const mergedPaths = new Set([...present.map((m) => `${m}.ts`), 'index.ts']);
  const out = files.filter((f) => !mergedPaths.has(f.path));
  out.push({ path: 'index.ts', contents: contents.endsWith('\n') ? contents : `${contents}\n` });
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out;
}
