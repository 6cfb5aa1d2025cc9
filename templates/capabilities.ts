/**
 * Capabilities a peer advertises: what it derives from its handlers and from the extensions it was
 * generated with, merged with what the user passes (never replaced by it).
 *
 * Hand-written runtime copied into generated output as `runtime/capabilities.ts`.
 */
import { isPlainObject } from './jsonrpc.js';
import type { ProtocolDescription } from './protocol.js';

type JsonObject = { [key: string]: unknown };

/**
 * `derived` with `given` laid over it one level deep: a capability both name is merged member by member
 * (the user's `extensions: { "com.acme/x": { … } }` adds to the derived extensions, and its settings win
 * for that id); any other value the user gives replaces the derived one.
 */
export function mergeCapabilities(derived: JsonObject, given: object | undefined): JsonObject {
  const merged: JsonObject = { ...derived };
  for (const [name, value] of Object.entries(given ?? {})) {
    const base = merged[name];
    merged[name] = isPlainObject(base) && isPlainObject(value) ? { ...base, ...value } : value;
  }
  return merged;
}

/** Whether this version can carry the `extensions` capability (its schema's map, or one extensions add). */
export function hasExtensionsCapability(protocol: ProtocolDescription): boolean {
  return protocol.features.capabilityExtensions || protocol.facts.extensions !== undefined;
}

/** `caps` with `extensions: { <id>: {} }` for each id (none: unchanged). */
export function withExtensionIds(caps: JsonObject, ids: Iterable<string>): JsonObject {
  const entries = [...ids].map((id) => [id, {}] as const);
  return entries.length === 0 ? caps : { ...caps, extensions: Object.fromEntries(entries) };
}

/**
 * The client capabilities of one 2026-07-28 request, from its own `_meta` only: a request that declares
 * none has none, whatever earlier requests declared.
 */
export function requestCapabilities(protocol: ProtocolDescription, params: unknown): JsonObject | undefined {
  const key = protocol.facts.metaKeys['clientCapabilities'];
  const meta = isPlainObject(params) && isPlainObject(params['_meta']) ? params['_meta'] : undefined;
  const capabilities = key === undefined ? undefined : meta?.[key];
  return isPlainObject(capabilities) ? capabilities : undefined;
}
