/**
 * The fidelity oracle: every type exported by both the generated `types.ts` and the spec's own
 * `../shared/mcp-schema/<version>/schema.ts` is checked both ways (`[G] extends [S]`, `[S] extends [G]`,
 * and neither may be `any`) by one checker file per types.ts, all compiled in ONE TypeScript program.
 * schema.ts is only read from ../shared (imported by the checker files in test/.tmp), never copied.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** Exported interfaces and type aliases of a file, with their number of type parameters. */
export function exportedTypes(file: string): Map<string, number> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
  const names = new Map<string, number>();
  for (const s of source.statements) {
    if (!ts.isInterfaceDeclaration(s) && !ts.isTypeAliasDeclaration(s)) continue;
    if (!s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    names.set(s.name.text, s.typeParameters?.length ?? 0);
  }
  return names;
}

export type Direction = 'generated→spec' | 'spec→generated';

export interface Comparison {
  /** Label of the compared pair (e.g. a version, or `2026-07-28 without meta-is-open`). */
  label: string;
  /** The common exported types, sorted. */
  common: string[];
  /** Type name → the directions in which it is not assignable. */
  failures: Map<string, Direction[]>;
}

export interface Pair {
  label: string;
  /** The generated types.ts. */
  generated: string;
  /** The spec's schema.ts. */
  spec: string;
}

const HELPERS = `type IsAny<T> = 0 extends 1 & T ? true : false;
type Assignable<A, B> = IsAny<A> extends true ? false : IsAny<B> extends true ? false : [A] extends [B] ? true : false;`;

/** Compare every pair in one program; checker files are written next to each generated file. */
export function compare(pairs: readonly Pair[]): Comparison[] {
  const checks = new Map<string, { pair: number; name: string; direction: Direction }>();
  const results: Comparison[] = [];
  const files: string[] = [];
  pairs.forEach((pair, index) => {
    const generated = exportedTypes(pair.generated);
    const spec = exportedTypes(pair.spec);
    const common = [...generated.keys()].filter((n) => spec.has(n)).sort();
    const generic = common.filter((n) => generated.get(n) !== 0 || spec.get(n) !== 0);
    if (generic.length) throw new Error(`${pair.label}: generic types cannot be compared: ${generic.join(', ')}`);
    const checker = join(dirname(pair.generated), `fidelity-check-${index}.ts`);
    const specImport = relative(dirname(checker), pair.spec).replace(/\.ts$/, '.js');
    const lines = [
      `import type * as G from './${relative(dirname(checker), pair.generated).replace(/\.ts$/, '.js')}';`,
      `import type * as S from '${specImport.startsWith('.') ? specImport : `./${specImport}`}';`,
      ...HELPERS.split('\n'),
    ];
    for (const name of common) {
      lines.push(`export const g2s_${name}: Assignable<G.${name}, S.${name}> = true;`);
      checks.set(`${checker}:${lines.length}`, { pair: index, name, direction: 'generated→spec' });
      lines.push(`export const s2g_${name}: Assignable<S.${name}, G.${name}> = true;`);
      checks.set(`${checker}:${lines.length}`, { pair: index, name, direction: 'spec→generated' });
    }
    writeFileSync(checker, `${lines.join('\n')}\n`);
    files.push(checker);
    results.push({ label: pair.label, common, failures: new Map() });
  });
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: [],
  });
  const unexpected: string[] = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : -1;
    const check = d.file ? checks.get(`${d.file.fileName}:${at}`) : undefined;
    if (!check) {
      unexpected.push(`${d.file?.fileName ?? ''}:${at}: ${message}`);
      continue;
    }
    const failures = results[check.pair]!.failures;
    failures.set(check.name, [...(failures.get(check.name) ?? []), check.direction]);
  }
  // Anything else (a types.ts that does not compile, a missing import) must not pass as "no failures".
  if (unexpected.length) throw new Error(`the fidelity program has other errors:\n${unexpected.join('\n')}`);
  return results;
}
