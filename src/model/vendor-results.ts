/**
 * Vendor results follow the target's result conventions the way MCP's own do. Where the version's `Result`
 * requires `resultType` (2026-07-28 on), a vendor request's result gets it too, typed as `Result` types it,
 * unless the result (through its `$ref`s and `allOf` parts) declares it already; a method marked
 * `"cacheable": true` gets CacheableResult's `cacheScope` and `ttlMs` the same way. The fields the runtime
 * fills in (`resultType`, and `cacheScope`/`ttlMs` of a result that reuses CacheableResult) are then
 * defaulted as for core results (protocol-facts.ts, `defaultedFields`), on the server and on a client
 * that fell back to a legacy server.
 *
 * Not for input requests (the client's answers inside `inputResponses` are not results) nor for an
 * extension's own channel (MCP Apps: its peers, ext-apps too, send no `resultType`).
 */
import { isObject } from '../load/schema.js';
import type { JsonSchema } from '../load/schema-types.js';
import { resultShape } from './protocol-facts.js';
import type { MethodInfo } from './types.js';

/** A property as the version's definition `name` declares it, when that definition requires it; else null. */
function requiredProperty(definitions: Readonly<Record<string, JsonSchema>>, name: string, property: string) {
  const definition = definitions[name];
  if (!isObject(definition) || !Array.isArray(definition.required) || !definition.required.includes(property))
    return null;
  const schema = isObject(definition.properties) ? definition.properties[property] : undefined;
  return isObject(schema) ? schema : null;
}

/** The fields a vendor result must carry in this version: `resultType` (2026-07-28), and for `cacheable` methods the cache hints. */
function conventionFields(definitions: Readonly<Record<string, JsonSchema>>, cacheable: boolean) {
  const fields: Record<string, JsonSchema> = {};
  const resultType = requiredProperty(definitions, 'Result', 'resultType');
  if (resultType !== null) fields['resultType'] = resultType;
  for (const property of cacheable ? ['cacheScope', 'ttlMs'] : []) {
    const schema = requiredProperty(definitions, 'CacheableResult', property);
    if (schema !== null) fields[property] = schema;
  }
  return fields;
}

/**
 * Adds the conventional fields (see above) to each vendor result in the merged definitions that lacks them.
 * `hasChannel` says which extensions have a channel of their own, `cacheable` which methods say
 * `"cacheable": true`.
 */
export function withVendorResultTypes(
  definitions: Record<string, JsonSchema>,
  methods: readonly MethodInfo[],
  hasChannel: (extension: string) => boolean,
  cacheable: (method: string) => boolean,
): void {
  for (const m of methods) {
    if (m.source === 'mcp' || m.kind !== 'request' || hasChannel(m.source)) continue;
    if (!m.directions.includes('client->server') && !m.directions.includes('server->client')) continue;
    const fields = conventionFields(definitions, cacheable(m.method));
    for (const name of m.result ?? []) {
      const schema = definitions[name];
      if (!isObject(schema)) continue;
      const declared = resultShape(schema, definitions).properties;
      const missing = Object.entries(fields).filter(([field]) => !declared.has(field));
      if (missing.length > 0) definitions[name] = withFields(schema, Object.fromEntries(missing));
    }
  }
}

/** A plain object schema gains the required properties; anything else (a `$ref`, a union) is wrapped in an `allOf`. */
function withFields(schema: JsonSchema, fields: Record<string, JsonSchema>): JsonSchema {
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const plain = schema.$ref === undefined && !['anyOf', 'oneOf', 'allOf', 'not', 'if'].some((k) => k in schema);
  const names = Object.keys(fields);
  if (plain) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    return { ...schema, properties: { ...properties, ...fields }, required: [...required, ...names] };
  }
  const { description, ...rest } = schema;
  return {
    ...(description === undefined ? {} : { description }),
    allOf: [rest],
    type: 'object',
    properties: fields,
    required: names,
  };
}
