/**
 * maps.ts, client.ts, server.ts and index.ts are written straight in prettier's layout for DEFAULTS
 * (format.ts): the emitters build the document prettier's own TypeScript printer builds for the few
 * constructs they use (layout-types.ts, layout-code.ts) and print it with prettier's document printer
 * (`prettier/doc`, a few milliseconds to load) — never prettier's parsers and printers, nor a TypeScript
 * compiler. test/golden/layout.test.ts checks that prettier leaves every such file unchanged.
 *
 * This module: the document builders, string literals and keys as prettier writes them, doc comments,
 * and the printing of a whole file.
 */
import { builders, printer } from 'prettier/doc';
import { docLines, stringLiteral } from './ts-names.js';

export type Doc = builders.Doc;
export const {
  group,
  indent,
  indentIfBreak,
  align,
  line,
  softline,
  hardline,
  ifBreak,
  join,
  breakParent,
  conditionalGroup,
} = builders;

/** The width DEFAULTS sets (format.ts), which the layout is computed for. */
const PRINT_WIDTH = 120;

/**
 * A string literal as prettier writes it with `singleQuote`: single quotes, unless the text holds more
 * single than double quotes; escapes as stringLiteral writes them (prettier keeps those).
 */
export function quote(value: string): string {
  const json = stringLiteral(value);
  const raw = json.slice(1, -1);
  const doubles = (raw.match(/"/g) ?? []).length;
  const singles = (raw.match(/'/g) ?? []).length;
  if (singles > doubles) return json;
  return `'${raw.replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** A property key as prettier prints it (quoteProps "as-needed"): bare when it is an identifier name. */
export function key(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name);
}

/** A JSDoc block, always on its own lines (`/**`, ` * text`, ` *\/`), indented where it is placed. */
export function blockDoc(text: string): Doc {
  return join(hardline, ['/**', ...docLines(text).map((l) => ` * ${l}`.trimEnd()), ' */']);
}

/** A JSDoc comment as ts-morph writes `docs`: one line when the text is one line, else a block. */
export function docs(text: string): Doc {
  const lines = docLines(text);
  return lines.length === 1 ? `/** ${lines[0]} */` : blockDoc(text);
}

/** A statement with its comment above it. */
export function commented(comment: Doc | undefined, statement: Doc): Doc {
  return comment === undefined ? statement : [comment, hardline, statement];
}

/** `a, b, c` that breaks into one per line (with a trailing comma) inside an indent. */
export function commaList(items: readonly Doc[]): Doc {
  return [indent([softline, join([',', line], [...items])]), ifBreak(','), softline];
}

/** One top-level statement of a file; `blankBefore` keeps the blank line ts-morph put before classes and functions. */
export interface Statement {
  doc: Doc;
  blankBefore?: boolean;
}

/** A whole file: statements one a line, ending with a newline. */
export function printStatements(statements: readonly Statement[]): string {
  const parts: Doc[] = [];
  statements.forEach((s, i) => {
    if (i > 0) parts.push(s.blankBefore ? [hardline, hardline] : hardline);
    parts.push(s.doc);
  });
  parts.push(hardline);
  return printer.printDocToString(parts, { printWidth: PRINT_WIDTH, tabWidth: 2, useTabs: false }).formatted;
}
