/**
 * Turning schema text into TypeScript safely. Text from a schema only ever reaches generated code
 * through these functions: as a string literal, a quoted property key, or a doc comment.
 */
import { InputError } from '../../errors.js';
import { isIdentifier } from '../../load/type-names.js';

export { isIdentifier };

/** A definition name must be usable, unchanged, as an exported type name. */
export function assertTypeName(name: string, file: string, pointer: string): void {
  if (!isIdentifier(name)) {
    throw new InputError(
      file,
      pointer,
      `definition name "${name}" is not a TypeScript identifier (or is a reserved word)`,
    );
  }
}

/** A string literal for any text: JSON escaping, plus U+2028/U+2029 so older parsers cannot trip. */
export function stringLiteral(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A property key: bare when it is a plain identifier, quoted otherwise (always quoted for index access). */
export function propertyKey(name: string, forIndexAccess = false): string {
  if (!forIndexAccess && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && name !== '__proto__' && name !== 'constructor')
    return name;
  return stringLiteral(name);
}

/** The lines of a JSDoc comment's body: nothing in them can close the comment. */
export function docLines(text: string): string[] {
  return text
    .replace(/\*\//g, '*\\/')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2028\u2029]/g, '\n')
    .split('\n');
}

/**
 * The specifier of a generated JavaScript module (validators.js, tool-validators.js): `.js` whatever the other
 * files' extension, since `.ts` (for type stripping) names no file there; its `.d.ts` types it.
 */
export function jsModuleSpecifier(name: string, importExt: string): string {
  return `./${name}${importExt === '.ts' ? '.js' : importExt}`;
}
