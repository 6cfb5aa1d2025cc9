/**
 * Helpers shared by the type tests: tagged `@ts-expect-error [tag]` directives, and loosening a generated
 * declaration so the suite can prove that each directive fails only because the types are strict.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** Tagged `@ts-expect-error [tag]` lines of the .ts files in `dir`: "<prefix><file>:<line>" (1-based) → tag. */
export function taggedDirectives(dir: string, prefix = ''): Map<string, string> {
  const tags = new Map<string, string>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    readFileSync(join(dir, name), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const match = /\/\/ @ts-expect-error \[([\w-]+)\]/.exec(line);
        if (match) tags.set(`${prefix}${name}:${i + 1}`, match[1]!);
      });
  }
  return tags;
}

/** Replace one top-level type alias or interface of a generated file by other text (found with the compiler's parser). */
export function replaceDeclaration(file: string, name: string, replacement: string): void {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const node = source.statements.find(
    (s) => (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s)) && s.name.text === name,
  );
  if (!node) throw new Error(`${name} not found in ${file}`);
  writeFileSync(file, text.slice(0, node.getStart(source)) + replacement + text.slice(node.end));
}

/** The `@ts-expect-error` directives tsc reports unused among its error lines: "<file>:<line>". */
export function unusedDirectives(errorLines: readonly string[]): string[] {
  return errorLines
    .map((line) => /^(.+?)\((\d+),\d+\): error TS2578: Unused '@ts-expect-error' directive\./.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]}:${m[2]}`);
}
