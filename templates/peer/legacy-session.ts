/**
 * What a dual-era server (2026-07-28 on, server-base.ts) does for the legacy clients its own schema does not
 * describe: their `initialize` checked by hand, the capabilities they are told, their requests given the
 * `_meta` a modern client sends, and their results without `resultType`.
 *
 * Hand-written runtime copied unchanged into generated output.
 */
import { isPlainObject } from '../core/jsonrpc.js';
import { withKey } from '../core/peer-messages.js';
import type { ParamsIssue } from '../core/peer-types.js';
import { setMeta, type ServerProtocolFacts } from './protocol.js';

type JsonObject = { [key: string]: unknown };

/**
 * What is wrong with a legacy `initialize`'s params, or null: the requirements the 2025-11-25 schema states (a
 * string `protocolVersion`, a `capabilities` object, a `clientInfo` with string `name` and `version`), so a
 * server whose schema has no `initialize` answers a bad handshake -32602 with the pointer, as 2025-11-25 does.
 */
export function legacyInitializeIssue(params: JsonObject | undefined): ParamsIssue | null {
  if (params === undefined) return { pointer: '', message: 'must have params', keyword: 'required' };
  if (typeof params['protocolVersion'] !== 'string') return issue('/protocolVersion', 'must be a string');
  if (!isPlainObject(params['capabilities'])) return issue('/capabilities', 'must be an object');
  const info = params['clientInfo'];
  if (!isPlainObject(info)) return issue('/clientInfo', 'must be an object');
  for (const field of ['name', 'version']) {
    if (typeof info[field] !== 'string') return issue(`/clientInfo/${field}`, 'must be a string');
  }
  return null;
}

function issue(pointer: string, message: string): ParamsIssue {
  return { pointer, message, keyword: 'type' };
}

/** What a legacy session knows that a modern request says in its `_meta`. */
export interface LegacySessionFacts {
  protocolVersion: string | undefined;
  clientInfo: unknown;
  clientCapabilities: JsonObject | undefined;
  logLevel?: string | undefined;
}

/**
 * A legacy client's params as a handler (and the validator) of a modern server reads them: with the per-request
 * `_meta` a modern client would have sent, filled in from the session (the version and client from
 * `initialize`, the level from `logging/setLevel`), so handlers are written once. A `_meta` that is not an
 * object stays as sent, for the validator to refuse (-32602 at /_meta, as the 2025-11-25 server does).
 */
export function withSessionMeta(
  keys: Record<string, string>,
  session: LegacySessionFacts,
  params: JsonObject | undefined,
): JsonObject | undefined {
  if (params?.['_meta'] !== undefined && !isPlainObject(params['_meta'])) return params;
  const given = isPlainObject(params?.['_meta']) ? params['_meta'] : {};
  const meta: JsonObject = {};
  setMeta(meta, keys['protocolVersion'], session.protocolVersion);
  setMeta(meta, keys['clientInfo'], session.clientInfo);
  setMeta(meta, keys['clientCapabilities'], session.clientCapabilities ?? {});
  setMeta(meta, keys['logLevel'], session.logLevel);
  return withKey(params, '_meta', { ...meta, ...given });
}

/**
 * Capabilities as a legacy client of `version` reads them: logging, which the runtime answers for it, and of the
 * `extensions` map only the extensions generated in that target `version` (tasks, a 2026-07-28 extension, is
 * left out; skills, which targets 2025-11-25 too, stays), as a server generated for that version says.
 */
export function legacyCapabilities(capabilities: JsonObject, facts: ServerProtocolFacts, version: string): JsonObject {
  const { extensions, ...caps } = capabilities;
  const generated = facts.extensions ?? {};
  const targets = facts.extensionTargets ?? {};
  const kept = Object.entries(isPlainObject(extensions) ? extensions : {}).filter(
    ([id]) => Object.hasOwn(generated, id) && (!Object.hasOwn(targets, id) || targets[id]?.includes(version) === true),
  );
  return { ...caps, ...(kept.length > 0 ? { extensions: Object.fromEntries(kept) } : {}), logging: {} };
}

/** Legacy results have no `resultType`. */
export function withoutResultType(result: unknown): JsonObject {
  if (!isPlainObject(result)) return result as JsonObject;
  const { resultType: _resultType, ...rest } = result;
  return rest;
}
