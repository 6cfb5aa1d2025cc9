/**
 * Errors about the user's input. Every one names the file and, where it applies, the JSON pointer
 * inside it, so the CLI can print one clear line and exit with code 2.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    /** The file (or other source, e.g. `git:main:schema.json`) the problem is in. */
    readonly file: string,
    /** RFC 6901 JSON pointer into that file, `''` for the whole document, undefined when not applicable. */
    readonly pointer: string | undefined,
    readonly reason: string,
    /** An optional hint for the user, printed after the error line. */
    readonly hint?: string,
  ) {
    super(`${file}${pointer !== undefined ? `#${pointer}` : ''}: ${reason}`);
  }
}

/** Escape one reference token for a JSON pointer (RFC 6901). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Build a JSON pointer from tokens. */
export function pointer(...tokens: (string | number)[]): string {
  return tokens.map((t) => '/' + escapePointerToken(String(t))).join('');
}
