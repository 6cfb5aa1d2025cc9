/**
 * The request metadata headers of Streamable HTTP from 2026-07-28 on, shared by the client (which writes
 * them) and the server (which checks them against the body): `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`
 * and the `Mcp-Param-{Name}` headers a tool asks for with `x-mcp-header` in its input schema.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe:
 * it uses only TextEncoder/TextDecoder, btoa/atob and the language.
 */
import { isPlainObject } from '../core/jsonrpc.js';

type JsonObject = { [key: string]: unknown };

/** The era split: versions from this one on have no sessions and mirror body fields into headers. */
export const HEADER_ERA_SINCE = '2026-07-28';

/** True for a protocol version of the per-request-metadata era (dates compare as strings). */
export function isHeaderEra(version: string | undefined): boolean {
  return version !== undefined && version >= HEADER_ERA_SINCE;
}

/**
 * Which params member `Mcp-Name` mirrors, by method. Data, not code: the model's table
 * (`PROTOCOL.facts.transport.nameSources`, extensions adding entries, e.g. a method whose name source is
 * `taskId`), given to the client and the server; the runtime keeps no copy of its own.
 */
export type NameSources = { readonly [method: string]: string };

/**
 * What a client transport of the metadata-header era reads from its client's model (`PROTOCOL.facts`): where
 * `Mcp-Name` comes from, and the `_meta` key under which a request declares its protocol version.
 */
export interface MetadataFacts {
  readonly transport: { readonly nameSources: NameSources };
  readonly metaKeys: { readonly [name: string]: string };
}

export const HEADER = {
  protocolVersion: 'mcp-protocol-version',
  method: 'mcp-method',
  name: 'mcp-name',
  paramPrefix: 'mcp-param-',
  sessionId: 'mcp-session-id',
} as const;

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
/** Visible ASCII, space and tab, without leading or trailing whitespace. */
const PLAIN_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?$/;

/** A header value for `value`: as is when it is plain ASCII, else (or when it looks like one) the Base64 sentinel. */
export function encodeHeaderValue(value: string): string {
  const looksEncoded = value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX);
  if (PLAIN_VALUE.test(value) && !looksEncoded) return value;
  return `${SENTINEL_PREFIX}${toBase64(new TextEncoder().encode(value))}${SENTINEL_SUFFIX}`;
}

/** The value a header carries, sentinel decoded; undefined when it is not a valid header value. */
export function decodeHeaderValue(header: string): string | undefined {
  if (header.startsWith(SENTINEL_PREFIX) && header.endsWith(SENTINEL_SUFFIX)) {
    const body = header.slice(SENTINEL_PREFIX.length, header.length - SENTINEL_SUFFIX.length);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 !== 0) return undefined;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(fromBase64(body));
    } catch {
      return undefined;
    }
  }
  // Node trims surrounding whitespace of received values; inner characters must be visible ASCII or blanks.
  return /^[\x20-\x7e\t]*$/.test(header) ? header : undefined;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The standard headers of one request body: protocol version, method and (where the table says) name. */
export function standardHeaders(
  message: { method: string; params?: JsonObject | undefined },
  protocolVersion: string,
  nameSources: NameSources,
): Record<string, string> {
  const headers: Record<string, string> = {
    [HEADER.protocolVersion]: protocolVersion,
    [HEADER.method]: encodeHeaderValue(message.method),
  };
  const source = Object.hasOwn(nameSources, message.method) ? nameSources[message.method] : undefined;
  const name = source === undefined ? undefined : message.params?.[source];
  if (typeof name === 'string') headers[HEADER.name] = encodeHeaderValue(name);
  return headers;
}

// ---------------------------------------------------------------------------------------------
// x-mcp-header: tool parameters mirrored into Mcp-Param-{Name}
// ---------------------------------------------------------------------------------------------

/** One mirrored parameter: the header name part and the chain of `properties` keys leading to it. */
export interface ParamHeaderRule {
  readonly name: string;
  readonly path: readonly string[];
  readonly type: 'string' | 'integer' | 'boolean';
}

export type ParamHeaderRules =
  { readonly ok: true; readonly rules: readonly ParamHeaderRule[] } | { readonly ok: false; readonly reason: string };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Keywords whose values are data, not schemas: an `x-mcp-header` inside them annotates nothing. */
const DATA_KEYWORDS = ['const', 'enum', 'default', 'examples'];
/** Keywords whose values name schemas: each member is a schema, whatever its name (even `default`). */
const SCHEMA_MAPS = ['$defs', 'definitions', 'patternProperties', 'dependentSchemas', 'dependencies'];

/**
 * The `x-mcp-header` annotations of a tool's input schema, checked against the transport's rules (token
 * names, unique ignoring case, primitive non-number types, reachable through `properties` only); a reason
 * when any annotation breaks them, which makes the whole tool definition invalid. Every subschema is searched:
 * one reached through anything but a chain of `properties` (items, composition, conditionals, definitions,
 * any keyword, known or not) cannot be mirrored, so an annotation there is refused.
 */
export function paramHeaderRules(inputSchema: unknown): ParamHeaderRules {
  const rules: ParamHeaderRule[] = [];
  const seen = new Set<string>();
  let problem: string | undefined;
  const visit = (schema: unknown, path: string[], reachable: boolean): void => {
    if (problem !== undefined) return;
    if (Array.isArray(schema)) for (const item of schema) visit(item, path, false);
    if (!isPlainObject(schema)) return;
    if (Object.hasOwn(schema, 'x-mcp-header')) {
      const name = schema['x-mcp-header'];
      const type = schema['type'];
      if (!reachable || path.length === 0)
        problem = `x-mcp-header at /${path.join('/')} is not reachable through properties only`;
      else if (schema['$ref'] !== undefined) problem = `x-mcp-header at /${path.join('/')} sits next to $ref`;
      else if (typeof name !== 'string' || !TOKEN.test(name))
        problem = `x-mcp-header ${JSON.stringify(name)} is not an HTTP token`;
      else if (seen.has(name.toLowerCase())) problem = `x-mcp-header ${JSON.stringify(name)} is used twice`;
      else if (type !== 'string' && type !== 'integer' && type !== 'boolean') {
        problem = `x-mcp-header ${JSON.stringify(name)} is on a ${JSON.stringify(type)} parameter (string, integer or boolean only)`;
      } else {
        seen.add(name.toLowerCase());
        rules.push({ name, path, type });
      }
    }
    for (const [keyword, sub] of Object.entries(schema)) {
      if (keyword === 'properties' && isPlainObject(sub)) {
        for (const [key, member] of Object.entries(sub)) visit(member, [...path, key], reachable);
      } else if (SCHEMA_MAPS.includes(keyword) && isPlainObject(sub)) {
        for (const member of Object.values(sub)) visit(member, path, false);
      } else if (!DATA_KEYWORDS.includes(keyword)) visit(sub, path, false);
    }
  };
  visit(inputSchema, [], true);
  return problem === undefined ? { ok: true, rules } : { ok: false, reason: problem };
}

/** The value at a rule's path in the call arguments, as its header text; undefined when absent or null. */
export function paramHeaderText(rule: ParamHeaderRule, args: unknown): string | undefined {
  let value: unknown = args;
  for (const key of rule.path) {
    if (!isPlainObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** The `Mcp-Param-*` headers for one call (lower-case names). */
export function paramHeaders(rules: readonly ParamHeaderRule[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const rule of rules) {
    const text = paramHeaderText(rule, args);
    if (text !== undefined) headers[`${HEADER.paramPrefix}${rule.name.toLowerCase()}`] = encodeHeaderValue(text);
  }
  return headers;
}

/**
 * What a client writes in the metadata-header era (2026-07-28 on): the standard headers of each request and
 * the `Mcp-Param-*` headers of a tool call. Generated code of such a version hands METADATA_HEADERS to its
 * client (which passes it on to the transport): a client of an older version never references it, so its
 * bundle leaves this module's code out.
 */
export interface MetadataHeaders {
  readonly standard: typeof standardHeaders;
  readonly toolRules: typeof paramHeaderRules;
  readonly toolHeaders: typeof paramHeaders;
}

export const METADATA_HEADERS: MetadataHeaders = {
  standard: standardHeaders,
  toolRules: paramHeaderRules,
  toolHeaders: paramHeaders,
};

/**
 * Why a received request's `Mcp-Param-*` headers do not match its arguments, or undefined when they do.
 * Integers compare numerically (`42.0` equals `42`).
 */
export function paramHeaderMismatch(
  rules: readonly ParamHeaderRule[],
  args: unknown,
  header: (name: string) => string | undefined,
): string | undefined {
  for (const rule of rules) {
    const headerName = `Mcp-Param-${rule.name}`;
    const expected = paramHeaderText(rule, args);
    const raw = header(`${HEADER.paramPrefix}${rule.name.toLowerCase()}`);
    if (expected === undefined) {
      if (raw !== undefined) return `${headerName} header is present but the argument is not`;
      continue;
    }
    if (raw === undefined) return `${headerName} header is missing`;
    const got = decodeHeaderValue(raw);
    if (got === undefined) return `${headerName} header value is not a valid header value`;
    const same = rule.type === 'integer' ? Number(got) === Number(expected) && got.trim() !== '' : got === expected;
    if (!same)
      return `${headerName} header value ${JSON.stringify(got)} does not match body value ${JSON.stringify(expected)}`;
  }
  return undefined;
}
