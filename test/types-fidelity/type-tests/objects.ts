/**
 * Open objects, `object`, JSON values and tool schemas: what the rules in src/emit/types/normalize.ts promise.
 */
import type * as V3 from './generated/2025-06-18/types.js';
import type * as V4 from './generated/2025-11-25/types.js';
import type * as V5 from './generated/2026-07-28/types.js';

// empty-object-is-open: `{"type":"object"}` is any object, never `{}`.
export const meta: V5.MetaObject = { 'com.acme/anything': [1, 2] };
// @ts-expect-error [meta-object-not-a-number]
export const notMeta: V5.MetaObject = 42;
export const roots: NonNullable<V5.ClientCapabilities['roots']> = {};
// @ts-expect-error [empty-object-not-a-string] needs [empty-object-is-open]
export const notRoots: NonNullable<V5.ClientCapabilities['roots']> = 'roots';

// ts-object-keyword: the spec's `object` accepts values typed by an interface.
interface SamplingSettings {
  temperature?: number;
}
declare const settings: SamplingSettings;
export const metadata: V4.CreateMessageRequestParams['metadata'] = settings;
// @ts-expect-error [object-not-a-number]
export const notMetadata: V4.CreateMessageRequestParams['metadata'] = 42;

// json-value-has-null: null and fractions are JSON values.
export const values: V5.JSONValue[] = [null, 1.5, 'a', true, { a: null }, [null]];
// @ts-expect-error [json-value-not-undefined]
export const notValue: V5.JSONValue = undefined;
// @ts-expect-error [json-object-not-a-function]
export const notObject: V5.JSONObject = { f: () => 1 };

// tool-schemas-are-open: what real servers send, without a cast.
const inputSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { type: 'object', properties: { city: { type: 'string' } } } },
  properties: { address: { $ref: '#/$defs/address' } },
  additionalProperties: false,
} as const;
export const tool4: V4.Tool = {
  name: 't',
  inputSchema: { ...inputSchema, required: ['address'] },
  outputSchema: { type: 'object', additionalProperties: true },
};
// 2026-07-28's schema.json already says so; before, the rule does.
export const tool5: V5.Tool = { name: 't', inputSchema: { type: 'object', $defs: {}, additionalProperties: false } };
export const literal4: V4.Tool = { name: 't', inputSchema: { type: 'object', $defs: {}, additionalProperties: false } }; // needs [tool-schemas-are-open]
export const tool3: V3.Tool = { name: 't', inputSchema: { type: 'object', properties: {}, title: 'no arguments' } }; // needs [tool-schemas-are-open]
// @ts-expect-error [tool-schema-is-an-object-schema]
export const notTool: V4.Tool = { name: 't', inputSchema: { type: 'array', items: {} } };
