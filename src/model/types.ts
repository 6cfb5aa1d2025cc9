/**
 * The protocol model: plain data derived from an MCP JSON Schema (plus vendor extensions).
 * Everything downstream — types, maps, client, server, validators, `methods --json`, diff — reads this.
 */
import type { JsonSchema } from '../load/schema-types.js';
import type { Direction, MethodKind } from '../protocol-terms.js';
import type { ProtocolFacts } from './protocol-facts.js';

export { DIRECTIONS, type Direction, type MethodKind } from '../protocol-terms.js';

/** Where a method's params schema is. */
export type ParamsRef =
  /** params is a `$ref` to this definition. */
  | { kind: 'definition'; name: string }
  /**
   * params is written in the message definition, at this pointer (URI-fragment form, e.g.
   * `#/$defs/ListRootsRequest/properties/params`); `direct` when that is the message's own
   * `properties/params`, not one reached through `allOf` parts.
   */
  | { kind: 'inline'; pointer: string; direct: boolean };

/** The params' location as one string: the definition name, or the inline schema's pointer. */
export function paramsRefText(ref: ParamsRef): string {
  return ref.kind === 'definition' ? ref.name : ref.pointer;
}

export interface MethodInfo {
  /** The method string, e.g. `tools/call`. */
  method: string;
  kind: MethodKind;
  /** Sorted in the order of DIRECTIONS. Never empty. */
  directions: Direction[];
  /** The definition that declares the whole message (e.g. `CallToolRequest`). */
  definition: string;
  /** Where the params schema is; null when the message declares no params. */
  params: ParamsRef | null;
  /** True when params is required by the message definition. */
  paramsRequired: boolean;
  /**
   * Directions whose messages another definition declares (a draft of 2026 declared `elicitation/create`
   * as a server request, ElicitRequest, and as an input request, ElicitationInputRequest): direction →
   * that declaration. Absent when every direction is `definition`'s, as in every released version.
   */
  declarations?: Partial<Record<Direction, MethodDeclaration>>;
  /** Requests only: result definition names; several when the result is a union (2026-07-28 on). */
  result?: string[];
  /**
   * Requests only: true when no pairing rule found the result, so `result` is the generic `Result`
   * (the model's warnings say so; pair it with a pairing file).
   */
  resultUnknown?: boolean;
  /**
   * Requests only: what paired the result — the user's pairing file, a definition name (`<X>Request` →
   * `<X>Result`, the package table), or structure (pair-structure.ts); absent when unknown, and on
   * an extension's methods (their file names the result).
   */
  pairedBy?: 'pairing-file' | 'name' | 'structure';
  /**
   * Requests only, task-augmented ones (2025-11-25): the result (`CreateTaskResult`) a request sent with
   * `params.task` gets instead of `result` (model/task-augmented.ts).
   */
  taskResult?: string;
  /** Where the method comes from: `mcp`, or the id of the vendor extension that declares it. */
  source: string;
  /**
   * Requests an extension added result variants to: each result definition → the value of the
   * discriminant that tells it apart (`{ CallToolResult: { resultType: "complete" }, CreateTaskResult:
   * { resultType: "task" } }`), so the types can narrow on it; null: the result does not carry the property
   * (typed `?: undefined`).
   */
  discriminants?: Record<string, Record<string, string | number | boolean | null>>;
}

/** Where one direction's message of a method is declared, when not by the method's `definition`. */
export interface MethodDeclaration {
  definition: string;
  params: ParamsRef | null;
  paramsRequired: boolean;
}

/** Facts about the spec version that the runtime and the diff care about. */
export interface ProtocolFeatures {
  /** JSON-RPC batches are allowed (2025-03-26 only). */
  batches: boolean;
  /** The version has the `initialize` handshake. */
  initialize: boolean;
  /** The version carries client info/capabilities in per-request `_meta` (2026-07-28 on). */
  perRequestMeta: boolean;
  /** The version has `InputRequiredResult` (2026-07-28 on). */
  inputRequests: boolean;
  /** The capabilities objects have an `extensions` map (where vendor settings go). */
  capabilityExtensions: boolean;
}

export interface ProtocolModel {
  /** The known spec version this schema is (from the manifest or `--spec`), else null. */
  version: string | null;
  /** The version string the protocol negotiates, e.g. `2025-11-25` (LATEST_PROTOCOL_VERSION if known). */
  protocolVersion: string | null;
  dialect: 'draft-07' | '2020-12';
  /** `definitions` (draft-07) or `$defs` (2020-12). */
  defsKeyword: 'definitions' | '$defs';
  /** Definitions by name, in sorted order, as read (extension definitions merged in). */
  definitions: Record<string, JsonSchema>;
  /** Sorted by method string. */
  methods: MethodInfo[];
  features: ProtocolFeatures;
  /** For each feature present, the definition that carries it (what a diff fact about it points at). */
  featureDefinitions?: Partial<Record<keyof ProtocolFeatures, string>>;
  /** What the runtime needs to know about the version (lifecycle, capabilities, meta keys, error codes, transport). */
  facts: ProtocolFacts;
  /** Things the user should know (e.g. a request whose result is unknown); printed as warnings. */
  warnings?: string[];
  /** Channels extensions declare (their own handshake instead of `initialize`), by extension id order. */
  channels?: ChannelInfo[];
}

/** An extension's own channel: see ExtensionChannel in src/extensions/types.ts. */
export interface ChannelInfo {
  extension: string;
  client: string;
  server: string;
  handshake: string;
  initialized: string | null;
  /** Methods declared elsewhere (MCP's own) that also travel over the channel; null: every one of the session. */
  mcpMethods: string[] | null;
  /** MCP's own methods that travel over the channel against their MCP direction (both ways if in mcpMethods too). */
  mcpMethodsReversed: string[];
  /** The generated peer classes: `io.modelcontextprotocol/ui` view/host → `UiView`, `UiHost`. */
  clientClass: string;
  serverClass: string;
}
