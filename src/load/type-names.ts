/**
 * Which names a schema or extension definition may carry: it becomes an exported TypeScript type of
 * the same name, so it must be an identifier and neither a reserved word nor a predefined type name.
 */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Reserved and contextual words, and the predefined type names (`bigint`, `unknown`, ...). */
const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'abstract',
  'any',
  'as',
  'asserts',
  'bigint',
  'boolean',
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'declare',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'from',
  'function',
  'if',
  'implements',
  'import',
  'in',
  'infer',
  'instanceof',
  'interface',
  'is',
  'keyof',
  'let',
  'module',
  'namespace',
  'never',
  'new',
  'null',
  'number',
  'object',
  'of',
  'package',
  'private',
  'protected',
  'public',
  'readonly',
  'return',
  'static',
  'string',
  'super',
  'switch',
  'symbol',
  'this',
  'throw',
  'true',
  'try',
  'type',
  'typeof',
  'undefined',
  'unique',
  'unknown',
  'var',
  'void',
  'while',
  'with',
  'yield',
]);

/** True for text that is an identifier at all (reserved or not). */
export function isIdentifierText(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** True when `name` can be used, unchanged, as a TypeScript type or value name. */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED_WORDS.has(name);
}

/** True for a reserved word or predefined type name. */
export function isReservedWord(name: string): boolean {
  return RESERVED_WORDS.has(name);
}
