/**
 * Discovery, in the order the spec's Authorization chapter gives: the protected-resource metadata (RFC 9728: the
 * challenge's `resource_metadata`, then the path-based and root well-known URLs), its `resource` checked against the
 * server, then the authorization server's metadata (RFC 8414 and OpenID Connect Discovery, path-inserted before
 * appended), its `issuer` checked against the issuer it was fetched for. A server with no protected-resource
 * metadata is one of 2025-03-26: its authorization server is its own origin, with the default endpoints
 * `/authorize`, `/token` and `/register` when that origin serves no metadata either.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */
import {
  discoveryRequest,
  JSON_ATTRIBUTE_COMPARISON,
  OperationProcessingError,
  processDiscoveryResponse,
  processResourceDiscoveryResponse,
  resourceDiscoveryRequest,
  type AuthorizationServer,
  type ResourceServer,
} from 'oauth4webapi';
import { describe } from '../../core/peer-messages.js';
import { AuthorizationError } from './errors.js';
import { checkSecure, requestOptions, type OAuthHttp } from './http.js';

/** What discovery found for one MCP server. */
export interface Discovered {
  /** The RFC 8707 `resource` tokens are asked for: the metadata's `resource`, else the server's URL. */
  resource: string;
  /** The protected-resource metadata, when the server has one. */
  resourceMetadata?: ResourceServer;
  /** The authorization server's metadata: validated, or made up from the default endpoints (`defaults`). */
  server: AuthorizationServer;
  /** 2025-03-26 with no metadata anywhere: `server` holds the default endpoints, and there is nothing to check. */
  defaults: boolean;
}

/** The server's URL as an RFC 8707 resource: no query, no fragment, no trailing slash (its canonical URI). */
export function canonicalResource(server: URL): string {
  return `${server.origin}${server.pathname.replace(/\/$/, '')}`;
}

/** Runs discovery for `server`; `hinted` is the challenge's `resource_metadata`; `preferIssuer` a pre-registered one. */
export async function discover(
  http: OAuthHttp,
  server: URL,
  hinted: string | undefined,
  preferIssuer: string | undefined,
): Promise<Discovered> {
  checkSecure(http, server, 'the MCP server');
  const resourceMetadata = await findResourceMetadata(http, server, hinted);
  if (resourceMetadata === undefined) return legacyDiscovery(http, server);
  const issuers = resourceMetadata.authorization_servers ?? [];
  const issuer = issuers.find((i) => i === preferIssuer) ?? issuers[0];
  if (issuer === undefined) {
    throw new AuthorizationError(
      'no-authorization-server',
      `${server.href}: its resource metadata lists no authorization server`,
    );
  }
  const metadata = await findServerMetadata(http, issuer);
  if (metadata === undefined) {
    throw new AuthorizationError(
      'no-metadata',
      `authorization server ${issuer} serves no metadata at any well-known URL`,
    );
  }
  return { resource: resourceMetadata.resource, resourceMetadata, server: metadata, defaults: false };
}

/** The first protected-resource metadata found (RFC 9728 §3, §5.1), checked against the server; undefined: none. */
async function findResourceMetadata(
  http: OAuthHttp,
  server: URL,
  hinted: string | undefined,
): Promise<ResourceServer | undefined> {
  const attempts: (() => Promise<Response>)[] = [];
  if (hinted !== undefined) {
    const url = checkSecure(http, new URL(hinted, server), 'the resource metadata');
    attempts.push(() => http.fetch(url, { headers: { accept: 'application/json' } }));
  }
  const root = new URL(server.origin);
  attempts.push(() => resourceDiscoveryRequest(server, requestOptions(http, server)));
  if (server.pathname !== '/') attempts.push(() => resourceDiscoveryRequest(root, requestOptions(http, root)));
  const response = await firstFound(attempts);
  return response === undefined ? undefined : checkedResourceMetadata(server, response);
}

/** The first of the well-known URLs that has the document (200); one that fails or has none is skipped. */
async function firstFound(attempts: (() => Promise<Response>)[]): Promise<Response | undefined> {
  for (const attempt of attempts) {
    const response = await attempt().catch(() => undefined);
    if (response?.status === 200) return response;
    await response?.body?.cancel().catch(() => undefined);
  }
  return undefined;
}

/**
 * The metadata, if its `resource` is the server or a resource above it on the same origin (a server at
 * `https://host/mcp` may be the resource `https://host`); anything else is refused, as another server's.
 */
async function checkedResourceMetadata(server: URL, response: Response): Promise<ResourceServer> {
  try {
    return await processResourceDiscoveryResponse(server, response);
  } catch (error) {
    const body =
      error instanceof OperationProcessingError && error.code === JSON_ATTRIBUTE_COMPARISON
        ? (error.cause as { body?: ResourceServer } | undefined)?.body
        : undefined;
    if (body !== undefined && covers(body.resource, server)) return body;
    if (body !== undefined) {
      throw new AuthorizationError(
        'resource-mismatch',
        `the resource metadata of ${server.href} names another resource, ${body.resource}: refused`,
        error,
      );
    }
    throw new AuthorizationError(
      'invalid-response',
      `the resource metadata of ${server.href}: ${describe(error)}`,
      error,
    );
  }
}

/** Whether `resource` is `server` or above it: same origin, and its path a whole-segment prefix of the server's. */
function covers(resource: string, server: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== server.origin || url.search !== '' || url.hash !== '') return false;
  const path = url.pathname.replace(/\/$/, '');
  return server.pathname === path || server.pathname.startsWith(`${path}/`);
}

/**
 * The authorization server's metadata, from the first well-known URL that has it, in the spec's order: for an issuer
 * with a path, OAuth path-inserted, OpenID path-inserted, OpenID appended; without one, OAuth then OpenID. The
 * document's `issuer` must be the issuer itself, character for character: a document that says otherwise is
 * refused, not skipped.
 */
export async function findServerMetadata(http: OAuthHttp, issuer: string): Promise<AuthorizationServer | undefined> {
  const url = checkSecure(http, issuer, 'the authorization server');
  const options = requestOptions(http, url);
  const path = url.pathname.replace(/\/$/, '');
  const attempts: (() => Promise<Response>)[] = [() => discoveryRequest(url, { ...options, algorithm: 'oauth2' })];
  if (path !== '') {
    // The one order the library has no request for: OpenID Connect's well-known path inserted before the issuer's.
    const inserted = new URL(`/.well-known/openid-configuration${path}`, url.origin);
    attempts.push(() => http.fetch(inserted, { headers: { accept: 'application/json' }, redirect: 'manual' }));
  }
  attempts.push(() => discoveryRequest(url, { ...options, algorithm: 'oidc' }));
  const response = await firstFound(attempts);
  return response === undefined ? undefined : checkedServerMetadata(issuer, url, response);
}

async function checkedServerMetadata(issuer: string, url: URL, response: Response): Promise<AuthorizationServer> {
  let metadata: AuthorizationServer;
  try {
    metadata = await processDiscoveryResponse(url, response);
  } catch (error) {
    const mismatch = error instanceof OperationProcessingError && error.code === JSON_ATTRIBUTE_COMPARISON;
    throw new AuthorizationError(
      mismatch ? 'issuer-mismatch' : 'invalid-response',
      mismatch
        ? `the metadata of authorization server ${issuer} names another issuer: refused`
        : `the metadata of authorization server ${issuer}: ${describe(error)}`,
      error,
    );
  }
  // The library compares the two as URLs; the spec asks for the same string (no trailing slash added or dropped).
  if (metadata.issuer !== issuer) {
    throw new AuthorizationError(
      'issuer-mismatch',
      `the metadata of authorization server ${issuer} names the issuer ${metadata.issuer}: refused`,
    );
  }
  return metadata;
}

/** 2025-03-26: no resource metadata; the authorization server is the server's origin, with its defaults if need be. */
async function legacyDiscovery(http: OAuthHttp, server: URL): Promise<Discovered> {
  const issuer = server.origin;
  const resource = canonicalResource(server);
  const metadata = await findServerMetadata(http, issuer);
  if (metadata !== undefined) return { resource, server: metadata, defaults: false };
  const defaults: AuthorizationServer = {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
  };
  return { resource, server: defaults, defaults: true };
}
