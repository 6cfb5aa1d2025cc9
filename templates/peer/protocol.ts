/**
 * What generated code tells the runtime about its protocol (the `PROTOCOL` constant of maps.ts): the spec
 * version, its features and the facts the client and server bases read instead of keeping copies; with the
 * two helpers both bases build on (the versions a peer speaks, `_meta` keys).
 *
 * Hand-written runtime copied unchanged into generated output. No dependencies.
 */
type JsonObject = { [key: string]: unknown };

/** What the generated maps say about the spec version (the `PROTOCOL` constant). */
export interface ProtocolDescription {
  readonly version: string | null;
  readonly protocolVersion: string | null;
  readonly features: {
    readonly batches: boolean;
    readonly initialize: boolean;
    readonly perRequestMeta: boolean;
    readonly inputRequests: boolean;
    readonly capabilityExtensions: boolean;
  };
  /** Facts about the version the runtime reads instead of keeping copies (see src/model/protocol-facts.ts). */
  readonly facts: ProtocolFacts;
}

/** The `PROTOCOL` of output generated with a server: its facts include what only a server reads. */
export interface ServerProtocolDescription extends ProtocolDescription {
  readonly facts: ServerProtocolFacts;
}

/** The `facts` of `PROTOCOL`. */
/**
 * The facts every peer reads. Output generated without a server carries only these (a browser client does not
 * bundle what only a server needs); output with one carries ServerProtocolFacts.
 */
export interface ProtocolFacts {
  /** The known versions a peer of this schema speaks, newest first, with their era. */
  readonly versions: readonly VersionFact[];
  /** Methods some of `versions` lack → the versions that have them. */
  readonly methodVersions: { readonly [method: string]: readonly string[] };
  /** Error codes only a modern server answers with (a probe that gets one knows the server is modern). */
  readonly modernErrorCodes: readonly number[];
  /** Result fields a server handler may leave out, by method, with the value the runtime fills in. */
  readonly resultDefaults: { readonly [method: string]: { readonly [field: string]: unknown } };
  /** Reserved `_meta` keys by short name (`serverInfo` → `io.modelcontextprotocol/serverInfo`). */
  readonly metaKeys: { readonly [name: string]: string };
  /** Error codes by schema definition name. */
  readonly errorCodes: { readonly [name: string]: number };
  /** The extensions generated in → their methods (absent without extensions). */
  readonly extensions?: { readonly [id: string]: readonly string[] };
  /**
   * What advertising an extension commits a server to (absent unless an extension file says): the methods it
   * must handle, and the methods it offers only under a boolean setting (method → setting).
   */
  readonly extensionRules?: {
    readonly [id: string]: {
      readonly mandatory: readonly string[];
      readonly settings: { readonly [method: string]: string };
    };
  };
  readonly transport: {
    readonly nameSources: { readonly [method: string]: string };
  };
}

/** What a server reads besides (see ProtocolFacts). */
export interface ServerProtocolFacts extends ProtocolFacts {
  /** Server capabilities some of `versions` lack → the versions that have them. */
  readonly capabilityVersions: { readonly [capability: string]: readonly string[] };
  /** Methods the lifecycle answers or sends itself. */
  readonly lifecycleMethods: readonly string[];
  /** Method prefix → the server capability announcing it. */
  readonly capabilityOf: { readonly [prefix: string]: string };
  /**
   * A dual-era server's extensions that target only some versions → those versions (an extension file's
   * `targets`): a legacy session is told of an extension only when it targets the session's version.
   */
  readonly extensionTargets?: { readonly [id: string]: readonly string[] };
}

/** `legacy`: a session opened by `initialize` (up to 2025-11-25); `modern`: per-request `_meta` (2026-07-28 on). */
export type Era = 'legacy' | 'modern';

export interface VersionFact {
  readonly version: string;
  readonly era: Era;
  /** Present only for versions that allow JSON-RPC batches (2025-03-26). */
  readonly batches?: true;
}

/**
 * The versions a peer of this protocol speaks, newest first, with their eras: `listed` (the
 * `supportedProtocolVersions` option) when given — a name the facts do not know counts as this schema's era —
 * else every known version up to this one (PROTOCOL.facts), else this schema's own version.
 */
export function speakableVersions(protocol: ProtocolDescription, listed?: readonly string[]): VersionFact[] {
  const known = protocol.facts.versions;
  const ownEra: Era = protocol.features.initialize ? 'legacy' : 'modern';
  if (listed === undefined) {
    const own = protocol.protocolVersion ?? protocol.version;
    return known.length > 0 ? [...known] : own ? [{ version: own, era: ownEra }] : [];
  }
  return [...listed]
    .sort()
    .reverse()
    .map((version) => ({ version, era: known.find((k) => k.version === version)?.era ?? ownEra }));
}

/** Sets `meta[key]` when the version names that key and there is a value (absent keys are simply not sent). */
export function setMeta(meta: JsonObject, key: string | undefined, value: unknown): void {
  if (key !== undefined && value !== undefined) meta[key] = value;
}

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
}
