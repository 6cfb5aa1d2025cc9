/**
 * The options of `oauthClient()`, one shape per grant: the authorization code flow (a user, a browser), client
 * credentials (a machine, RFC 6749 §4.4), or a JWT assertion (RFC 7523: workload identity, enterprise-managed
 * authorization). Types only.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */
import type { CryptoKeyPair } from 'oauth4webapi';
import type { PreRegisteredClient, RegistrationMetadata } from './identity.js';
import type { AuthStore } from './store.js';

/** What every grant shares. */
export interface OAuthClientCommon {
  /** Where tokens, registrations and pending authorizations are kept. Default `memoryStore()`. */
  store?: AuthStore;
  /** The fetch for the authorization server and the metadata documents. Default the global fetch. */
  fetch?: typeof fetch;
  /**
   * DPoP (RFC 9449), sender-constrained tokens: `true` (a fresh ES256 key pair for this client), a key pair of yours
   * (its public key extractable), or `false`. Default: when the server asks for it (a `DPoP` challenge, or
   * `dpop_bound_access_tokens_required` in its metadata). Server nonces (RFC 9449 §8, §9) are handled either way.
   */
  dpop?: boolean | CryptoKeyPair;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any (else none are asked). */
  scope?: string;
  /**
   * Authorizations one request may run before its refusal is final: the first, and a step-up (403
   * `insufficient_scope`) asking for more. Default 2.
   */
  maxAuthorizations?: number;
  /** Allow http:// beyond loopback for metadata, endpoints and the MCP server. Never in production. Default false. */
  allowInsecureHttp?: boolean;
}

/** The authorization code flow with PKCE: the user approves in a browser. */
export interface AuthorizationCodeOptions extends OAuthClientCommon {
  grant?: 'authorization_code';
  /** Where the authorization server sends the browser back: a loopback URL (CLI, desktop) or your page's URL. */
  redirectUri: string | URL;
  /**
   * Sends the user to the authorization URL (open a browser, navigate the page, print it). Resolve with the URL the
   * browser came back to (the redirect URI with `code`, `state`, `iss`) to finish at once; or with nothing, and call
   * `finishAuthorization(callbackUrl)` when it arrives (the request waits for it, or the page has left).
   */
  redirect: (authorizationUrl: URL) => void | string | URL | Promise<void | string | URL>;
  /** A client registered beforehand; first in the spec's order. */
  client?: PreRegisteredClient;
  /**
   * Your Client ID Metadata Document: an https URL with a path, used as the `client_id` where the authorization
   * server advertises `client_id_metadata_document_supported`.
   */
  clientMetadataUrl?: string;
  /** Metadata for dynamic client registration (RFC 7591): `client_name` and the like. */
  registration?: RegistrationMetadata;
  /** Ask for `offline_access` (a refresh token) where the authorization server lists it. Default true. */
  offlineAccess?: boolean;
  /** How long a request waits for the user to come back, in milliseconds. Default 10 minutes. */
  authorizationTimeoutMs?: number;
}

/** Client credentials: the client acts on its own behalf (machine to machine); a secret or a private key. */
export interface ClientCredentialsOptions extends OAuthClientCommon {
  grant: 'client_credentials';
  client: PreRegisteredClient &
    ({ client_secret: string } | { private_key: NonNullable<PreRegisteredClient['private_key']> });
}

/** A JWT assertion from elsewhere (an identity provider, a workload identity), exchanged for tokens (RFC 7523). */
export interface JwtBearerOptions extends OAuthClientCommon {
  grant: 'jwt-bearer';
  client: PreRegisteredClient;
  /** The assertion for one token request: the authorization server (issuer), the resource and the scopes it is for. */
  assertion: (request: { issuer: string; resource: string; scope?: string | undefined }) => string | Promise<string>;
}

export type OAuthClientOptions = AuthorizationCodeOptions | ClientCredentialsOptions | JwtBearerOptions;
