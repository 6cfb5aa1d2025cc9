/**
 * The messages and errors the JSON-RPC engine (engine.ts) builds and reads: error responses, the local errors
 * of a closed connection or a cancelled call, a response's shape check, and the progress token in `_meta`.
 *
 * Hand-written runtime copied unchanged into generated output. No dependencies.
 */
import {
  ErrorCode,
  LocalError,
  PROTOCOL_ERROR_NAMES,
  ProtocolError,
  isPlainObject,
  type RequestId,
} from './jsonrpc.js';
import type { JsonObject, ParamsIssue, Progress } from './peer-types.js';

export function invalidParams(issue: ParamsIssue): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${issue.pointer} ${issue.message}`, { ...issue });
}

export function connectionClosed(): ProtocolError {
  return new LocalError(ErrorCode.ConnectionClosed, 'Connection closed');
}

/**
 * A thrown ProtocolError, also one from another copy of this runtime (two generated outputs in one
 * process), recognised by name and shape.
 */
export function asProtocolError(error: unknown): ProtocolError | undefined {
  if (error instanceof ProtocolError) return error;
  if (
    error instanceof Error &&
    PROTOCOL_ERROR_NAMES.includes(error.name) &&
    Number.isInteger((error as { code?: unknown }).code)
  ) {
    const { code, data } = error as unknown as { code: number; data?: unknown };
    return new ProtocolError(code, error.message, data);
  }
  return undefined;
}

/** Why a response for a pending call is unusable, or undefined if it is fine. */
export function malformedResponse(message: JsonObject): string | undefined {
  if (message['jsonrpc'] !== '2.0') return 'jsonrpc must be "2.0"';
  const hasError = Object.hasOwn(message, 'error');
  if (hasError && Object.hasOwn(message, 'result')) return 'both result and error';
  if (!hasError) return undefined;
  const error = message['error'];
  if (!isPlainObject(error) || !Number.isInteger(error['code']) || typeof error['message'] !== 'string') {
    return 'error must be {code: integer, message: string}';
  }
  return undefined;
}

/** A copy of params with `_meta.progressToken` set; the caller's objects are left alone. */
export function withProgressToken(params: JsonObject | undefined, token: RequestId): JsonObject {
  return withKey(params, '_meta', { ...metaOf(params), progressToken: token });
}

/**
 * `{ ...object, [key]: value }`, with `key` first. V8 gives the object a spread makes a map of its own, so a key
 * the spread did not bring makes yet another map, per message: such a message took 10× as long to measure, copy
 * and serialize (a 2026-07-28 request with its `_meta` cost twice a 2025 one). Listed first, the key is no longer new.
 */
export function withKey(object: JsonObject | undefined, key: string, value: unknown): JsonObject {
  const out: JsonObject = { [key]: undefined, ...object };
  out[key] = value;
  return out;
}

export function metaOf(params: JsonObject | undefined): JsonObject | undefined {
  const meta = params?.['_meta'];
  return isPlainObject(meta) ? meta : undefined;
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new LocalError(ErrorCode.RequestTimeout, 'Request cancelled');
}

export function abortError(message: string): Error {
  const error = new Error(message);
  error.name = 'AbortError';
  return error;
}

export function reasonText(reason: unknown): string | undefined {
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error) return reason.message;
  return undefined;
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The progress a notifications/progress reports; undefined when it carries no numeric `progress`. */
export function progressOf(params: JsonObject | undefined): Progress | undefined {
  if (typeof params?.['progress'] !== 'number') return undefined;
  const progress: Progress = { progress: params['progress'] };
  if (typeof params['total'] === 'number') progress.total = params['total'];
  if (typeof params['message'] === 'string') progress.message = params['message'];
  return progress;
}
