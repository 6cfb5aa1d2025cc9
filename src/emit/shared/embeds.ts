/**
 * Whether prettier's embedded-language pass could change a JavaScript or TypeScript file. That pass formats
 * template literals only (css`…`, html`…`, graphql and markdown tags, a `/* GraphQL *\/` comment before one),
 * so a file without any formats to the same text with `embeddedLanguageFormatting: "off"` — and prettier
 * then skips a walk of the whole tree looking for them (about a tenth of its time on the generated
 * TypeScript, which has none).
 *
 * Read with TypeScript's scanner, which skips comments and string literals as the parser would. A `/` could
 * start a regular expression (only the parser can tell it from a division) whose text would hide a backtick
 * from the scanner: a file with one keeps the pass.
 */
import { tsMorph } from './ts-project.js';

export function mayHoldTemplateLiterals(text: string): boolean {
  // Most files have no backtick at all, not even in a comment: nothing to scan.
  if (!text.includes('`')) return false;
  const { ts } = tsMorph();
  const { SyntaxKind } = ts;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  for (let kind = scanner.scan(); kind !== SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    switch (kind) {
      case SyntaxKind.NoSubstitutionTemplateLiteral:
      case SyntaxKind.TemplateHead:
      case SyntaxKind.BacktickToken:
      case SyntaxKind.SlashToken:
      case SyntaxKind.SlashEqualsToken:
        return true;
    }
  }
  return false;
}
