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

/**
 * The naming rule for generated names (docs/transports-and-versions.md, "Generated names"): a definition's exported type, its
 * validator and every reference to it (types, maps, client, server, `mcp:` refs) are named by its key,
 * unchanged; so a key must already be a PascalCase identifier as json-schema-to-typescript writes it
 * (a capital first, then letters and digits, a digit run followed by a capital or the end). Any other key
 * (`acmeJob`, `then`, `toString`, `tool` beside `Tool`, `Job_v2`, `Tool2go`) would be declared under a
 * changed name while references keep the key, so it is refused with the name to use instead.
 *
 * `taken` holds the names the generator exports itself (`McpClient`, `ClientRequests`, ...): a definition
 * with one of them is refused too. Returns the reason a key is refused, or undefined when it is its own name.
 */
export function generatedNameProblem(name: string, taken: ReadonlySet<string> = NO_NAMES): string | undefined {
  if (!PASCAL_CASE.test(name) || isReservedWord(name)) {
    const suggestion = pascalCase(name);
    return `definition name "${name}" is not a PascalCase identifier, which generated names must be${
      suggestion ? ` (rename it "${suggestion}")` : ''
    }`;
  }
  if (taken.has(name)) return `definition name "${name}" is a name the generated code exports itself`;
  return undefined;
}

const PASCAL_CASE = /^[A-Z][A-Za-z]*(?:[0-9]+(?:[A-Z][A-Za-z]*)?)*$/;
const NO_NAMES: ReadonlySet<string> = new Set();

/** A PascalCase spelling of `name` to suggest, or '' when nothing of it is usable. */
export function pascalCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  const joined = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  const noLeadingDigits = joined.replace(/^[0-9]+/, '');
  const spelled = noLeadingDigits.replace(
    /([0-9]+)([a-z])/g,
    (_m, digits: string, c: string) => digits + c.toUpperCase(),
  );
  return PASCAL_CASE.test(spelled) ? spelled : '';
}
