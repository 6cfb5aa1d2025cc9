/**
 * A tool's schema in the other JSON Schema dialect. MCP takes a schema without `$schema` as 2020-12
 * (2025-11-25, "JSON Schema Usage"); many servers declare draft-07. The validators compile everything as 2020-12
 * (`as2020`), and the Standard JSON Schema each tool carries (tool-schemas.js) answers both targets a consumer
 * asks for: 2020-12 (the SDK v2) and draft-07 (the AI SDK), the other dialect made here, at generation time.
 * Only the keywords whose spelling differs move: tuples (`items` as a list ↔ `prefixItems`, `additionalItems` ↔
 * `items`), `dependencies` ↔ `dependentRequired`/`dependentSchemas`, and `$defs` ↔ `definitions` with the
 * `$ref`s into them.
 */
import { setOwn } from '../../load/own-property.js';
import { isObject, type JsonSchema } from '../../load/schema-types.js';
import { SUBSCHEMA_LISTS, SUBSCHEMA_MAPS, SUBSCHEMA_VALUES } from '../../load/schema-keywords.js';

/** draft-04, -06 and -07 all spell tuples, their rest and dependencies the old way. */
export function declaresDraft07(schema: JsonSchema): boolean {
  return typeof schema.$schema === 'string' && /json-schema\.org\/draft-0[4-7]\/schema/.test(schema.$schema);
}

/** The value of a keyword with its sub-schemas converted by `convert` (maps, lists and single ones). */
function converted(key: string, value: unknown, convert: (schema: JsonSchema) => JsonSchema): unknown {
  const sub = (v: unknown) => (isObject(v) ? convert(v) : v);
  if ((SUBSCHEMA_MAPS.has(key) || key === '$defs' || key === 'definitions') && isObject(value)) {
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, sub(v));
    return out;
  }
  if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value)) return value.map(sub);
  if (SUBSCHEMA_VALUES.has(key)) return sub(value);
  return value;
}

/** A draft-07 schema in 2020-12's words: `items: [...]` → `prefixItems`, `additionalItems` → `items`, `dependencies` split. */
export function as2020(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    const next = converted(key, value, as2020);
    if (key === 'items' && Array.isArray(value)) setOwn(out, 'prefixItems', next);
    else if (key === 'additionalItems') {
      if (Array.isArray(schema.items)) setOwn(out, 'items', next);
    } else if (key === 'dependencies' && isObject(value)) {
      for (const [property, dependency] of Object.entries(value)) {
        const keyword = Array.isArray(dependency) ? 'dependentRequired' : 'dependentSchemas';
        const map = isObject(out[keyword]) ? out[keyword] : {};
        setOwn(map, property, Array.isArray(dependency) ? dependency : isObject(dependency) ? as2020(dependency) : dependency);
        out[keyword] = map;
      }
    } else setOwn(out, key, next);
  }
  return out;
}

/**
 * A 2020-12 schema in draft-07's words: `prefixItems` → `items: [...]` (and `items` beside it → `additionalItems`),
 * `dependentRequired` and `dependentSchemas` → `dependencies`, `$defs` → `definitions` (its `$ref`s too). What
 * draft-07 has no word for (`unevaluatedProperties`, `$dynamicRef`) stays, and a draft-07 reader ignores it.
 */
export function as07(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    const next = converted(key, value, as07);
    if (key === 'prefixItems') setOwn(out, 'items', next);
    else if (key === 'items' && Array.isArray(schema.prefixItems)) setOwn(out, 'additionalItems', next);
    else if ((key === 'dependentRequired' || key === 'dependentSchemas') && isObject(next)) {
      const map = isObject(out.dependencies) ? out.dependencies : {};
      for (const [property, dependency] of Object.entries(next)) setOwn(map, property, dependency);
      out.dependencies = map;
    } else if (key === '$defs') setOwn(out, 'definitions', next);
    else if (key === '$ref' && typeof value === 'string') setOwn(out, key, value.replace(/^#\/\$defs\//, '#/definitions/'));
    else setOwn(out, key, next);
  }
  return out;
}
