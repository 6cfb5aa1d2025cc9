/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * The gate's refusals as HTTP answers: the status, the `WWW-Authenticate` challenges (RFC 6750 §3 for
 * Bearer, RFC 9449 §7.1 for DPoP, with RFC 9728's `resource_metadata`), and a JSON-RPC error body like the
 * server's other HTTP-level refusals. Node only.
 */
import type { ServerResponse } from 'node:http';

/** A refusal, ready to write. */
export interface Refusal {
  readonly status: 400 | 401 | 403 | 503;
  /** One `WWW-Authenticate` value per challenge. */
  readonly challenges: readonly string[];
  /** Other headers (`DPoP-Nonce`). */
  readonly headers?: { readonly [name: string]: string } | undefined;
  /** The body's error message. */
  readonly message: string;
}

/**
 * One challenge: `Bearer error="invalid_token", resource_metadata="…"`. Values are quoted strings; what RFC
 * 6750 does not allow in them (quotes, backslashes, non-ASCII, controls) is left out rather than escaped.
 */
export function challenge(scheme: 'Bearer' | 'DPoP', params: { [name: string]: string | undefined }): string {
  const pairs = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}="${value.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '')}"`);
  return pairs.length === 0 ? scheme : `${scheme} ${pairs.join(', ')}`;
}

/** Writes a refusal (nothing, if an answer already went out). */
export function writeRefusal(res: ServerResponse, refusal: Refusal): void {
  if (res.headersSent) return;
  const headers: { [name: string]: string | string[] } = { 'content-type': 'application/json', ...refusal.headers };
  if (refusal.challenges.length > 0) headers['www-authenticate'] = [...refusal.challenges];
  const body = { jsonrpc: '2.0', id: null, error: { code: -32000, message: refusal.message } };
  res.writeHead(refusal.status, headers).end(JSON.stringify(body));
}
