/**
 * Where a JSON Schema keeps its sub-schemas (2020-12 and draft-07 keywords together): the one list
 * every walker reads, so a keyword added here is followed everywhere.
 */
import { isObject } from './schema-types.js';

/** Keywords whose value maps names to sub-schemas. */
export const SUBSCHEMA_MAPS: ReadonlySet<string> = new Set(['properties', 'patternProperties', 'dependentSchemas']);

/** Keywords holding nested definitions (maps too, but walked only where a walker wants them). */
export const DEFINITION_MAPS: ReadonlySet<string> = new Set(['$defs', 'definitions']);

/** Keywords whose value is one sub-schema. */
export const SUBSCHEMA_VALUES: ReadonlySet<string> = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'items',
  'additionalItems',
  'contains',
  'unevaluatedItems',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
]);

/** Keywords whose value is a list of sub-schemas (`items` is one or a list, by draft). */
export const SUBSCHEMA_LISTS: ReadonlySet<string> = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);

/**
 * Calls `visit` for each direct sub-schema of `schema` that is an object, with the pointer tokens from
 * `schema` to it (`['properties', 'name']`, `['anyOf', 0]`, `['not']`). Values of `const`, `enum`,
 * `default` and `examples` are data, never visited.
 */
export function forEachSubschema(
  schema: unknown,
  visit: (sub: Record<string, unknown>, tokens: (string | number)[]) => void,
  options: { definitions?: boolean } = {},
): void {
  if (!isObject(schema)) return;
  for (const [keyword, value] of Object.entries(schema)) {
    const isMap = SUBSCHEMA_MAPS.has(keyword) || (options.definitions === true && DEFINITION_MAPS.has(keyword));
    if (isMap && isObject(value)) {
      for (const [key, sub] of Object.entries(value)) if (isObject(sub)) visit(sub, [keyword, key]);
    } else if (SUBSCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
      value.forEach((sub: unknown, i) => {
        if (isObject(sub)) visit(sub, [keyword, i]);
      });
    } else if (SUBSCHEMA_VALUES.has(keyword) && isObject(value)) {
      visit(value, [keyword]);
    }
  }
}

const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set(['description', 'title', '$comment']);

/**
 * The schema a single-member `allOf` wrapper stands for (`{ allOf: [X] }`, annotations aside, is X),
 * followed through nested wrappers with the pointer suffix to it; any other node is itself (suffix '').
 * Union readers call this before looking for `anyOf`/`oneOf`, so a wrapped union is still a union.
 */
export function unwrapAllOf(node: unknown): { node: unknown; at: string } {
  let at = '';
  for (let depth = 0; depth < 16 && isObject(node); depth++) {
    const wrapper = node;
    const { allOf } = wrapper;
    if (!Array.isArray(allOf) || allOf.length !== 1) break;
    if (!Object.keys(wrapper).every((k) => k === 'allOf' || ANNOTATION_KEYWORDS.has(k))) break;
    node = allOf[0];
    at += '/allOf/0';
  }
  return { node, at };
}
