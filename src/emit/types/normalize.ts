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
 * 7. ts-object-keyword — `{"type":"object","properties":{},"additionalProperties":true}` and nothing
 *    else is how the spec's schema generator writes the TypeScript `object` type (an index signature is
 *    written `"additionalProperties":{}` instead), so it becomes `object` again.
 *
 * Property names under `properties` are data, not keywords: the walk never applies a rule to them.
 *
 * A node JSTT's own rules would refuse (`minItems` above `maxItems`, a negative one, a `deprecated` that is
 * no boolean) is refused here, with its pointer: compile() would print its messages and throw an error
 * that says neither which rule nor where.
 *
 * Before these, `repairDefinitions` (below) applies the definition-level rules that bring what
 * schema.json says closer to the spec's own TypeScript; validators get the same repaired definitions.
 */
import { InputError } from '../../errors.js';
import { isObject } from '../../load/schema.js';
import type { JsonSchema } from '../../load/schema-types.js';
import type { MethodInfo } from '../../model/types.js';
import { ownRequestMeta } from '../../model/request-meta.js';
import { decodeFragmentToken, escapePointerToken } from '../../load/pointer.js';
import { SUBSCHEMA_LISTS, SUBSCHEMA_MAPS, SUBSCHEMA_VALUES } from '../../load/schema-keywords.js';

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

export interface RefNamer {
  /** Turn a local `$ref` into a TypeScript type expression; undefined when it cannot be resolved. */
  (ref: string): string | undefined;
}

/** Apply the rules above to one definition; returns a new object, the input is not modified. */
export function normalizeDefinition(
  schema: unknown,
  file: string,
  pointer: string,
  refToType: RefNamer,
  objectKeyword = true,
): unknown {
  if (typeof schema === 'boolean') return schema;
  if (!isObject(schema)) return schema;
  const out: JsonSchema = {};
  if (!Object.keys(schema).some((key) => VALIDATION_KEYWORDS.has(key))) {
    if (typeof schema.description === 'string') out.description = schema.description;
    out.tsType = 'unknown';
    return out;
  }
  if (objectKeyword && isTsObjectKeyword(schema)) {
    if (typeof schema.description === 'string') out.description = schema.description;
    out.tsType = 'object';
    return out;
  }
  const refused = jsttRefusal(schema);
  if (refused !== undefined)
    throw new InputError(file, pointer, `json-schema-to-typescript refuses this schema: ${refused}`);
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
    } else if (SUBSCHEMA_MAPS.has(key) && isObject(value)) {
      const map: JsonSchema = {};
      for (const [name, sub] of Object.entries(value)) {
        setOwn(
          map,
          name,
          normalizeDefinition(sub, file, `${here}/${escapePointerToken(name)}`, refToType, objectKeyword),
        );
      }
      setOwn(out, key, map);
    } else if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value)) {
      setOwn(
        out,
        key,
        value.map((sub, i) => normalizeDefinition(sub, file, `${here}/${i}`, refToType, objectKeyword)),
      );
    } else if (SUBSCHEMA_VALUES.has(key) && (isObject(value) || typeof value === 'boolean')) {
      setOwn(out, key, normalizeDefinition(value, file, here, refToType, objectKeyword));
    } else {
      setOwn(out, key, value);
    }
  }
  return out;
}

/** The rule of JSTT's (its validator's wording) that this node's own keywords break, if any. */
function jsttRefusal(schema: JsonSchema): string | undefined {
  const { minItems, maxItems, deprecated } = schema;
  if (typeof maxItems === 'number' && typeof minItems === 'number' && maxItems < minItems)
    return 'When both maxItems and minItems are present, maxItems >= minItems';
  if (typeof maxItems === 'number' && maxItems < 0) return 'When maxItems exists, maxItems >= 0';
  if (typeof minItems === 'number' && minItems < 0) return 'When minItems exists, minItems >= 0';
  if (deprecated !== undefined && typeof deprecated !== 'boolean') return 'deprecated must be a boolean';
  return undefined;
}

/** Rule 7: exactly type object, no properties, additionalProperties true (annotations aside). */
function isTsObjectKeyword(schema: JsonSchema): boolean {
  const keys = Object.keys(schema).filter((k) => !ANNOTATION_KEYS.has(k));
  return (
    keys.length === 3 &&
    schema.type === 'object' &&
    schema.additionalProperties === true &&
    isObject(schema.properties) &&
    Object.keys(schema.properties).length === 0
  );
}

const ANNOTATION_KEYS = new Set(['description', 'title', '$comment', 'examples', 'default', 'deprecated']);

/**
 * Assign as an own data property: a key literally named "__proto__" must not set the prototype (it is
 * the one accessor on Object.prototype; any other key assigns an own property, and faster).
 */
export function setOwn(target: JsonSchema, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * Definition-level repairs: schema.json is rendered from the spec's TypeScript (schema.ts), and in a few
 * places the rendering loses what the TypeScript says. These rules run on a copy of all definitions
 * before types (normalizeDefinition) and validators (ajv) are made from them, so both agree. Each rule
 * is named; docs/type-fidelity.md says which spec types each one brings in line.
 *
 * - meta-is-open — `_meta` is the protocol's open bag: any key that follows the MetaObject key rules
 *   may appear, next to the keys the spec defines. A schema under a property named `_meta`, and every
 *   definition such a property refers to (2026-07-28: `RequestMetaObject`, `ResultMetaObject`, …), gets
 *   `additionalProperties: {}` when it says nothing about other keys: the known keys stay typed
 *   exactly, any other key is `unknown`. (In schema.ts these extend `MetaObject`, a string-keyed
 *   record; schema.json cannot say "extends".)
 * - results-are-open — schema.ts's `Result` has an index signature and results extend it, but
 *   schema.json flattens the inheritance and only `Result` keeps `additionalProperties`. A definition
 *   whose name ends in `Result` and that requires everything `Result` requires gets it too (2026-07-28:
 *   sampling, roots and elicitation results are input responses, lack `resultType` and stay closed, as
 *   in schema.ts).
 * - empty-object-is-open — `{"type":"object"}` with no (or empty) `properties` means any object. It gets
 *   `additionalProperties: {}`, so its type is a string-keyed record; otherwise it would be `{}`, which
 *   TypeScript satisfies with any value but null and undefined (`42` included).
 * - tool-schemas-are-open — `Tool.inputSchema` / `outputSchema` hold a JSON Schema document; the spec
 *   names a few of its keywords but servers send the rest (`$defs`, `additionalProperties`, …), and
 *   schema.ts types them as anonymous object types, which accept such keys. They get
 *   `additionalProperties: {}`.
 * - json-value-has-null — the spec's `JSONValue` is any JSON value: string, number, boolean, null,
 *   object or array. 2026-07-28's schema.json lists the primitives as string, integer and boolean; the
 *   primitive branch of a `JSONValue` definition gets `null`, and `number` in place of `integer`.
 *
 * - meta-on-all-params — every request and notification may carry `_meta` in its params (the base
 *   `Request` / `Notification` params declare it), but where a method's params are written out in full
 *   (before 2025-11-25, and the task methods of 2025-11-25) schema.json and schema.ts drop it, so a
 *   `progressToken` or vendor key on `tools/call` would not type-check. Params of a method sent on the
 *   wire that say nothing about `_meta` get the base's `_meta` as an optional property. (2026-07-28's
 *   embedded input requests carry no `_meta` and are left alone.)
 *
 * None of these loosens an explicit `additionalProperties` (or `unevaluatedProperties`) of the input.
 */
export const REPAIR_RULES = [
  'meta-on-all-params',
  'meta-is-open',
  'results-are-open',
  'empty-object-is-open',
  'tool-schemas-are-open',
  'json-value-has-null',
] as const;
export type RepairRule = (typeof REPAIR_RULES)[number];

/** What the repairs read: the definitions, and which of them are messages with params. */
export interface RepairInput {
  definitions: Readonly<Record<string, unknown>>;
  defsKeyword: string;
  methods: readonly MethodInfo[];
}

/** Repair a copy of the definitions; `without` turns rules off (the fidelity test proves each one matters). */
export function repairDefinitions(input: RepairInput, without: readonly RepairRule[] = []): Record<string, unknown> {
  const { defsKeyword } = input;
  const definitions = without.includes('meta-on-all-params') ? input.definitions : withMetaOnAllParams(input);
  const on = (rule: RepairRule) => !without.includes(rule);
  const metaTargets = new Set<string>();
  const out: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(definitions)) {
    let repaired = mapSchemas(definition, (node, key) => {
      let next = node;
      if (on('meta-is-open') && key === '_meta') {
        const target = localRefName(next.$ref, defsKeyword);
        if (target !== undefined) metaTargets.add(target);
        else if (isObjectSchema(next)) next = opened(next);
      }
      if (on('empty-object-is-open') && isEmptyObjectSchema(next)) next = opened(next);
      return next;
    });
    if (on('json-value-has-null') && name === 'JSONValue') repaired = jsonValueWithNull(repaired);
    if (on('tool-schemas-are-open') && name === 'Tool' && isObject(repaired) && isObject(repaired.properties)) {
      const properties = { ...repaired.properties };
      for (const key of ['inputSchema', 'outputSchema']) {
        const sub = properties[key];
        if (isObject(sub) && isObjectSchema(sub)) setOwn(properties, key, opened(sub));
      }
      repaired = { ...repaired, properties };
    }
    setOwn(out, name, repaired);
  }
  const result = definitions.Result;
  const resultRequired = isObject(result) && Array.isArray(result.required) ? result.required : [];
  for (const [name, definition] of Object.entries(out)) {
    if (!isObject(definition)) continue;
    const isMeta = on('meta-is-open') && metaTargets.has(name);
    const isResult =
      on('results-are-open') &&
      name !== 'Result' &&
      name.endsWith('Result') &&
      isObject(result) &&
      result.additionalProperties !== undefined &&
      resultRequired.every((r) => Array.isArray(definition.required) && definition.required.includes(r));
    if ((isMeta || isResult) && isObjectSchema(definition)) setOwn(out, name, opened(definition));
  }
  return out;
}

/** An object schema that says nothing about keys it does not list. */
function isObjectSchema(schema: JsonSchema): boolean {
  return (
    (schema.type === 'object' || (schema.type === undefined && isObject(schema.properties))) &&
    schema.$ref === undefined &&
    schema.additionalProperties === undefined &&
    schema.unevaluatedProperties === undefined
  );
}

function isEmptyObjectSchema(schema: JsonSchema): boolean {
  return (
    schema.type === 'object' &&
    isObjectSchema(schema) &&
    (schema.properties === undefined || (isObject(schema.properties) && Object.keys(schema.properties).length === 0)) &&
    schema.patternProperties === undefined &&
    schema.propertyNames === undefined
  );
}

function opened(schema: JsonSchema): JsonSchema {
  return { ...schema, additionalProperties: {} };
}

/** `#/$defs/Name` → `Name` (only direct references to a definition). */
function localRefName(ref: unknown, defsKeyword: string): string | undefined {
  const prefix = `#/${defsKeyword}/`;
  if (typeof ref !== 'string' || !ref.startsWith(prefix)) return undefined;
  const token = ref.slice(prefix.length);
  return token.includes('/') ? undefined : decodeFragmentToken(token);
}

const PRIMITIVE_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'null']);

/** json-value-has-null: the branch of primitive types (a `type` list) says number and includes null. */
function jsonValueWithNull(schema: unknown): unknown {
  if (!isObject(schema) || !Array.isArray(schema.anyOf)) return schema;
  const anyOf = schema.anyOf.map((branch: unknown) => {
    if (!isObject(branch) || !Array.isArray(branch.type) || Object.keys(branch).length !== 1) return branch;
    const types = branch.type as unknown[];
    if (!types.every((t) => typeof t === 'string' && PRIMITIVE_TYPES.has(t))) return branch;
    const fixed = [...new Set(types.map((t) => (t === 'integer' ? 'number' : t)).concat('null'))];
    return { type: fixed };
  });
  return { ...schema, anyOf };
}

/**
 * Rebuild a schema bottom-up, calling `visit` on every sub-schema object (with the property name when
 * it is a value under `properties`). Names under `properties` and friends are data, never visited.
 */
function mapSchemas(
  node: unknown,
  visit: (schema: JsonSchema, propertyName?: string) => JsonSchema,
  propertyName?: string,
): unknown {
  if (!isObject(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (SUBSCHEMA_MAPS.has(key) && isObject(value)) {
      const map: JsonSchema = {};
      for (const [name, sub] of Object.entries(value))
        setOwn(map, name, mapSchemas(sub, visit, key === 'properties' ? name : undefined));
      setOwn(out, key, map);
    } else if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value)) {
      setOwn(
        out,
        key,
        value.map((sub) => mapSchemas(sub, visit)),
      );
    } else if (SUBSCHEMA_VALUES.has(key) && isObject(value)) {
      setOwn(out, key, mapSchemas(value, visit));
    } else if (NESTED_DEFINITIONS.has(key) && isObject(value)) {
      const map: JsonSchema = {};
      for (const [name, sub] of Object.entries(value)) setOwn(map, name, mapSchemas(sub, visit));
      setOwn(out, key, map);
    } else {
      setOwn(out, key, value);
    }
  }
  return visit(out, propertyName);
}

/** meta-on-all-params: the base message's params `_meta` schema, added where a method's params lack one. */
function withMetaOnAllParams(input: RepairInput): Record<string, unknown> {
  const { definitions, methods } = input;
  const baseMeta = (message: string, params: string): unknown => {
    const fromMessage = property(property(definitions[message], 'params'), '_meta');
    return fromMessage ?? property(definitions[params], '_meta');
  };
  const bases = {
    request: baseMeta('Request', 'RequestParams'),
    notification: baseMeta('Notification', 'NotificationParams'),
  };
  const out: Record<string, unknown> = { ...definitions };
  for (const m of methods) {
    const meta = ownRequestMeta(definitions, input.defsKeyword, m) ?? bases[m.kind];
    if (meta === undefined || m.params === null || !m.directions.some((d) => d !== 'input')) continue;
    const inline = m.params.kind === 'inline';
    const owner = m.params.kind === 'inline' ? m.definition : m.params.name;
    if (m.params.kind === 'inline' && !m.params.direct) continue;
    const definition = out[owner];
    const params = inline ? property(definition, 'params') : definition;
    if (!isObject(params) || params.type !== 'object' || !isObject(params.properties)) continue;
    if (Object.hasOwn(params.properties, '_meta')) continue;
    const properties = { ...params.properties };
    setOwn(properties, '_meta', meta);
    const withMeta = { ...params, properties };
    if (!inline) setOwn(out, owner, withMeta);
    else {
      const ownerProperties = { ...(definition as { properties: JsonSchema }).properties };
      setOwn(ownerProperties, 'params', withMeta);
      setOwn(out, owner, { ...(definition as JsonSchema), properties: ownerProperties });
    }
  }
  return out;
}

/** `schema.properties[name]`, when both are there. */
function property(schema: unknown, name: string): unknown {
  if (!isObject(schema) || !isObject(schema.properties) || !Object.hasOwn(schema.properties, name)) return undefined;
  return schema.properties[name];
}
