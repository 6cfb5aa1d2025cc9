/**
 * What an option's value must look like, apart from the option table (options.ts): the CLI's flag checks
 * read these without loading the table and the generator modules it names.
 */

/** A value pattern: a regular expression (JSON Schema `pattern`) and what it says, for errors. */
export interface ValuePattern {
  regex: string;
  says: string;
}

/** A sha256 pin: the 64 hex digits `sha256sum` prints. */
export const SHA256_PATTERN: ValuePattern = {
  regex: '^[0-9a-fA-F]{64}$',
  says: 'a sha256 is 64 hex digits (as sha256sum prints it)',
};

/** Why `value` does not fit the option's pattern, or undefined when it does (or the option has none). */
export function patternProblem(o: { pattern?: ValuePattern }, value: unknown): string | undefined {
  if (!o.pattern || typeof value !== 'string' || new RegExp(o.pattern.regex).test(value)) return undefined;
  return o.pattern.says;
}
