/**
 * Vendor extension files, normalized: plain data that the model merger and the emitters read.
 * See `schema/extension.schema.json` for the file format and `rules.ts` for the name rules.
 */
import type { JsonSchema } from '../load/schema-types.js';
import type { Direction, MethodKind } from '../protocol-terms.js';

export interface ExtensionMethod {
  /** The method string, e.g. `acme/jobs.start`. */
  method: string;
  kind: MethodKind;
  /** `both` becomes `['client->server', 'server->client']`; in the order of DIRECTIONS. */
  directions: Direction[];
  /** The params schema as written (refs not rewritten), or null when the method declares no params. */
  params: JsonSchema | null;
  /** As written, else true when params (or the local definition it `$ref`s) has a non-empty `required`. */
  paramsRequired: boolean;
  /** `paramsRequired` is written in the file; otherwise the model derives it again once `mcp:` refs resolve. */
  paramsRequiredGiven: boolean;
  /** Requests only: the result schema as written. */
  result?: JsonSchema;
  /** Requests only: `"cacheable": true`, the result carries cacheScope/ttlMs where the target defines CacheableResult. */
  cacheable: boolean;
  /** client->server requests only: a server advertising the extension must handle it (`"mandatory": true`). */
  mandatory: boolean;
  /** client->server requests only: offered only by a server whose settings say this boolean is true. */
  setting?: string;
  /** The params property the 2026-07-28 `Mcp-Name` header carries. */
  nameFrom?: string;
  description?: string;
  /** JSON pointer of the method in its file, e.g. `/methods/acme~1jobs.start`. */
  pointer: string;
}

export interface ExtensionSpec {
  /** The file the extension was read from (as given to the loader). */
  file: string;
  /** The extension identifier, e.g. `com.acme/jobs`. */
  id: string;
  /** The vendor prefix of the id (everything before the first `/`), e.g. `com.acme`. */
  prefix: string;
  /** `"official": true` in the file. */
  official: boolean;
  /** Sub-namespaces of MCP's own that an official extension owns (`resources/directory/`), in file order. */
  namespaces: string[];
  /** The extension's own version, or null. */
  version: string | null;
  description: string;
  /** The MCP spec versions it applies to, or null for all. */
  targets: string[] | null;
  /** Sorted by method string. */
  methods: ExtensionMethod[];
  /** The file's shared definitions, keys in sorted order, schemas as written. */
  definitions: Record<string, JsonSchema>;
  /** The settings schema (capabilities `extensions[id]`), or null. */
  settings: JsonSchema | null;
  /** Additions to MCP's own methods and definitions (`augment` in the file), in file order. */
  augment: ExtensionAugment;
  /** The extension's own channel (`channel` in the file), or null. */
  channel: ExtensionChannel | null;
}

/**
 * A channel of the extension's own, not an MCP client↔server session: the `client` end opens it with the
 * `handshake` request (instead of `initialize`) and then sends `initialized`; client→server methods flow
 * from the client end to the `server` end (MCP Apps: view → host).
 */
export interface ExtensionChannel {
  /** The end that plays the client, e.g. `view`. */
  client: string;
  /** The end that plays the server, e.g. `host`. */
  server: string;
  /** A client→server request of this extension, e.g. `ui/initialize`. */
  handshake: string;
  /** A client→server notification of this extension sent after the handshake, or null. */
  initialized: string | null;
  /** Methods declared elsewhere (MCP's own) that also travel over the channel; null: every one of the session. */
  mcpMethods: string[] | null;
  /** MCP's own methods that travel over the channel against their MCP direction (both ways if in mcpMethods too). */
  mcpMethodsReversed: string[];
}

/** What an extension adds to MCP's own methods and definitions; see src/model/augment.ts. */
export interface ExtensionAugment {
  /** Extra result variants: `tools/call` may also answer `CreateTaskResult` (`resultType: "task"`). */
  results: { method: string; ref: string; discriminant: Record<string, string | number | boolean>; pointer: string }[];
  /** Extra optional properties of MCP definitions: `SubscriptionFilter.taskIds`. */
  properties: { definition: string; property: string; schema: JsonSchema; pointer: string }[];
  /** Typed optional `_meta` keys of MCP definitions: `Tool._meta.ui`. */
  meta: { definition: string; key: string; schema: JsonSchema; pointer: string }[];
}

/** True when the extension applies to the given MCP spec version. */
export function appliesTo(spec: ExtensionSpec, version: string): boolean {
  return spec.targets === null || spec.targets.includes(version);
}
