/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * RFC 9728 protected-resource metadata: the document that tells a client which authorization servers issue
 * tokens for this server, and where it is served — the well-known URL made from the resource's path
 * (`/.well-known/oauth-protected-resource/mcp` for `https://host/mcp`), and the root one MCP clients fall
 * back to. Public, unchanging, for any origin (browser clients read it cross-origin). Node only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthSettings } from './options.js';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** The paths the document is served at: the resource's own first (its URL goes in challenges), then the root one. */
export function metadataPaths(resource: URL): string[] {
  const path = resource.pathname.replace(/\/$/, '');
  return path === '' ? [WELL_KNOWN] : [WELL_KNOWN + path, WELL_KNOWN];
}

/** The document's URL, for `WWW-Authenticate: Bearer resource_metadata="…"`. */
export function metadataUrl(resource: URL): string {
  return new URL(metadataPaths(resource)[0] ?? WELL_KNOWN, resource.origin).href;
}

/** The metadata document (RFC 9728 §2). */
export function metadataDocument(settings: AuthSettings): { [member: string]: unknown } {
  const { dpop } = settings;
  return {
    ...settings.metadata,
    resource: settings.resource,
    authorization_servers: settings.authorizationServers,
    ...(settings.scopesSupported.length > 0 ? { scopes_supported: settings.scopesSupported } : {}),
    bearer_methods_supported: ['header'],
    ...(dpop === undefined
      ? {}
      : {
          dpop_signing_alg_values_supported: dpop.algorithms,
          dpop_bound_access_tokens_required: dpop.required === true,
        }),
  };
}

/**
 * Answers a request for the metadata (GET, HEAD, or a CORS preflight) when `pathname` is one of its paths;
 * false, with nothing written, for any other path.
 */
export function serveMetadata(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  paths: readonly string[],
  body: string,
): boolean {
  if (!paths.includes(pathname)) return false;
  const cors = { 'access-control-allow-origin': '*' };
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      ...cors,
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-max-age': '600',
    });
    res.end();
  } else if (req.method === 'GET' || req.method === 'HEAD') {
    res.writeHead(200, { ...cors, 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' });
    res.end(req.method === 'GET' ? body : undefined);
  } else {
    res.writeHead(405, { allow: 'GET, HEAD, OPTIONS' }).end();
  }
  return true;
}
