/**
 * The client's identity at one authorization server, in the order the spec's Client Registration page gives:
 * a pre-registered client, a Client ID Metadata Document (an https URL as `client_id`, when the server advertises
 * `client_id_metadata_document_supported`), a client registered earlier with that server, then dynamic client
 * registration (RFC 7591). Registrations are kept by issuer: a server that moved to another authorization server is
 * registered with anew, never shown the old one's credentials. And how the client authenticates at the token
 * endpoint: `none`, `client_secret_basic`, `client_secret_post` or `private_key_jwt`.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */
import {
  ClientSecretPost,
  dynamicClientRegistrationRequest,
  None,
  PrivateKeyJwt,
  processDynamicClientRegistrationResponse,
  ResponseBodyError,
  type AuthorizationServer,
  type Client,
  type ClientAuth,
  type CryptoKey,
  type PrivateKey,
} from 'oauth4webapi';
import { describe } from '../../core/peer-messages.js';
import { AuthorizationError } from './errors.js';
import { checkSecure, isLoopback, requestOptions, type OAuthHttp } from './http.js';
import type { AuthStore, StoredClient } from './store.js';

/** How the client authenticates at the token endpoint. */
export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/** A client registered with the authorization server beforehand (pre-registration), or a machine client. */
export interface PreRegisteredClient {
  client_id: string;
  client_secret?: string;
  /** `private_key_jwt`: the key client assertions are signed with (RFC 7523), e.g. an ES256 CryptoKey. */
  private_key?: CryptoKey | PrivateKey;
  /** Default: `private_key_jwt` with a key, else what the server supports for a secret, else `none`. */
  token_endpoint_auth_method?: TokenEndpointAuthMethod;
  /**
   * The authorization server (issuer) it was registered with. When the server names another one, authorizing
   * fails ('client-mismatch') rather than showing it these credentials. Left out, it is used with any.
   */
  issuer?: string;
}

/** Client metadata sent with dynamic registration (RFC 7591 §2); the flow fills in the rest. */
export interface RegistrationMetadata {
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  /** `native` for CLI tools, desktop apps and pages on localhost; `web` otherwise. Default: from the redirect URI. */
  application_type?: 'native' | 'web';
  [member: string]: unknown;
}

/** What the identity step needs to know of the client's settings. */
export interface IdentitySettings {
  client?: PreRegisteredClient | undefined;
  clientMetadataUrl?: string | undefined;
  registration?: RegistrationMetadata | undefined;
  /** Code flow: the redirect URI to register. */
  redirectUri?: string | undefined;
  /** The grant to register for. */
  grantTypes: string[];
}

/** The client at one authorization server, ready for the library's token requests. */
export interface ClientIdentity {
  client: Client;
  auth: ClientAuth;
}

/** Finds (or registers) the client's identity at `server`; a registration is stored only when it succeeded. */
export async function identityAt(
  http: OAuthHttp,
  store: AuthStore,
  server: AuthorizationServer,
  settings: IdentitySettings,
): Promise<ClientIdentity> {
  const preRegistered = settings.client;
  if (preRegistered !== undefined) {
    if (preRegistered.issuer !== undefined && preRegistered.issuer !== server.issuer) {
      throw new AuthorizationError(
        'client-mismatch',
        `client ${preRegistered.client_id} is registered with ${preRegistered.issuer}, and the server names ${server.issuer}`,
      );
    }
    return withAuth(preRegistered, server);
  }
  if (settings.clientMetadataUrl !== undefined && server['client_id_metadata_document_supported'] === true) {
    return { client: { client_id: settings.clientMetadataUrl }, auth: None() };
  }
  const stored = await store.get('client', server.issuer);
  if (stored !== undefined && fitsRedirect(stored, settings.redirectUri)) return withAuth(stored, server);
  if (server.registration_endpoint === undefined) {
    throw new AuthorizationError(
      'no-client',
      `authorization server ${server.issuer} offers no registration endpoint, and no client is registered with it: pass a pre-registered client`,
    );
  }
  const registered = await register(http, server, settings);
  await store.set('client', server.issuer, registered);
  return withAuth(registered, server);
}

/** The identity a pending authorization was started with (its `client_id`), for the token request. */
export async function identityFor(
  store: AuthStore,
  server: AuthorizationServer,
  clientId: string,
  settings: IdentitySettings,
): Promise<ClientIdentity> {
  if (settings.client?.client_id === clientId) return withAuth(settings.client, server);
  if (settings.clientMetadataUrl === clientId) return { client: { client_id: clientId }, auth: None() };
  const stored = await store.get('client', server.issuer);
  if (stored?.client_id === clientId) return withAuth(stored, server);
  throw new AuthorizationError('no-client', `client ${clientId} is no longer known for ${server.issuer}`);
}

/** Dynamic client registration (RFC 7591), asking for what the flow needs. */
async function register(
  http: OAuthHttp,
  server: AuthorizationServer,
  settings: IdentitySettings,
): Promise<StoredClient> {
  const endpoint = checkSecure(http, server.registration_endpoint ?? '', 'the registration endpoint');
  const redirect = settings.redirectUri;
  const metadata: Partial<Client> = {
    client_name: 'MCP client',
    redirect_uris: redirect === undefined ? [] : [redirect],
    grant_types: settings.grantTypes,
    response_types: settings.grantTypes.includes('authorization_code') ? ['code'] : [],
    token_endpoint_auth_method: methodToAsk(server),
    // The spec asks for it (OpenID servers otherwise take the client for a web one and refuse loopback URIs).
    application_type: redirect !== undefined && isWeb(redirect) ? 'web' : 'native',
    ...settings.registration,
  };
  try {
    const response = await dynamicClientRegistrationRequest(server, metadata, requestOptions(http, endpoint));
    const client = await processDynamicClientRegistrationResponse(await withSecretExpiry(response));
    const registered: StoredClient = { client_id: client.client_id };
    const secret = client['client_secret'];
    const method = client['token_endpoint_auth_method'];
    if (typeof secret === 'string') registered.client_secret = secret;
    if (typeof method === 'string') registered.token_endpoint_auth_method = method;
    if (Array.isArray(client['redirect_uris'])) registered.redirect_uris = client['redirect_uris'].map(String);
    else if (redirect !== undefined) registered.redirect_uris = [redirect];
    return registered;
  } catch (error) {
    const said =
      error instanceof ResponseBodyError
        ? `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`
        : describe(error);
    throw new AuthorizationError(
      'registration-refused',
      `authorization server ${server.issuer} refused to register the client (${said})`,
      error,
    );
  }
}

/**
 * RFC 7591 §3.2.1 asks for `client_secret_expires_at` with every secret, and the library refuses a response without
 * one; servers leave it out (the official conformance suite's among them). Missing, it is read as 0, which the RFC
 * defines as "does not expire"; everything else the library checks as it comes.
 */
async function withSecretExpiry(response: Response): Promise<Response> {
  if (response.status !== 201) return response;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return response;
  const fields = body as Record<string, unknown>;
  if (typeof fields['client_secret'] !== 'string' || fields['client_secret_expires_at'] !== undefined) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify({ ...fields, client_secret_expires_at: 0 }), { status: 201, headers });
}

/** `none` for a public client, where the server takes it (or says nothing); else a secret method it lists. */
function methodToAsk(server: AuthorizationServer): TokenEndpointAuthMethod {
  const supported = server.token_endpoint_auth_methods_supported;
  if (supported === undefined || supported.includes('none')) return 'none';
  return supported.includes('client_secret_post') && !supported.includes('client_secret_basic')
    ? 'client_secret_post'
    : 'client_secret_basic';
}

/** A registration serves a redirect URI it lists, or one that differs only in a loopback port (RFC 8252 §7.3). */
function fitsRedirect(client: StoredClient, redirect: string | undefined): boolean {
  if (redirect === undefined) return true;
  const wanted = new URL(redirect);
  return (client.redirect_uris ?? []).some((uri) => {
    const known = new URL(uri);
    if (known.href === wanted.href) return true;
    known.port = wanted.port;
    return isLoopback(wanted) && known.href === wanted.href;
  });
}

/** A redirect URI of a web application: https on a host that is not this machine. */
function isWeb(redirect: string): boolean {
  const url = new URL(redirect);
  return url.protocol === 'https:' && !isLoopback(url);
}

/** The client with the token endpoint authentication its credentials and the server call for. */
function withAuth(client: PreRegisteredClient | StoredClient, server: AuthorizationServer): ClientIdentity {
  const key = 'private_key' in client ? client.private_key : undefined;
  const secret = client.client_secret;
  const method = client.token_endpoint_auth_method ?? defaultMethod(server, key !== undefined, secret !== undefined);
  return { client: { client_id: client.client_id }, auth: authFor(method, secret, key) };
}

function defaultMethod(server: AuthorizationServer, key: boolean, secret: boolean): string {
  if (key) return 'private_key_jwt';
  if (!secret) return 'none';
  // RFC 8414 §2: a server that lists no methods supports client_secret_basic.
  const supported = server.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  return supported.includes('client_secret_post') && !supported.includes('client_secret_basic')
    ? 'client_secret_post'
    : 'client_secret_basic';
}

function authFor(method: string, secret: string | undefined, key: CryptoKey | PrivateKey | undefined): ClientAuth {
  switch (method) {
    case 'client_secret_basic':
      return clientSecretBasic(secret ?? '');
    case 'client_secret_post':
      return ClientSecretPost(secret ?? '');
    case 'private_key_jwt':
      if (key === undefined) throw new AuthorizationError('no-client', 'private_key_jwt needs the client.private_key');
      return PrivateKeyJwt(key);
    default:
      return None();
  }
}

/**
 * client_secret_basic (RFC 6749 §2.3.1): the id and secret form-encoded, as the WHATWG URL standard encodes forms.
 * The library encodes `-`, `_`, `.` and `*` too (%2D…), which a server decoding the form reads the same, and a server
 * that compares the raw value (the official conformance suite's, the SDK's peers) refuses: a UUID client id would
 * fail there. Both decode to the same credentials.
 */
function clientSecretBasic(secret: string): ClientAuth {
  const encode = (value: string): string => new URLSearchParams({ v: value }).toString().slice(2);
  return (_server, client, _body, headers) => {
    headers.set('authorization', `Basic ${btoa(`${encode(client.client_id)}:${encode(secret)}`)}`);
  };
}
