/**
 * Normalisation of one definition before json-schema-to-typescript (JSTT) sees it. We compile every
 * definition on its own, so each rule below exists to keep JSTT from inventing, losing or trusting
 * something. The rules, in the order they apply to each schema node:
 *
 * 1. drop-generator-keywords — `tsType`, `tsEnumNames` and JSTT's other extension keywords in the
 *    input are removed: schema text must never become code.
 * 2. ref-to-name — a local `$ref` to a definition becomes a reference to that definition's exported
 *    declaration by its exact name (JSTT would otherwise inline or re-declare it as `Foo1`). Sibling
 *    keywords (a `description` next to the `$ref`) are kept as documentation.
 * 3. deep-ref-to-indexed-access — a `$ref` deeper into a definition
 *    (`#/$defs/Foo/properties/bar`) becomes an indexed access type `Foo["bar"]`.
 * 4. drop-naming-hints — `title` and `$id` are removed: JSTT hoists titled sub-schemas into new named
 *    declarations, which could collide with real definition names.
 * 5. drop-nested-definitions — `definitions` / `$defs` inside a definition are removed (the top-level
 *    ones are emitted on their own).
 * 6. unconstrained-is-unknown — a schema with no validation keyword at all (`{}` or only a
 *    description) accepts any JSON value, so it becomes `unknown`; JSTT would make it an object.
 *
 * Property names under `properties` are data, not keywords: the walk never applies a rule to them.
 */
import { InputError } from '../errors.js';
import { isObject } from '../load/schema.js';
import type { JsonSchema } from '../load/schema-types.js';

const GENERATOR_KEYWORDS = new Set(['tsType', 'tsEnumNames', 'tsExtends', 'tsDeclare']);
const NAMING_HINTS = new Set(['title', '$id', 'id', '$schema', '$anchor', '$comment']);
const NESTED_DEFINITIONS = new Set(['definitions', '$defs']);

/** Keywords that constrain a value; a schema with none of them accepts anything. */
const VALIDATION_KEYWORDS = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'properties',
  'patternProperties',
  'additionalProperties',
  'required',
  'items',
  'prefixItems',
  'additionalItems',
  'contains',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  '$dynamicRef',
  'tsType',
]);

/** Keywords whose value is a map from names to sub-schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
/** Keywords whose value is one sub-schema. */
const SCHEMA_VALUES = new Set([
  'additionalProperties',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
]);
/** Keywords whose value is a list of sub-schemas. */
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items']);

export interface RefNamer {
  /** Turn a local `$ref` into a TypeScript type expression; undefined when it cannot be resolved. */
  (ref: string): string | undefined;
}

/** Apply the rules above to one definition; returns a new object, the input is not modified. */
export function normalizeDefinition(schema: unknown, file: string, pointer: string, refToType: RefNamer): unknown {
  if (typeof schema === 'boolean') return schema;
  if (!isObject(schema)) return schema;
  const out: JsonSchema = {};
  if (!Object.keys(schema).some((key) => VALIDATION_KEYWORDS.has(key))) {
    if (typeof schema.description === 'string') out.description = schema.description;
    out.tsType = 'unknown';
    return out;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (GENERATOR_KEYWORDS.has(key) || NAMING_HINTS.has(key) || NESTED_DEFINITIONS.has(key)) continue;
    const here = `${pointer}/${key}`;
    if (key === '$ref') {
      if (typeof value !== 'string') throw new InputError(file, here, '$ref must be a string');
      const type = refToType(value);
      if (type === undefined) throw new InputError(file, here, `dangling $ref "${value}"`);
      out.tsType = type;
    } else if (key === 'description' && typeof value === 'string') {
      // U+2028/U+2029 are line breaks to a reader: make them real ones (docComment does the same).
      setOwn(out, key, value.replace(/[\u2028\u2029]/g, '\n'));
    } else if (SCHEMA_MAPS.has(key) && isObject(value)) {
      const map: JsonSchema = {};
      for (const [name, sub] of Object.entries(value)) {
        setOwn(map, name, normalizeDefinition(sub, file, `${here}/${escapeToken(name)}`, refToType));
      }
      setOwn(out, key, map);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      setOwn(
        out,
        key,
        value.map((sub, i) => normalizeDefinition(sub, file, `${here}/${i}`, refToType)),
      );
    } else if (SCHEMA_VALUES.has(key) && (isObject(value) || typeof value === 'boolean')) {
      setOwn(out, key, normalizeDefinition(value, file, here, refToType));
    } else {
      setOwn(out, key, value);
    }
  }
  return out;
}

/** Assign as an own data property: a key literally named "__proto__" must not set the prototype. */
export function setOwn(target: JsonSchema, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
