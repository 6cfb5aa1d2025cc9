/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * The Streamable HTTP server's checks of a request before any engine sees it: the JSON-RPC shape of the
 * body (the same verdicts as frame.ts gives every transport), the 2026-07-28 metadata headers against the
 * body, and CORS for the origins the `cors` option lists. Node only; internal to http-server.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspectMessage, invalidRequestResponse } from './frame.js';
import { HEADER, decodeHeaderValue, type NameSources } from './http-headers.js';
import { corsAllowed, type CorsOptions } from './http-common.js';
import type { JsonRpcErrorResponse } from './jsonrpc.js';
import { headerOf } from './http-replies.js';

/** Request headers a browser client may send (CORS); `Mcp-Param-*` are allowed by prefix. */
const CORS_ALLOWED_HEADERS = [
  'accept',
  'authorization',
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

/** CORS for an Origin the `cors` option allows (none by default): exposes the session id too. */
export function corsHeaders(cors: CorsOptions | undefined, origin: string | undefined): Record<string, string> {
  const headers = corsAllowed(cors, origin);
  if (headers['access-control-allow-origin'] === undefined) return headers;
  return { ...headers, 'access-control-expose-headers': 'mcp-session-id, www-authenticate' };
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
