/**
 * Reading one received frame: the checks every transport shares, so stdio, Streamable HTTP and in-memory
 * give the same JSON-RPC answer (code and id) to the same invalid input.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe: no
 * `node:` imports, no globals beyond the language.
 *
 * Order of checks for one frame (HTTP adds its header checks between 2 and 3, see transports/http/server/endpoint.ts):
 *   1. size: a text over `maxFrameSize` is refused before it is parsed (-32600, its id if it leads the text);
 *   2. parse: not JSON → -32700, id null;
 *   3. shape (`inspectMessage`): not an object, `jsonrpc` not "2.0", `method` not a string, `params` not an
 *      object, an id that is not a string or safe integer → -32600 (with the id when it can be read exactly);
 *   4. method: unknown → -32601 (the engine, which knows its handlers).
 *
 * Ids: MCP types a request id as `string | integer`. Integers beyond ±(2^53−1) (and non-integers such as
 * 1.5 or 1e400) cannot be read back exactly by JavaScript, so an answer could not be correlated with its
 * request: such ids are refused with -32600 and id null instead of being rounded.
 */
import {
  ErrorCode,
  errorResponse,
  isPlainObject,
  isValidRequestId,
  type JsonRpcErrorResponse,
  type RequestId,
} from './jsonrpc.js';

type JsonObject = { [key: string]: unknown };

/** What one received JSON value is. */
export type MessageVerdict =
  | {
      readonly kind: 'request';
      readonly id: RequestId;
      readonly method: string;
      readonly params: JsonObject | undefined;
    }
  | { readonly kind: 'notification'; readonly method: string; readonly params: JsonObject | undefined }
  | { readonly kind: 'response'; readonly message: JsonObject }
  | { readonly kind: 'invalid'; readonly id: RequestId | null; readonly reason: string };

/**
 * Classifies one parsed JSON value (not a batch). A method-bearing object without an id is a notification
 * only when it is a well-formed one; anything else is an invalid Request, answered with id null (JSON-RPC 2.0
 * §7: `{"jsonrpc":"2.0","method":1,"params":"bar"}` gets -32600).
 */
export function inspectMessage(value: unknown): MessageVerdict {
  if (!isPlainObject(value)) return invalid(null, 'not an object');
  const hasId = Object.hasOwn(value, 'id');
  const rawId = value['id'];
  if (Object.hasOwn(value, 'method')) {
    if (hasId && !isValidRequestId(rawId)) return invalid(null, 'id must be a string or an integer');
    const id = hasId ? (rawId as RequestId) : null;
    if (value['jsonrpc'] !== '2.0') return invalid(id, 'jsonrpc must be "2.0"');
    const method = value['method'];
    if (typeof method !== 'string') return invalid(id, 'method must be a string');
    const params = value['params'];
    if (params !== undefined && !isPlainObject(params)) return invalid(id, 'params must be an object');
    return id === null ? { kind: 'notification', method, params } : { kind: 'request', id, method, params };
  }
  if (Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error')) return { kind: 'response', message: value };
  return invalid(isValidRequestId(rawId) ? rawId : null, 'not a request, notification or response');
}

/** The error response for an invalid message. */
export function invalidRequestResponse(id: RequestId | null, reason: string, data?: unknown): JsonRpcErrorResponse {
  return errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: ${reason}`, data);
}

export function parseErrorResponse(): JsonRpcErrorResponse {
  return errorResponse(null, ErrorCode.ParseError, 'Parse error');
}

/** What reading a frame's text needs from the engine reading it (RpcEngine). */
export interface FrameEngine {
  readonly maxFrameSize: number;
  post(frame: JsonRpcErrorResponse): void;
  diagnose(kind: 'oversized-frame', message: string): void;
}

/**
 * How an engine reads a text frame (a transport's `readFrame`): the parsed value, or undefined when the text was
 * answered or dropped instead (JSON never parses to undefined).
 */
export type FrameReader = (text: string, engine: FrameEngine) => unknown;

/**
 * Parses one frame's text after the size check. A text over `maxFrameSize` bytes is not parsed: it is
 * answered only when its id is the first member (or follows `"jsonrpc":"2.0"`), as this runtime and the SDKs
 * serialize requests; otherwise it is dropped (it may be a notification, which must not be answered). Text that
 * is not JSON is answered -32700.
 */
export const readFrame: FrameReader = (text, engine) => {
  const limit = engine.maxFrameSize;
  const size = oversizeText(text, limit);
  if (size !== undefined) {
    const detail = `frame of ${size} bytes exceeds maxFrameSize (${limit} bytes)`;
    engine.diagnose('oversized-frame', `Incoming ${detail}`);
    const id = leadingId(text);
    if (id !== null) engine.post(invalidRequestResponse(id, detail, { size, limit }));
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    engine.post(parseErrorResponse());
    return undefined;
  }
};

const LEADING_ID = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*("(?:[^"\\]|\\.){0,256}"|-?\d{1,16})\s*[,}]/;

/** The id of a request whose text starts with it, read without parsing the rest; null when not there. */
export function leadingId(text: string): RequestId | null {
  const match = LEADING_ID.exec(text.slice(0, 600));
  const token = match?.[1];
  if (token === undefined) return null;
  try {
    const id: unknown = JSON.parse(token);
    return isValidRequestId(id) ? id : null;
  } catch {
    return null;
  }
}

/**
 * The UTF-8 size of `text` if it exceeds `limit`, else undefined; short texts need no counting (a UTF-16 unit is
 * at most 3 bytes), and the rest are counted by encoding them (a lone surrogate as U+FFFD, 3 bytes, as sent).
 */
export function oversizeText(text: string, limit: number): number | undefined {
  if (limit === Infinity || text.length * 3 <= limit) return undefined;
  const bytes = new TextEncoder().encode(text).length;
  return bytes > limit ? bytes : undefined;
}

function invalid(id: RequestId | null, reason: string): MessageVerdict {
  return { kind: 'invalid', id, reason };
}
