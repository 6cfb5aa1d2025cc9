/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * The `auth` option of the HTTP servers (Streamable HTTP, HTTP+SSE), declared once, and the two pieces a
 * deployment plugs in: the token verifier and the DPoP proof check. `settleAuth` refuses an option the gate
 * cannot serve safely (no verifier, no resource), so a server never starts half protected. Node only.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthInfo } from '../../peer/auth-info.js';

/** What a verifier and the DPoP check learn of the request a token came with. */
export interface TokenRequest {
  /** The authorization scheme the client used. */
  readonly scheme: 'Bearer' | 'DPoP';
  /** The HTTP method. */
  readonly method: string;
  /** The URL the client sent the request to: the resource's origin and the request's path (a DPoP proof's `htu`). */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** This server's resource identifier: the audience a token must name (RFC 8707). */
  readonly resource: string;
}

/**
 * Reads an access token. `verify` resolves to the identity the token grants, or rejects with
 * `InvalidTokenError` when the token is not good here (answered 401 `invalid_token`); any other rejection
 * means it could not tell (the authorization server did not answer: 503). The gate keeps what it resolves
 * to, by a hash of the token, until the identity's `expiresAt`: `verify` is called once per token.
 */
export interface TokenVerifier {
  verify(token: string, request: TokenRequest): Promise<AuthInfo>;
}

/**
 * Checks DPoP proofs (RFC 9449) for tokens bound to a key (`cnf.jkt`): `dpopProofs()` of
 * `@mcp-typegen/runtime/auth/server`, or your own. A request's proof is checked on every request, the token
 * cached or not.
 */
export interface DpopProofChecker {
  /** The proof signing algorithms accepted (the challenge's `algs`, the metadata's). */
  readonly algorithms: readonly string[];
  /** Refuse Bearer tokens: every token must be DPoP-bound (metadata `dpop_bound_access_tokens_required`). */
  readonly required?: boolean | undefined;
  /**
   * Resolves when `proof` (the `DPoP` header) proves possession of the key `jkt` names for this request and
   * `token`; rejects with `InvalidDpopProofError`, or `UseDpopNonceError` when it lacks the current nonce.
   */
  check(proof: string | undefined, jkt: string, token: string, request: TokenRequest): Promise<void>;
  /** The nonce clients must put in their proofs now, when the checker gives nonces (sent as `DPoP-Nonce`). */
  nonce?(): string;
}

/** The `auth` option: the server is an OAuth 2.1 protected resource, as MCP's authorization chapter says. */
export interface ServerAuthOptions<Method extends string = string> {
  /**
   * This server's resource identifier (RFC 8707, RFC 9728): the URL clients connect to, as they write it
   * (`https://mcp.example.com/mcp`). A token must name it as its audience; the protected-resource metadata
   * is served for it. https, or http on a loopback host.
   */
  resource: string;
  /** Issuer identifiers of the authorization servers whose tokens are accepted (metadata `authorization_servers`). */
  authorizationServers: readonly string[];
  /**
   * Reads and checks the tokens: `jwtVerifier(…)` (RFC 9068 JWT access tokens) or `introspectionVerifier(…)`
   * (RFC 7662) of `@mcp-typegen/runtime/auth/server`, or your own. Required.
   */
  verifier: TokenVerifier;
  /** Scopes every request needs (else 403 `insufficient_scope`), named in the 401 challenge. Default none. */
  scopes?: readonly string[];
  /** More scopes a JSON-RPC request or notification needs, by method: `{ 'tools/call': ['mcp:tools'] }`. */
  methodScopes?: { readonly [M in Method]?: readonly string[] };
  /** More scopes a `tools/call` needs, by tool name. */
  toolScopes?: { readonly [tool: string]: readonly string[] };
  /** The metadata's `scopes_supported`. Default: every scope named above. */
  scopesSupported?: readonly string[];
  /** DPoP proofs (RFC 9449), `dpopProofs()`: without it a DPoP-bound token is refused. */
  dpop?: DpopProofChecker;
  /** More members of the protected-resource metadata (`resource_name`, `resource_documentation`…). */
  metadata?: { readonly [member: string]: unknown };
  /** Most verified tokens remembered (by a hash of the token) until they expire. Default 10,000. */
  cacheSize?: number;
}

/** The option with its defaults applied and its URLs parsed. */
export interface AuthSettings {
  readonly resource: string;
  readonly resourceUrl: URL;
  readonly authorizationServers: readonly string[];
  readonly verifier: TokenVerifier;
  readonly scopes: readonly string[];
  readonly methodScopes: { readonly [method: string]: readonly string[] | undefined };
  readonly toolScopes: { readonly [tool: string]: readonly string[] | undefined };
  readonly scopesSupported: readonly string[];
  readonly dpop: DpopProofChecker | undefined;
  readonly metadata: { readonly [member: string]: unknown };
  readonly cacheSize: number;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a URL may be plain http: a loopback host (development, tests) and nothing else. */
export function isLoopback(url: URL): boolean {
  return LOOPBACK.has(url.hostname);
}

/** The option checked and settled; throws what is wrong, naming the member. */
export function settleAuth(options: ServerAuthOptions, server: string): AuthSettings {
  const fail = (what: string): never => {
    throw new Error(`${server}: auth.${what}`);
  };
  if (typeof options.verifier?.verify !== 'function') {
    fail('verifier is required: jwtVerifier(…) or introspectionVerifier(…) of @mcp-typegen/runtime/auth/server');
  }
  let resourceUrl: URL | undefined;
  try {
    resourceUrl = new URL(options.resource);
  } catch {
    fail(`resource must be the absolute URL clients connect to, not ${JSON.stringify(options.resource)}`);
  }
  if (resourceUrl === undefined) throw new Error('unreachable');
  if (resourceUrl.hash !== '') fail('resource must have no fragment (RFC 8707)');
  if (resourceUrl.protocol !== 'https:' && !(resourceUrl.protocol === 'http:' && isLoopback(resourceUrl))) {
    fail(`resource must be https (or http on a loopback host): ${resourceUrl.href}`);
  }
  if (!Array.isArray(options.authorizationServers) || options.authorizationServers.length === 0) {
    fail('authorizationServers must name at least one issuer');
  }
  const methodScopes = { ...options.methodScopes } as AuthSettings['methodScopes'];
  const toolScopes = { ...options.toolScopes };
  const named = [options.scopes ?? [], ...Object.values(methodScopes), ...Object.values(toolScopes)].flatMap(
    (list) => list ?? [],
  );
  return {
    resource: options.resource,
    resourceUrl,
    authorizationServers: [...options.authorizationServers],
    verifier: options.verifier,
    scopes: [...(options.scopes ?? [])],
    methodScopes,
    toolScopes,
    scopesSupported: [...(options.scopesSupported ?? new Set(named))],
    dpop: options.dpop,
    metadata: { ...options.metadata },
    cacheSize: options.cacheSize ?? 10_000,
  };
}
