/**
 * JSON-RPC 2.0 wire types, error codes and the typed protocol error.
 *
 * This file is hand-written runtime that mcp-typegen copies, unchanged, into every generated output. It has no
 * dependencies. Everything here is independent of the MCP version: the generated maps plug the per-version
 * method tables into the generic shapes below.
 */

/**
 * A JSON-RPC request id as MCP allows it: a string or an integer — never a float, never null. The schema's
 * `integer` is unbounded, but JavaScript reads integers exactly only within ±(2^53−1): a received id beyond
 * that (or 1.5, or 1e400) could not be echoed back unchanged, so it is refused with -32600 and id null
 * (see frame.ts) rather than answered under a rounded id.
 */
export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: { [key: string]: unknown };
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: { [key: string]: unknown };
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: RequestId;
  result: { [key: string]: unknown };
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  /** null only when the request's id could not be read (parse error, invalid request). */
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** The error codes JSON-RPC 2.0 reserves, plus the ones MCP uses. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP: the request timed out (SDK convention, used for local timeouts). */
  RequestTimeout: -32001,
  /** MCP: the connection closed while the request was pending (SDK convention). */
  ConnectionClosed: -32000,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * A JSON-RPC error as a typed value. The client rejects with it when the peer answered with an error
 * (or the call timed out, was cancelled, or the connection closed); a server handler throws it to answer
 * with a specific code, message and data (anything else thrown becomes a bare -32603).
 */
export class ProtocolError<Data = unknown> extends Error {
  override readonly name: string = 'ProtocolError';
  declare readonly code: number;
  declare readonly data: Data | undefined;

  constructor(code: number, message: string, data?: Data) {
    super(message);
    this.code = code;
    this.data = data;
  }

  /** The JSON-RPC `error` member for this error. */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static is(value: unknown): value is ProtocolError {
    return value instanceof ProtocolError;
  }
}

/**
 * A failure on this side, not an answer from the peer: the call timed out or was cancelled, the connection
 * closed, a message could not be sent, or the call was refused before sending (a method the agreed version
 * lacks). Still a ProtocolError with the SDK's conventional code, so code that handles those keeps working;
 * `instanceof LocalError` tells the two kinds apart (a retry may help; an error the peer sent will not).
 */
export class LocalError<Data = unknown> extends ProtocolError<Data> {
  override readonly name: string = 'LocalError';
}

/** Error names a ProtocolError carries, also when it comes from another copy of this runtime. */
export const PROTOCOL_ERROR_NAMES: readonly string[] = ['ProtocolError', 'LocalError'];

/** True for a JSON-RPC id MCP accepts: a string, or a safe integer. */
export function isValidRequestId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

export function isPlainObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An error response to `id` (null when the request's id could not be read). */
export function errorResponse(
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcErrorResponse {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: '2.0', id, error };
}

// ---------------------------------------------------------------------------------------------
// Method tables. Generated `maps.ts` declares, per direction, a type like
//   type ClientRequests = { 'tools/call': { params: CallToolRequestParams; paramsRequired: true;
//                                           result: CallToolResult } ; ... }
// The runtime is generic over these shapes.
// ---------------------------------------------------------------------------------------------

export interface RequestSpec {
  params: unknown;
  paramsRequired: boolean;
  result: unknown;
  /** Task-augmented requests (2025-11-25): the result a request sent with `params.task` gets instead. */
  taskResult?: unknown;
}

/** What a request's handler may answer: its result, or for a task-augmented request also the created task. */
export type HandlerResultOf<S extends RequestSpec> = S['result'] | (S extends { taskResult: infer C } ? C : never);

/** The methods of a table that are task-augmented (their rows have a `taskResult`). */
export type TaskAugmentedMethod<T> = { [K in keyof T]: T[K] extends { taskResult: unknown } ? K : never }[keyof T] &
  string;

export interface NotificationSpec {
  params: unknown;
  paramsRequired: boolean;
}

/** A table of requests, keyed by method. */
export type RequestTable<T> = { [K in keyof T]: RequestSpec };
/** A table of notifications, keyed by method. */
export type NotificationTable<T> = { [K in keyof T]: NotificationSpec };

/**
 * The params arguments for a method: required when the schema requires params, optional otherwise.
 * Used as a rest tuple: `call<M>(method: M, ...args: ParamsArgs<Table[M], Options>)`.
 */
export type ParamsArgs<
  S extends { params: unknown; paramsRequired: boolean },
  Rest extends unknown[] = [],
> = S['paramsRequired'] extends true ? [params: S['params'], ...Rest] : [params?: S['params'], ...Rest];
