/**
 * The protocol facts the runtime needs, taken from the schema where the schema states them and from one
 * table here where only the spec's prose does. They reach the runtime through the generated `PROTOCOL`
 * constant, so the hand-written runtime keeps no copy of its own.
 */
import { isObject, type LoadedSchema } from '../load/schema.js';
import type { MethodInfo, ProtocolFeatures } from './types.js';
import { versionFacts, type VersionFact } from './version-facts.js';
import { decodeFragmentToken } from '../load/pointer.js';

export interface ProtocolFacts {
  /**
   * The known versions a peer generated from this schema speaks, newest first, with their era (legacy:
   * `initialize`; modern: per-request `_meta`): this version and every known one before it.
   */
  versions: VersionFact[];
  /** MCP methods of this version that some of `versions` lack → the versions that have them. */
  methodVersions: Record<string, string[]>;
  /** Server capabilities of this version that some of `versions` lack → the versions that have them. */
  capabilityVersions: Record<string, string[]>;
  /**
   * Error codes that tell a dual-era client's probe (`server/discover`) the server is modern: those only a
   * modern server answers with, and -32602 (Invalid params: the server knows the method and refused what
   * the request carries, its `_meta` with the client's capabilities and extension settings; falling back
   * to `initialize` would only fail later, for no stated reason). Anything else means legacy.
   */
  modernErrorCodes: number[];
  /**
   * Result fields a server handler may leave out, by method, with the value the runtime fills in (see
   * `defaultedFields`): `resultType` and the list results' cache fields in 2026-07-28.
   */
  resultDefaults: Record<string, Record<string, unknown>>;
  /** Methods the runtime's lifecycle answers or sends itself (present in this version). */
  lifecycleMethods: string[];
  /** Requests the client lifecycle sends itself: no stub is generated for them. */
  handshakeRequests: string[];
  /** Method prefix (`tools/`) → the server capability that announces it (`tools`), from ServerCapabilities. */
  capabilityOf: Record<string, string>;
  /** `_meta` keys by their short name (`protocolVersion` → `io.modelcontextprotocol/protocolVersion`). */
  metaKeys: Record<string, string>;
  /** Error codes by definition name, from the schema's `*Error` definitions (JSON-RPC's own included). */
  errorCodes: Record<string, number>;
  /**
   * The extensions generated in (ids, sorted) → their methods: each peer advertises them under the
   * capabilities' `extensions` map. Absent without extensions.
   */
  extensions?: Record<string, string[]>;
  /**
   * What advertising an extension commits a server to, for the extensions whose file says so (absent
   * otherwise): id → `mandatory` (the methods it must handle) and `settings` (method → the boolean setting
   * under which the server offers it; a client does not send the method otherwise).
   */
  extensionRules?: Record<string, ExtensionRules>;
  /**
   * A modern (dual-era) model's extensions whose files name `targets` → those versions: a legacy session
   * is told of an extension only when it targets the session's version. Server only.
   */
  extensionTargets?: Record<string, string[]>;
  /** Which Streamable HTTP rules apply to this version. */
  transport: {
    /** Sessions (`Mcp-Session-Id`) and the initialize handshake; false: every request stands alone. */
    sessions: boolean;
    /** Requests carry `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` headers. */
    metadataHeaders: boolean;
    /** Method → the params member `Mcp-Name` mirrors. */
    nameSources: Record<string, string>;
  };
}

/** One extension's commitments (see ProtocolFacts.extensionRules). */
export interface ExtensionRules {
  mandatory: string[];
  settings: Record<string, string>;
}

/** What the lifecycle handles, by name; the version's schema decides which of them exist. */
const LIFECYCLE = [
  'initialize',
  'notifications/initialized',
  'ping',
  'server/discover',
  'notifications/cancelled',
  'notifications/progress',
];
/** Sent only by the client's connect(). */
const HANDSHAKE = ['initialize'];
/**
 * The transport document's `Mcp-Name` table (not in the schema). Extensions add their methods through the
 * model (e.g. a task method whose name source is `taskId`).
 */
const NAME_SOURCES: Record<string, string> = { 'tools/call': 'name', 'resources/read': 'uri', 'prompts/get': 'name' };
/** JSON-RPC 2.0's codes, which schemas before 2026-07-28 do not spell out as definitions. */
const JSON_RPC_CODES: Record<string, number> = {
  ParseError: -32700,
  InvalidRequestError: -32600,
  MethodNotFoundError: -32601,
  InvalidParamsError: -32602,
  InternalError: -32603,
};

export function protocolFacts(schema: LoadedSchema, methods: MethodInfo[], features: ProtocolFeatures): ProtocolFacts {
  const present = new Set(methods.map((m) => m.method));
  const errorCodes = { ...JSON_RPC_CODES, ...schemaErrorCodes(schema) };
  const mcpMethods = methods.filter((m) => m.source === 'mcp').map((m) => m.method);
  return {
    ...versionFacts(schema.version, mcpMethods, features.batches, serverCapabilityNames(schema)),
    modernErrorCodes: features.perRequestMeta
      ? Object.entries(errorCodes)
          .filter(([name]) => !(name in JSON_RPC_CODES) || name === 'InvalidParamsError')
          .map(([, code]) => code)
          .sort((a, b) => a - b)
      : [],
    lifecycleMethods: LIFECYCLE.filter((m) => present.has(m)),
    handshakeRequests: HANDSHAKE.filter((m) => present.has(m)),
    resultDefaults: resultDefaultsOf(schema.definitions, methods),
    capabilityOf: capabilityPrefixes(schema, methods),
    metaKeys: metaKeys(schema),
    errorCodes,
    transport: {
      sessions: features.initialize,
      metadataHeaders: features.perRequestMeta,
      nameSources: Object.fromEntries(Object.entries(NAME_SOURCES).filter(([method]) => present.has(method))),
    },
  };
}

/**
 * What the runtime fills into a result the handler left it out of. Conservative: a result is final unless
 * it says otherwise, and cacheable by nobody but the requester, for no time, unless the handler says more.
 */
const RESULT_DEFAULTS: Record<string, unknown> = { resultType: 'complete', cacheScope: 'private', ttlMs: 0 };

/**
 * The fields of a result definition a handler may leave out: those of RESULT_DEFAULTS it requires (directly,
 * or through `$ref`s and `allOf` parts: a vendor result that reuses CacheableResult), unless it pins them to
 * another value (`resultType: "task"`). Not `resultType` on an input-required result (one with
 * `inputRequests` or `requestState`): there it is the point of the result, and a default would say the opposite.
 */
export function defaultedFields(definition: unknown, definitions: Readonly<Record<string, unknown>> = {}): string[] {
  const { required, properties } = resultShape(definition, definitions);
  const asksForInput = properties.has('inputRequests') || properties.has('requestState');
  return Object.keys(RESULT_DEFAULTS).filter((field) => {
    const pinned = properties.get(field)?.['const'];
    const other = pinned !== undefined && pinned !== RESULT_DEFAULTS[field];
    return required.has(field) && !other && !(field === 'resultType' && asksForInput);
  });
}

/** The required names and the property schemas of a result, through local `$ref`s and `allOf` parts. */
export function resultShape(definition: unknown, definitions: Readonly<Record<string, unknown>>) {
  const required = new Set<string>();
  const properties = new Map<string, Record<string, unknown>>();
  const seen = new Set<unknown>();
  const visit = (node: unknown): void => {
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node['required'])) for (const r of node['required']) if (typeof r === 'string') required.add(r);
    if (isObject(node['properties']))
      for (const [name, schema] of Object.entries(node['properties']))
        if (isObject(schema) && !properties.has(name)) properties.set(name, schema);
    const ref = typeof node['$ref'] === 'string' ? LOCAL_DEFINITION.exec(node['$ref'])?.[1] : undefined;
    if (ref !== undefined) visit(definitions[decodeFragmentToken(ref)]);
    if (Array.isArray(node['allOf'])) node['allOf'].forEach(visit);
  };
  visit(definition);
  return { required, properties };
}

const LOCAL_DEFINITION = /^#\/(?:\$defs|definitions)\/([^/]+)$/;

/** The defaulted result fields of each method that has some, with their values (see defaultedFields). */
export function resultDefaultsOf(
  definitions: Readonly<Record<string, unknown>>,
  methods: readonly MethodInfo[],
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const method of methods) {
    const fields = new Set((method.result ?? []).flatMap((name) => defaultedFields(definitions[name], definitions)));
    if (fields.size > 0)
      out[method.method] = Object.fromEntries([...fields].sort().map((f) => [f, RESULT_DEFAULTS[f]]));
  }
  return out;
}

/** The capabilities a schema's ServerCapabilities names, sorted. */
export function serverCapabilityNames(schema: LoadedSchema): string[] {
  const caps = schema.definitions['ServerCapabilities'];
  return isObject(caps) && isObject(caps['properties']) ? Object.keys(caps['properties']).sort() : [];
}

/** A capability names a method family when it equals its first path segment, or that plus "s". */
function capabilityPrefixes(schema: LoadedSchema, methods: MethodInfo[]): Record<string, string> {
  const caps = schema.definitions['ServerCapabilities'];
  const names = isObject(caps) && isObject(caps['properties']) ? Object.keys(caps['properties']) : [];
  const out: Record<string, string> = {};
  for (const method of methods) {
    if (!method.directions.includes('client->server') || method.source !== 'mcp') continue;
    const slash = method.method.indexOf('/');
    if (slash <= 0) continue;
    const segment = method.method.slice(0, slash);
    const capability = names.find((name) => name === segment || name === `${segment}s`);
    if (capability !== undefined) out[`${segment}/`] = capability;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The reserved `_meta` keys the schema declares on requests, results and notifications. */
function metaKeys(schema: LoadedSchema): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['RequestMetaObject', 'ResultMetaObject', 'NotificationMetaObject']) {
    const def = schema.definitions[name];
    const properties = isObject(def) && isObject(def['properties']) ? Object.keys(def['properties']) : [];
    for (const key of properties) out[key.slice(key.lastIndexOf('/') + 1)] = key;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `*Error` definitions whose `error.code` is a constant. */
function schemaErrorCodes(schema: LoadedSchema): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, def] of Object.entries(schema.definitions)) {
    if (!name.endsWith('Error') || !isObject(def) || !isObject(def['properties'])) continue;
    const code = constCode(def['properties']['error']);
    if (code !== undefined) out[name] = code;
  }
  return out;
}

function constCode(schema: unknown): number | undefined {
  if (!isObject(schema)) return undefined;
  const properties = schema['properties'];
  if (isObject(properties) && isObject(properties['code']) && Number.isInteger(properties['code']['const'])) {
    return properties['code']['const'] as number;
  }
  const parts = schema['allOf'];
  if (!Array.isArray(parts)) return undefined;
  for (const part of parts) {
    const code = constCode(part);
    if (code !== undefined) return code;
  }
  return undefined;
}

/** Facts of a model with no methods and no reserved keys (hand-built models in tests). */
export const EMPTY_FACTS: ProtocolFacts = {
  resultDefaults: {},
  versions: [],
  methodVersions: {},
  capabilityVersions: {},
  modernErrorCodes: [],
  lifecycleMethods: [],
  handshakeRequests: [],
  capabilityOf: {},
  metaKeys: {},
  errorCodes: { ...JSON_RPC_CODES },
  transport: { sessions: true, metadataHeaders: false, nameSources: {} },
};
