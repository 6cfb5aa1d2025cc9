/**
 * Vendor results follow the target's result conventions the way MCP's own do. Where the version's `Result`
 * requires `resultType` (2026-07-28 on), a vendor request's result gets it too, typed as `Result` types it,
 * unless the result (through its `$ref`s and `allOf` parts) declares it already; the fields the runtime
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

/** `resultType` as the version's `Result` declares it, when `Result` requires it; else null. */
function resultTypeSchema(definitions: Readonly<Record<string, JsonSchema>>): JsonSchema | null {
  const result = definitions['Result'];
  if (!isObject(result) || !Array.isArray(result.required) || !result.required.includes('resultType')) return null;
  const property = isObject(result.properties) ? result.properties['resultType'] : undefined;
  return isObject(property) ? property : { type: 'string' };
}

/**
 * Adds `resultType` to each vendor result in the merged definitions that lacks it (see above).
 * `hasChannel` says which extensions have a channel of their own.
 */
export function withVendorResultTypes(
  definitions: Record<string, JsonSchema>,
  methods: readonly MethodInfo[],
  hasChannel: (extension: string) => boolean,
): void {
  const resultType = resultTypeSchema(definitions);
  if (resultType === null) return;
  for (const m of methods) {
    if (m.source === 'mcp' || m.kind !== 'request' || hasChannel(m.source)) continue;
    if (!m.directions.includes('client->server') && !m.directions.includes('server->client')) continue;
    for (const name of m.result ?? []) {
      const schema = definitions[name];
      if (!isObject(schema) || resultShape(schema, definitions).properties.has('resultType')) continue;
      definitions[name] = withResultType(schema, resultType);
    }
  }
}

/** A plain object schema gains the property; anything else (a `$ref`, a union) is wrapped in an `allOf`. */
function withResultType(schema: JsonSchema, resultType: JsonSchema): JsonSchema {
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const plain = schema.$ref === undefined && !['anyOf', 'oneOf', 'allOf', 'not', 'if'].some((k) => k in schema);
  if (plain) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    return {
      ...schema,
      properties: { ...properties, resultType },
      required: [...required, 'resultType'],
    };
  }
  const { description, ...rest } = schema;
  return {
    ...(description === undefined ? {} : { description }),
    allOf: [rest],
    type: 'object',
    properties: { resultType },
    required: ['resultType'],
  };
}
