/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * How the Streamable HTTP server writes what is not a message stream: a JSON-RPC error as the whole HTTP
 * answer, the SSE response headers, the 2026-07-28 transport's error codes and their HTTP statuses, and what a
 * handler learns of the HTTP request. Node only; internal (endpoint.ts re-exports the public types).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProtocolFacts } from '../../../peer/protocol.js';
import { HEADER } from '../../../peer/http-headers.js';
import { ErrorCode, errorResponse, type JsonRpcErrorResponse, type RequestId } from '../../../core/jsonrpc.js';
import { invalidRequestResponse } from '../../../core/frame.js';
import { isInitializeRequest, isRequest, type WireMessage } from '../common.js';
import type { MessageExtraInfo } from '../../../core/transport.js';
import type { AuthInfo } from '../../../peer/auth-info.js';

/** Extra information delivered with each message received over HTTP. */
export interface HttpMessageExtraInfo extends MessageExtraInfo {
  requestInfo: { headers: IncomingMessage['headers']; url?: URL };
  /** Who sent the request, as the endpoint's `auth` gate verified it (handlers read it as `ctx.auth`). */
  auth?: AuthInfo | undefined;
  /**
   * Ends the SSE stream of the request this message is (only for requests on SSE streams with resumability):
   * the client reconnects after `retry` with `Last-Event-ID` and receives what was sent meanwhile (SSE polling).
   */
  closeSSEStream?: () => void;
  /** Ends the standalone GET stream the same way. */
  closeStandaloneSSEStream?: () => void;
}

/** What the endpoint hands a session or request transport with each POST's messages. */
export type MessageInfo = Pick<HttpMessageExtraInfo, 'requestInfo' | 'auth'>;

/** The JSON-RPC error codes the 2026-07-28 transport answers with an HTTP status of its own. */
export interface TransportErrorCodes {
  readonly headerMismatch: number;
  readonly missingCapability: number;
  readonly unsupportedVersion: number;
}

/**
 * The transport's error codes from the model (`PROTOCOL.facts.errorCodes`). A model before 2026-07-28 names
 * none of them: its server refuses a sessionless request (a version it does not speak) as an invalid request.
 */
export function transportErrorCodes(facts: ProtocolFacts): TransportErrorCodes {
  const codes = facts.errorCodes;
  const code = (name: string): number => codes[name] ?? ErrorCode.InvalidRequest;
  return {
    headerMismatch: code('HeaderMismatchError'),
    missingCapability: code('MissingRequiredClientCapabilityError'),
    unsupportedVersion: code('UnsupportedProtocolVersionError'),
  };
}

/**
 * The HTTP status of a JSON-RPC error answer in the sessionless era: unknown method 404; refusals 400, and so is
 * invalid params whose pointer is in `_meta` (basic/index.mdx: a request missing a required `_meta` field is
 * malformed, 400 on HTTP); any other error 200.
 */
export function statusOfError(error: { code?: unknown; data?: unknown }, codes: TransportErrorCodes): number {
  const code = error.code;
  if (code === ErrorCode.MethodNotFound) return 404;
  const refusals = [-32700, -32600, codes.headerMismatch, codes.missingCapability, codes.unsupportedVersion];
  if (refusals.includes(code as number)) return 400;
  const pointer = (error.data as { pointer?: unknown } | undefined)?.pointer;
  const inMeta = typeof pointer === 'string' && (pointer === '/_meta' || pointer.startsWith('/_meta/'));
  return code === ErrorCode.InvalidParams && inMeta ? 400 : 200;
}

/** The headers of an SSE response (with the session's id in the session era). */
export function sseHeaders(sessionId?: string): Record<string, string> {
  return {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
  };
}

/** Writes a JSON-RPC error as the whole HTTP answer (nothing if headers already went out). */
export function writeJsonRpcError(
  res: ServerResponse,
  status: number,
  answer: JsonRpcErrorResponse | JsonRpcErrorResponse[],
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(answer));
}

/** Writes one JSON-RPC error (id null unless given) as the whole HTTP answer. */
export function writeJsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  sessionId?: string,
  extraHeaders: Record<string, string> = {},
  id: RequestId | null = null,
  data?: unknown,
): void {
  const headers: Record<string, string> = { ...extraHeaders };
  if (sessionId !== undefined) headers[HEADER.sessionId] = sessionId;
  const error = data === undefined ? { code, message } : { code, message, data };
  writeJsonRpcError(res, status, { jsonrpc: '2.0', id, error }, headers);
}

/** One header's value (the first, when repeated). */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Echoes the request's session id on an error answer, when it named one. */
export function sessionHeader(req: IncomingMessage): Record<string, string> {
  const id = headerOf(req, HEADER.sessionId);
  return id === undefined ? {} : { [HEADER.sessionId]: id };
}

/** What a handler learns of the HTTP request its message came in. */
export function requestInfoOf(req: IncomingMessage): HttpMessageExtraInfo['requestInfo'] {
  let url: URL | undefined;
  try {
    url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  } catch {
    url = undefined;
  }
  return url === undefined ? { headers: req.headers } : { headers: req.headers, url };
}

/**
 * A 2025-03-26 batch holding an initialize, answered member by member as on every transport: each initialize is
 * refused (-32600: it must be sent alone); the other members (`rest`) go to the session the request names, or,
 * when it names none (`toSession` false) or there are none, `rest` is undefined and each of its requests is
 * refused as a request without its session is (-32000).
 */
export function initializeInBatch(
  messages: readonly WireMessage[],
  toSession: boolean,
): { refused: JsonRpcErrorResponse[]; rest: WireMessage[] | undefined } {
  const refused = messages
    .filter(isInitializeRequest)
    .map((m) => invalidRequestResponse(m.id, 'initialize must be sent alone, not in a batch'));
  const rest = messages.filter((m) => !isInitializeRequest(m));
  if (toSession && rest.length > 0) return { refused, rest };
  const noSession = rest
    .filter(isRequest)
    .map((m) => errorResponse(m.id, -32000, 'Bad Request: Mcp-Session-Id header is required'));
  return { refused: [...refused, ...noSession], rest: undefined };
}
