/**
 * The OAuth 2.1 client of an MCP client, as the spec's Authorization chapter describes it, on oauth4webapi: the
 * HTTP transports' `auth` option (`oauthClient({ … })`). A request the server refuses with 401 (or 403
 * `insufficient_scope`) runs discovery (metadata.ts), finds the client's identity (identity.ts), gets tokens (the
 * code flow with the user, authorization.ts; or a machine grant; grants.ts), and is sent again with them. Every
 * request carries the token (with a DPoP proof where the token is bound); an expired one is refreshed first.
 *
 * The one interactive step is the caller's: `redirect(url)` sends the user to the authorization server, and the
 * URL the browser comes back to is handed back (its return value, or `finishAuthorization(url)`).
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */
import {
  customFetch,
  DPoP,
  generateKeyPair,
  protectedResourceRequest,
  WWWAuthenticateChallengeError,
  type AuthorizationServer,
  type DPoPHandle,
  type ProtectedResourceRequestBody,
} from 'oauth4webapi';
import { authorizationRequest, checkedCallback } from './authorization.js';
import { AuthorizationError } from './errors.js';
import { requestTokens, type TokenRequest } from './grants.js';
import type { HttpClientAuth } from './hook.js';
import { checkSecure, refusalOf, requestOptions, type Challenge, type OAuthHttp } from './http.js';
import { identityAt, identityFor, type IdentitySettings } from './identity.js';
import { canonicalResource, discover, findServerMetadata, type Discovered } from './metadata.js';
import type { AuthorizationCodeOptions, OAuthClientOptions } from './options.js';
import { memoryStore, type AuthStore, type StoredTokens } from './store.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Tokens this close to expiry are refreshed before use rather than sent to be refused. */
const EXPIRY_MARGIN_MS = 30_000;

type DPoPKey = { handle: DPoPHandle; jkt: string };

/** The OAuth client: pass it as the `auth` option of an HTTP client transport. */
export function oauthClient(options: OAuthClientOptions): OAuthClient {
  return new OAuthClient(options);
}

export class OAuthClient implements HttpClientAuth {
  readonly #options: OAuthClientOptions;
  readonly #store: AuthStore;
  readonly #http: OAuthHttp;
  readonly #identity: IdentitySettings;
  /** The authorization (or refresh) running for a server: requests refused meanwhile wait for it. */
  readonly #flows = new Map<string, Promise<void>>();
  /** Authorizations waiting for the user, by `state`. */
  readonly #waiting = new Map<string, { resolve(): void; reject(error: unknown): void }>();
  #dpop: Promise<DPoPKey> | undefined;

  constructor(options: OAuthClientOptions) {
    this.#options = options;
    this.#store = options.store ?? memoryStore();
    const fetchImpl = options.fetch ?? fetch;
    this.#http = {
      fetch: (input, init) => fetchImpl(input, init),
      allowInsecureHttp: options.allowInsecureHttp === true,
    };
    this.#identity = identitySettings(options);
  }

  fetch(fetchImpl: typeof fetch, server: URL): typeof fetch {
    const target = new URL(canonicalResource(server));
    return (input, init) => this.#send(fetchImpl, target, input, init);
  }

  /**
   * Finishes the authorization the browser came back from: `callbackUrl` is the redirect URI with the server's
   * answer. Its `iss` and `state` are checked, the code exchanged, the tokens stored; a request waiting for them
   * goes on. Throws an AuthorizationError (and stores nothing) when the answer is refused.
   */
  async finishAuthorization(callbackUrl: string | URL): Promise<void> {
    const callback = new URL(callbackUrl);
    const state = callback.searchParams.get('state');
    if (state === null || (await this.#store.get('pending', state)) === undefined) {
      throw new AuthorizationError(
        'state-mismatch',
        'the authorization response carries a state no authorization of this client is waiting for: refused',
      );
    }
    return this.#finish(callback, state);
  }

  /** One request through the transport's fetch: with the token, and again after authorizing when refused. */
  async #send(
    fetchImpl: typeof fetch,
    target: URL,
    input: string | URL | Request,
    init?: RequestInit,
  ): Promise<Response> {
    const method = (init?.method ?? 'GET').toUpperCase();
    const most = this.#options.maxAuthorizations ?? 2;
    let authorizations = 0;
    let nonceSent = false;
    for (;;) {
      const tokens = await this.#usableTokens(target);
      const { response, thrown } = await this.#attempt(fetchImpl, input, init, method, tokens);
      // A DELETE ends a session: it never sends the user to authorize.
      const challenge = method === 'DELETE' ? undefined : await refusalOf(response, thrown);
      if (challenge === undefined) return response;
      if (challenge.dpopNonce && tokens?.dpop_jkt !== undefined && !nonceSent) {
        nonceSent = true; // the DPoP handle holds the server's nonce now (RFC 9449 §9)
        await discard(response);
        continue;
      }
      if (authorizations >= most || !worthAsking(challenge, response.status, tokens)) return response;
      authorizations++;
      await discard(response);
      await abortable(this.#authorizeOnce(target, challenge, tokens, response.status), init?.signal);
    }
  }

  /** The request as it is (no token yet), or with the token (and its DPoP proof) through the library. */
  async #attempt(
    fetchImpl: typeof fetch,
    input: string | URL | Request,
    init: RequestInit | undefined,
    method: string,
    tokens: StoredTokens | undefined,
  ): Promise<{ response: Response; thrown?: unknown }> {
    if (tokens === undefined) return { response: await fetchImpl(input, init) };
    const url = checkSecure(this.#http, input instanceof Request ? input.url : input, 'the MCP server');
    const headers = new Headers(init?.headers);
    // The token is this option's: an Authorization header of the transport's `headers` option gives way.
    headers.delete('authorization');
    const dpop = tokens.dpop_jkt === undefined ? {} : { DPoP: (await this.#dpopKey()).handle };
    try {
      const response = await protectedResourceRequest(
        tokens.access_token,
        method,
        url,
        headers,
        (init?.body ?? undefined) as ProtectedResourceRequestBody,
        {
          ...requestOptions(this.#http, url),
          ...dpop,
          // The transport's fetch, and its redirect handling (the library's own is manual).
          [customFetch]: (href, options) =>
            fetchImpl(href, { ...(options as RequestInit), redirect: init?.redirect ?? 'follow' }),
          ...(init?.signal ? { signal: init.signal } : {}),
        },
      );
      return { response };
    } catch (error) {
      if (error instanceof WWWAuthenticateChallengeError) return { response: error.response, thrown: error };
      throw error;
    }
  }

  /** The server's tokens, refreshed first when they are about to expire; undefined when there are none to send. */
  async #usableTokens(target: URL): Promise<StoredTokens | undefined> {
    const tokens = await this.#store.get('tokens', target.href);
    if (tokens === undefined) return undefined;
    // Bound to a DPoP key this client no longer has (another process): useless.
    if (tokens.dpop_jkt !== undefined && tokens.dpop_jkt !== (await this.#dpopKey()).jkt) return undefined;
    if (tokens.expires_at === undefined || tokens.expires_at - EXPIRY_MARGIN_MS > Date.now()) return tokens;
    if (tokens.refresh_token === undefined) return tokens;
    await this.#shared(target, () => this.#refresh(target, tokens, undefined).then(() => undefined));
    return this.#store.get('tokens', target.href);
  }

  /** A refresh; the new tokens stored and returned, or undefined (a refused refresh token is forgotten). */
  async #refresh(target: URL, tokens: StoredTokens, known: AuthorizationServer | undefined): Promise<boolean> {
    const refreshToken = tokens.refresh_token;
    if (refreshToken === undefined) return false;
    try {
      const server = known ?? (await findServerMetadata(this.#http, tokens.issuer));
      if (server === undefined) return false;
      const identity = await identityFor(this.#store, server, tokens.client_id, this.#identity);
      const dpop = tokens.dpop_jkt === undefined ? undefined : await this.#dpopKey();
      const request: TokenRequest = { server, identity, resource: tokens.resource, dpop };
      const fresh = await requestTokens(this.#http, request, { type: 'refresh_token', refreshToken });
      if (fresh.requested_scope === undefined && tokens.requested_scope !== undefined)
        fresh.requested_scope = tokens.requested_scope;
      await this.#store.set('tokens', target.href, fresh);
      return true;
    } catch (error) {
      if (error instanceof AuthorizationError && error.reason === 'token-refused') {
        await this.#store.set('tokens', target.href, undefined);
      }
      return false;
    }
  }

  /** One authorization per server at a time: a request refused meanwhile waits for the one running. */
  #authorizeOnce(target: URL, challenge: Challenge, previous: StoredTokens | undefined, status: number): Promise<void> {
    return this.#shared(target, () => this.#authorize(target, challenge, previous, status));
  }

  #shared(target: URL, run: () => Promise<void>): Promise<void> {
    const running = this.#flows.get(target.href);
    if (running !== undefined) return running;
    const flow = run().finally(() => this.#flows.delete(target.href));
    this.#flows.set(target.href, flow);
    return flow;
  }

  /** Discovery, then a refresh where it can do, else the grant: the tokens end up in the store. */
  async #authorize(
    target: URL,
    challenge: Challenge,
    previous: StoredTokens | undefined,
    status: number,
  ): Promise<void> {
    const found = await discover(this.#http, target, challenge.resourceMetadata, this.#options.client?.issuer);
    // A 401 to a token of the same authorization server: a new access token may be all it takes.
    if (
      status === 401 &&
      previous?.issuer === found.server.issuer &&
      (await this.#refresh(target, previous, found.server))
    )
      return;
    const want =
      this.#options.dpop ??
      (challenge.scheme === 'dpop' || found.resourceMetadata?.dpop_bound_access_tokens_required === true);
    const dpop = want === false ? undefined : await this.#dpopKey();
    const scope = this.#scope(challenge, found, previous);
    const options = this.#options;
    if (options.grant === undefined || options.grant === 'authorization_code') {
      return this.#codeFlow(options, target, found, scope, dpop);
    }
    checkSecure(this.#http, found.server.token_endpoint ?? '', 'the token endpoint');
    const identity = await identityAt(this.#http, this.#store, found.server, this.#identity);
    const request: TokenRequest = { server: found.server, identity, resource: found.resource, scope, dpop };
    const tokens =
      options.grant === 'jwt-bearer'
        ? await requestTokens(this.#http, request, {
            type: 'assertion',
            grantType: JWT_BEARER,
            assertion: await options.assertion({ issuer: found.server.issuer, resource: found.resource, scope }),
          })
        : await requestTokens(this.#http, request, { type: 'client_credentials' });
    await this.#store.set('tokens', target.href, tokens);
  }

  /**
   * The spec's scope selection: the challenge's `scope`, else the metadata's `scopes_supported`, else the `scope`
   * option, else none; joined with those asked for before (a step-up keeps what was granted); `offline_access`
   * added for the code flow where the authorization server lists it.
   */
  #scope(challenge: Challenge, found: Discovered, previous: StoredTokens | undefined): string | undefined {
    const supported = found.resourceMetadata?.scopes_supported;
    const asked = challenge.scope ?? (supported?.length ? supported.join(' ') : this.#options.scope);
    // offline_access is the client's own wish, not the server's requirement: added again (last) below.
    const before = words(previous?.requested_scope).filter((scope) => scope !== 'offline_access');
    const scopes = new Set([...before, ...words(asked)]);
    const code = this.#options.grant === undefined || this.#options.grant === 'authorization_code';
    const offline = code && (this.#options as AuthorizationCodeOptions).offlineAccess !== false;
    if (offline && scopes.size > 0 && found.server.scopes_supported?.includes('offline_access'))
      scopes.add('offline_access');
    return scopes.size > 0 ? [...scopes].join(' ') : undefined;
  }

  /** The user's part: the authorization request goes to `redirect`, and the flow waits for the callback. */
  async #codeFlow(
    options: AuthorizationCodeOptions,
    target: URL,
    found: Discovered,
    scope: string | undefined,
    dpop: DPoPKey | undefined,
  ): Promise<void> {
    const server = found.server;
    // 2025-03-26's default endpoints come with no metadata to tell; everywhere else S256 must be advertised.
    if (!found.defaults && !server.code_challenge_methods_supported?.includes('S256')) {
      throw new AuthorizationError(
        'pkce-unsupported',
        `authorization server ${server.issuer} does not advertise PKCE with S256: refused`,
      );
    }
    const endpoint = checkSecure(this.#http, server.authorization_endpoint ?? '', 'the authorization endpoint');
    checkSecure(this.#http, server.token_endpoint ?? '', 'the token endpoint');
    const identity = await identityAt(this.#http, this.#store, server, this.#identity);
    const redirectUri = new URL(options.redirectUri).href;
    const { url, pending } = await authorizationRequest({
      endpoint,
      server,
      clientId: identity.client.client_id,
      redirectUri,
      target: target.href,
      resource: found.resource,
      scope,
      dpopJkt: dpop?.jkt,
    });
    await this.#store.set('pending', pending.state, pending);
    const waiting = this.#waitFor(pending.state, options.authorizationTimeoutMs ?? 600_000);
    try {
      const back = await options.redirect(url);
      if (back !== undefined) await this.#finish(new URL(back), pending.state);
    } catch (error) {
      this.#waiting.get(pending.state)?.reject(error);
      await this.#store.set('pending', pending.state, undefined);
    }
    return waiting;
  }

  /** Settles when the authorization `state` is finished (or refused, or times out). */
  #waitFor(state: string, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting
          .get(state)
          ?.reject(
            new AuthorizationError(
              'authorization-timeout',
              `no answer from the authorization server within ${timeoutMs} ms`,
            ),
          );
        void this.#store.set('pending', state, undefined);
      }, timeoutMs);
      // Node: a waiting authorization keeps no process alive.
      (timer as { unref?: () => void }).unref?.();
      const done = (): void => {
        clearTimeout(timer);
        this.#waiting.delete(state);
      };
      this.#waiting.set(state, {
        resolve: () => (done(), resolve()),
        reject: (error) => (done(), reject(error)),
      });
    });
  }

  /** The callback of authorization `state`: checked, exchanged for tokens, stored; its waiter told either way. */
  async #finish(callback: URL, state: string): Promise<void> {
    const waiter = this.#waiting.get(state);
    try {
      const pending = await this.#store.get('pending', state);
      if (pending === undefined)
        throw new AuthorizationError('state-mismatch', 'the authorization is no longer pending');
      await this.#store.set('pending', state, undefined);
      const server = pending.metadata as AuthorizationServer;
      const identity = await identityFor(this.#store, server, pending.client_id, this.#identity);
      const parameters = checkedCallback(server, identity.client, callback, state);
      const dpop = pending.dpop ? await this.#dpopKey() : undefined;
      const request: TokenRequest = { server, identity, resource: pending.resource, scope: pending.scope, dpop };
      const tokens = await requestTokens(this.#http, request, {
        type: 'authorization_code',
        callback: parameters,
        redirectUri: pending.redirect_uri,
        codeVerifier: pending.code_verifier,
      });
      await this.#store.set('tokens', pending.server, tokens);
      waiter?.resolve();
    } catch (error) {
      waiter?.reject(error);
      throw error;
    }
  }

  /** The client's DPoP key (the option's, or a fresh ES256 pair) and its thumbprint. */
  #dpopKey(): Promise<DPoPKey> {
    this.#dpop ??= (async () => {
      const option = this.#options.dpop;
      const keys = typeof option === 'object' ? option : await generateKeyPair('ES256');
      const handle = DPoP({}, keys);
      return { handle, jkt: await handle.calculateThumbprint() };
    })();
    return this.#dpop;
  }
}

/** What the identity step needs of the options (code-flow settings only for the code flow). */
function identitySettings(options: OAuthClientOptions): IdentitySettings {
  if (options.grant === 'client_credentials' || options.grant === 'jwt-bearer') {
    return { client: options.client, grantTypes: [options.grant === 'jwt-bearer' ? JWT_BEARER : options.grant] };
  }
  checkCodeOptions(options);
  return {
    client: options.client,
    clientMetadataUrl: options.clientMetadataUrl,
    registration: options.registration,
    redirectUri: new URL(options.redirectUri).href,
    grantTypes: ['authorization_code', 'refresh_token'],
  };
}

/** A 401 is always worth authorizing for; a 403 only when it asks for a scope not asked for already. */
function worthAsking(challenge: Challenge, status: number, tokens: StoredTokens | undefined): boolean {
  if (status === 401) return true;
  const known = new Set([...words(tokens?.requested_scope), ...words(tokens?.scope)]);
  return words(challenge.scope).some((scope) => !known.has(scope));
}

function words(scope: string | undefined): string[] {
  return scope === undefined ? [] : scope.split(' ').filter((word) => word !== '');
}

/** Waits for `flow`, or stops waiting (the flow goes on) when the request is aborted. */
function abortable(flow: Promise<void>, signal: AbortSignal | null | undefined): Promise<void> {
  if (!signal) return flow;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    flow.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function discard(response: Response): Promise<unknown> {
  return response.body?.cancel().catch(() => undefined) ?? Promise.resolve();
}

/** The code flow's options, checked where TypeScript cannot (a JavaScript caller). */
function checkCodeOptions(options: AuthorizationCodeOptions): void {
  if (options.redirectUri === undefined || typeof options.redirect !== 'function') {
    throw new TypeError('oauthClient: the authorization code flow needs redirectUri and redirect');
  }
  if (options.clientMetadataUrl !== undefined) {
    const url = new URL(options.clientMetadataUrl);
    if (url.protocol !== 'https:' || url.pathname === '/') {
      throw new TypeError('oauthClient: clientMetadataUrl must be an https URL with a path');
    }
  }
}
