/**
 * A generated JavaScript or TypeScript file cut between top-level statements, for prettier to format piece by
 * piece. Prettier formats each top-level statement on its own: what joins two is a line break, plus a blank
 * line when the original had an empty line right after the first (its `isNextLineEmpty`). So the pieces,
 * formatted and joined that way, are the file formatted whole (test/generate/format-pieces.test.ts asserts it
 * on every version's output) — and a piece's syntax tree and document die young, where those of a whole
 * 1.8 MB types.ts stayed alive through many scavenges, each copying them (the five TypeScript files of 10,000
 * synthetic definitions, formatted in one process: CPU 6.2–6.6 s → 5.7–5.9 s, peak RSS 557 → 220 MB).
 *
 * Read with TypeScript's scanner, which skips comments and strings as the parser would. A cut is made only at
 * the start of the line after a `;` or `}` at bracket depth 0 whose next token begins a declaration (`export`,
 * `import`, `interface`, …): nothing can continue the previous statement there. A template literal (its
 * `${…}` would need the parser to track) or a `/` (a regular expression, which only the parser tells from a
 * division, could hide a bracket or a backtick) makes the file one piece, and says prettier's embedded-language
 * pass may have work: the only files that keep it (format.ts).
 */
import { tsMorph } from './ts-project.js';

export interface Piece {
  text: string;
  /** Whether the original had an empty line before this piece (prettier keeps one blank line there). */
  blankBefore: boolean;
}

/**
 * The file in pieces of about `size` characters or more, cut between top-level statements; null when it holds a
 * template literal or a `/` (see above).
 */
export function statementPieces(text: string, size: number): Piece[] | null {
  const cuts = topLevelCuts(text);
  if (cuts === null) return null;
  const pieces: Piece[] = [];
  let start = 0;
  for (const cut of cuts) {
    if (cut - start < size) continue;
    pieces.push(piece(text, start, cut));
    start = cut;
  }
  pieces.push(piece(text, start, text.length));
  return pieces;
}

function piece(text: string, start: number, end: number): Piece {
  const body = text.slice(start, end);
  return { text: body, blankBefore: start > 0 && /^[ \t]*\r?\n/.test(body) };
}

/** Offsets where a top-level statement's line starts (see above), or null. */
function topLevelCuts(text: string): number[] | null {
  const { ts } = tsMorph();
  const { SyntaxKind: K } = ts;
  const starts = new Set([
    K.ExportKeyword,
    K.ImportKeyword,
    K.DeclareKeyword,
    K.InterfaceKeyword,
    K.TypeKeyword,
    K.ConstKeyword,
    K.LetKeyword,
    K.VarKeyword,
    K.FunctionKeyword,
    K.ClassKeyword,
    K.EnumKeyword,
  ]);
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const cuts: number[] = [];
  let depth = 0;
  let last: number = K.Unknown;
  // The start of the line after the statement that just ended, until the next token says whether to cut there.
  let lineStart = -1;
  for (let kind = scanner.scan(); kind !== K.EndOfFileToken; kind = scanner.scan()) {
    switch (kind) {
      case K.NewLineTrivia:
        if (lineStart < 0 && depth === 0 && (last === K.SemicolonToken || last === K.CloseBraceToken))
          lineStart = scanner.getTokenEnd();
        continue;
      case K.WhitespaceTrivia:
      case K.SingleLineCommentTrivia:
      case K.MultiLineCommentTrivia:
        continue;
      case K.NoSubstitutionTemplateLiteral:
      case K.TemplateHead:
      case K.BacktickToken:
      case K.SlashToken:
      case K.SlashEqualsToken:
      case K.ConflictMarkerTrivia:
        return null;
      case K.OpenBraceToken:
      case K.OpenParenToken:
      case K.OpenBracketToken:
        depth++;
        break;
      case K.CloseBraceToken:
      case K.CloseParenToken:
      case K.CloseBracketToken:
        depth--;
        break;
    }
    if (lineStart >= 0 && depth === 0 && starts.has(kind)) cuts.push(lineStart);
    lineStart = -1;
    last = kind;
  }
  return cuts;
}
