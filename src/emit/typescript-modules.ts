/**
 * `jsModules: 'ts'`: every module emitted as JavaScript beside its declarations (X.js + X.d.ts) becomes one
 * TypeScript file, X.ts, which a `tsc --outDir` build emits without `allowJs` — the option `isolatedDeclarations`
 * refuses. X.ts holds the declarations' types first, then the JavaScript with each exported constant annotated
 * with the type its declaration gave it, so declaration emit needs no inference. `// @ts-nocheck` keeps the
 * user's checker off the untyped bodies (ajv's code), as X.js kept it off before.
 *
 * Modules that have a TypeScript source of their own (the SDK adapter) emit that source instead
 * (sdk-files.ts); this pass takes what is JavaScript from the start.
 */
import type { GeneratedFile } from './shared/context.js';
import { tsMorph } from './shared/ts-project.js';

type Ts = ReturnType<typeof tsMorph>['ts'];

export function asTypeScriptModules(files: readonly GeneratedFile[], importExt: string): GeneratedFile[] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const merged = new Set<string>();
  const out: GeneratedFile[] = [];
  for (const file of files) {
    const base = file.path.endsWith('.js') ? file.path.slice(0, -3) : null;
    const declarations = base === null ? undefined : byPath.get(`${base}.d.ts`);
    if (base === null || declarations === undefined) continue;
    merged.add(base);
    out.push({ path: `${base}.ts`, contents: typedModule(file, declarations) });
  }
  const pairs = (path: string) => merged.has(path.replace(/\.(js|d\.ts)$/, ''));
  const kept = files.filter((f) => !(/\.(js|d\.ts)$/.test(f.path) && pairs(f.path)));
  const result = [...kept, ...out];
  // With `.ts` specifiers the importers named these modules `.js` (there was no .ts file to name then).
  if (importExt !== '.ts') return result;
  const typescript = new Set(result.filter((f) => f.path.endsWith('.ts')).map((f) => f.path.slice(0, -3)));
  return result.map((f) => withSpecifiers(f, typescript));
}

function typedModule(js: GeneratedFile, declarations: GeneratedFile): string {
  const { ts } = tsMorph();
  const types = declaredConstants(ts, declarations);
  const code = js.contents.replace(/^\/\/ @ts-(self-types|nocheck)\b.*\n/gm, '');
  const annotated = annotateExports(ts, js.path, code, types.constants);
  return [
    `// @ts-nocheck -- JavaScript compiled at generation time; each export is typed with what it is.`,
    types.rest.trim(),
    '',
    annotated,
  ].join('\n');
}

/** The declarations file: each `export declare const` as name → type text, and every other statement as it is. */
function declaredConstants(ts: Ts, file: GeneratedFile): { constants: Map<string, string>; rest: string } {
  const source = ts.createSourceFile(file.path, file.contents, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const constants = new Map<string, string>();
  const rest: string[] = [];
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement))
      throw new Error(`${file.path}: declares a function or class, which this pass cannot type (an emitter bug)`);
    if (!ts.isVariableStatement(statement)) {
      rest.push(source.text.slice(statement.getFullStart(), statement.end));
      continue;
    }
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || declaration.type === undefined)
        throw new Error(`${file.path}: a constant without a written type (an emitter bug)`);
      constants.set(declaration.name.text, declaration.type.getText(source));
    }
  }
  return { constants, rest: rest.join('') };
}

/** `export const NAME = …` becomes `export const NAME: TYPE = …` for every declared constant, and only those. */
function annotateExports(ts: Ts, path: string, code: string, constants: Map<string, string>): string {
  const source = ts.createSourceFile(path, code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const insertions: { at: number; text: string }[] = [];
  const seen = new Set<string>();
  for (const statement of source.statements) {
    const exported = ts.canHaveModifiers(statement)
      ? (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported && !ts.isExportDeclaration(statement) && !ts.isExportAssignment(statement)) continue;
    if (!ts.isVariableStatement(statement))
      throw new Error(`${path}: exports something other than a constant, which this pass cannot type (an emitter bug)`);
    for (const declaration of statement.declarationList.declarations) {
      const name = ts.isIdentifier(declaration.name) ? declaration.name.text : '';
      const type = constants.get(name);
      if (type === undefined) throw new Error(`${path}: export ${name} has no declaration (an emitter bug)`);
      seen.add(name);
      insertions.push({ at: declaration.name.end, text: `: ${type}` });
    }
  }
  const missing = [...constants.keys()].find((name) => !seen.has(name));
  if (missing !== undefined) throw new Error(`${path}: declares ${missing}, which it does not export (an emitter bug)`);
  const pieces: string[] = [];
  let from = 0;
  for (const { at, text } of insertions.sort((a, b) => a.at - b.at)) {
    pieces.push(code.slice(from, at), text);
    from = at;
  }
  pieces.push(code.slice(from));
  return pieces.join('');
}

/** Specifiers `./X.js` of a module that is now X.ts become `./X.ts`, in import and export declarations. */
function withSpecifiers(file: GeneratedFile, typescript: ReadonlySet<string>): GeneratedFile {
  if (!file.path.endsWith('.ts')) return file;
  const contents = file.contents.replace(
    /(\bfrom\s*)(["'])\.\/([\w./-]+)\.js\2/g,
    (match, from: string, quote: string, name: string) =>
      typescript.has(name) ? `${from}${quote}./${name}.ts${quote}` : match,
  );
  return { ...file, contents };
}
