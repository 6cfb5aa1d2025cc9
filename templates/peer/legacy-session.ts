/**
 * What a dual-era server (2026-07-28 on, server-base.ts) does for the legacy clients its own schema does not
 * describe: their `initialize` checked by hand, and their results without `resultType`.
 *
 * Hand-written runtime copied unchanged into generated output.
 */
import { isPlainObject } from '../core/jsonrpc.js';
import type { ParamsIssue } from '../core/peer-types.js';

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

/** Legacy results have no `resultType`. */
export function withoutResultType(result: unknown): JsonObject {
  if (!isPlainObject(result)) return result as JsonObject;
  const { resultType: _resultType, ...rest } = result;
  return rest;
}
