/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * The Streamable HTTP server's checks of a request before any engine sees it: the JSON-RPC shape of the
 * body (the same verdicts as core/frame.ts gives every transport), the 2026-07-28 metadata headers against the
 * body, and CORS for the origins the `cors` option lists. Node only; internal to endpoint.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspectMessage, invalidRequestResponse, type MessageVerdict } from '../../../core/frame.js';
import { HEADER, decodeHeaderValue, type NameSources } from '../../../peer/http-headers.js';
import { corsAllowed, type CorsOptions } from '../common.js';
import { ErrorCode, isPlainObject, isValidRequestId, type JsonRpcErrorResponse } from '../../../core/jsonrpc.js';
import { headerOf, writeJsonError, writeJsonRpcError, type TransportErrorCodes } from './replies.js';

/** Request headers a browser client may send (CORS); `Mcp-Param-*` are allowed by prefix. */
const CORS_ALLOWED_HEADERS = [
  'accept',
  'authorization',
  'dpop',
  'content-type',
  'last-event-id',
  HEADER.protocolVersion,
  HEADER.sessionId,
  HEADER.method,
  HEADER.name,
];

/** The answer to a parsed body that is not something the engine would accept, or undefined when it is. */
export function refusal(value: unknown, batches: boolean): JsonRpcErrorResponse | JsonRpcErrorResponse[] | undefined {
  if (!Array.isArray(value)) {
    const verdict = inspectMessage(value);
    return verdict.kind === 'invalid' ? invalidRequestResponse(verdict.id, verdict.reason) : undefined;
  }
  if (value.length === 0) return invalidRequestResponse(null, 'empty batch');
  if (!batches) return invalidRequestResponse(null, 'batches are not supported');
  const answers: JsonRpcErrorResponse[] = [];
  for (const item of value) {
    const verdict = inspectMessage(item);
    if (verdict.kind === 'invalid') answers.push(invalidRequestResponse(verdict.id, verdict.reason));
  }
  return answers.length > 0 ? answers : undefined;
}

/**
 * Why the standard request headers (`Mcp-Method`, `Mcp-Name`) do not match the body, or undefined when they
 * do. Which params member `Mcp-Name` mirrors comes from `nameSources` (the model's, by method).
 */
export function headerMismatch(
  req: IncomingMessage,
  method: string,
  params: { [key: string]: unknown } | undefined,
  nameSources: NameSources,
): string | undefined {
  const methodHeader = headerOf(req, HEADER.method);
  if (methodHeader === undefined) return 'Mcp-Method header is missing';
  const sentMethod = decodeHeaderValue(methodHeader);
  if (sentMethod !== method) {
    return `Mcp-Method header value '${methodHeader}' does not match body value '${method}'`;
  }
  const source = Object.hasOwn(nameSources, method) ? nameSources[method] : undefined;
  const nameHeader = headerOf(req, HEADER.name);
  if (source === undefined) return undefined;
  const bodyName = params?.[source];
  if (typeof bodyName !== 'string') {
    return nameHeader === undefined ? undefined : `Mcp-Name header is present but params.${source} is not a string`;
  }
  if (nameHeader === undefined) return 'Mcp-Name header is missing';
  const sentName = decodeHeaderValue(nameHeader);
  if (sentName === undefined) return 'Mcp-Name header value is not a valid header value';
  if (sentName !== bodyName) return `Mcp-Name header value '${sentName}' does not match body value '${bodyName}'`;
  return undefined;
}

/**
 * CORS for an Origin the `cors` option allows (none by default): exposes the session id too. A page of another
 * origin that gets none cannot read the answer: that is reported (once per origin) where `report` is given.
 */
export function corsHeaders(
  cors: CorsOptions | undefined,
  origin: string | undefined,
  report?: { host: string | undefined; once: (key: string, message: string) => void },
): Record<string, string> {
  const headers = corsAllowed(cors, origin);
  if (headers['access-control-allow-origin'] === undefined) {
    if (origin !== undefined && report !== undefined && !sameOrigin(origin, report.host))
      report.once(
        `cors ${origin}`,
        `MCP server: no CORS headers for Origin ${origin}: its pages cannot read the answers; allow it with cors.origins`,
      );
    return headers;
  }
  return { ...headers, 'access-control-expose-headers': 'mcp-session-id, www-authenticate, dpop-nonce' };
}

/** Answers a CORS preflight: the MCP request headers, and any `Mcp-Param-*` the browser asks for. */
export function preflight(
  req: IncomingMessage,
  res: ServerResponse,
  cors: CorsOptions | undefined,
  origin: string | undefined,
): void {
  const asked = (headerOf(req, 'access-control-request-headers') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  const allowed = asked.filter((h) => CORS_ALLOWED_HEADERS.includes(h) || h.startsWith(HEADER.paramPrefix));
  res
    .writeHead(204, {
      ...corsHeaders(cors, origin),
      'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
      'access-control-allow-headers': [...new Set([...CORS_ALLOWED_HEADERS, ...allowed])].join(', '),
      'access-control-max-age': '600',
    })
    .end();
}

/** What the sessionless checks read from the endpoint's settings (the model's facts, endpoint.ts). */
export interface SessionlessRules {
  nameSources: NameSources;
  codes: TransportErrorCodes;
  supported: readonly string[];
  /** The `_meta` key a request names its version under. */
  versionMetaKey: string | undefined;
  /** Whether a request of `method` must carry the `_meta` version (one of the generated server's requests). */
  requiresMeta: (method: string) => boolean;
}

/**
 * A sessionless POST's message when it passes the transport's checks, in order: the JSON-RPC shape, no response,
 * the standard headers against the body (HeaderMismatchError), the version (UnsupportedProtocolVersionError),
 * and the body's `_meta` version: required on a request the generated server receives (-32602, 400, as the
 * transport document answers validation failures), equal to the header when present. `initialize` is 404:
 * this wire has no handshake. Else the answer is written and undefined returned.
 */
export function sessionlessVerdict(
  req: IncomingMessage,
  res: ServerResponse,
  value: unknown,
  version: string,
  rules: SessionlessRules,
): Extract<MessageVerdict, { kind: 'request' | 'notification' }> | undefined {
  const refused = refusal(value, false);
  if (refused !== undefined) return void writeJsonRpcError(res, 400, refused);
  const verdict = inspectMessage(value);
  if (verdict.kind === 'response') {
    const id = verdict.message['id'];
    const answerId = isValidRequestId(id) ? id : null; // never an unsafe id such as 1.5
    const answer = invalidRequestResponse(answerId, 'clients do not send responses over HTTP in this version');
    return void writeJsonRpcError(res, 400, answer);
  }
  if (verdict.kind === 'invalid') {
    return void writeJsonRpcError(res, 400, invalidRequestResponse(verdict.id, verdict.reason));
  }
  const id = verdict.kind === 'request' ? verdict.id : null;
  const { codes, supported, versionMetaKey: key } = rules;
  const mismatch = headerMismatch(req, verdict.method, verdict.params, rules.nameSources);
  if (mismatch !== undefined) {
    return void writeJsonError(res, 400, codes.headerMismatch, `Header mismatch: ${mismatch}`, undefined, {}, id);
  }
  if (!supported.includes(version)) {
    const data = { supported, requested: version };
    const message = 'Unsupported protocol version';
    return void writeJsonError(res, 400, codes.unsupportedVersion, message, undefined, {}, id, data);
  }
  // This wire has no handshake: an initialize is a request for a method 2026-07-28 does not have.
  if (verdict.method === 'initialize' && id !== null) {
    const message = `Method not found: initialize (a ${version} request; open a session without that MCP-Protocol-Version header)`;
    return void writeJsonError(res, 404, ErrorCode.MethodNotFound, message, undefined, {}, id);
  }
  const meta = verdict.params?.['_meta'];
  const bodyVersion = key !== undefined && isPlainObject(meta) ? meta[key] : undefined;
  if (typeof bodyVersion !== 'string' && key !== undefined && id !== null && rules.requiresMeta(verdict.method)) {
    const message = `Invalid params: ${verdict.method} in ${version} needs _meta["${key}"], a string`;
    return void writeJsonError(res, 400, ErrorCode.InvalidParams, message, undefined, {}, id);
  }
  if (bodyVersion !== undefined && bodyVersion !== version) {
    const message = `Header mismatch: MCP-Protocol-Version header value '${version}' does not match body value '${String(bodyVersion)}'`;
    return void writeJsonError(res, 400, codes.headerMismatch, message, undefined, {}, id);
  }
  return verdict;
}

/** Whether a page of `origin` is served by this server (its fetches need no CORS). */
function sameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}
