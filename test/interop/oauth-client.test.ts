/**
 * The generated client with `auth: oauthClient(…)` (@mcp-typegen/runtime/auth) against the official SDK v2 server
 * behind its `requireBearerAuth` (test/helpers/protected-server.ts), tokens from a real authorization server
 * (oidc-provider, test/helpers/authorization-server.ts), everything in-process on loopback: dynamic registration,
 * the code flow with PKCE S256 and the RFC 8707 resource, a refresh (of a refused token, and of one about to
 * expire), a step-up on 403 `insufficient_scope`, and a DPoP-bound token — for a 2026-07-28 client and a
 * 2025-11-25 one.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SseLegacyClientTransport, sseFallback } from '@mcp-typegen/runtime';
import { memoryStore, oauthClient, type AuthStore } from '@mcp-typegen/runtime/auth';
import { built, importBuilt, type Version } from '../client/helpers/build.js';
import { startAuthorizationServer, type AuthorizationServer } from '../helpers/authorization-server.js';
import { startProtectedServer, startProtectedSseServer, type ProtectedServer } from '../helpers/protected-server.js';

const REDIRECT = 'http://127.0.0.1:8976/callback';
const VERSIONS: Version[] = ['2026-07-28', '2025-11-25'];

let as: AuthorizationServer;
let bearer: ProtectedServer;
let dpop: ProtectedServer;
let sse: ProtectedServer;
const gen = new Map<Version, any>();
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  for (const v of VERSIONS) gen.set(v, await importBuilt(await built(v), 'index.js'));
  bearer = await startProtectedServer({ issuer: () => as.issuer });
  dpop = await startProtectedServer({ issuer: () => as.issuer, dpop: true });
  sse = await startProtectedSseServer({ issuer: () => as.issuer });
  as = await startAuthorizationServer({
    resources: {
      [bearer.url]: { scopes: ['mcp:read', 'mcp:write'] },
      [dpop.url]: { scopes: ['mcp:read'] },
      [sse.url]: { scopes: ['mcp:read'] },
    },
  });
});
afterAll(async () => {
  await bearer?.close();
  await dpop?.close();
  await sse?.close();
  await as?.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The token endpoint requests the flow made, by grant type, from the bodies it sent. */
function recordingFetch(grants: string[]): typeof fetch {
  return async (input, init) => {
    if (init?.body instanceof URLSearchParams) grants.push(init.body.get('grant_type') ?? '');
    return fetch(input, init);
  };
}

/** The OAuth client; the user (the helper's `approve`) says yes to every authorization request. */
function userAuth(store: AuthStore, seen: URL[] = [], grants: string[] = []) {
  return oauthClient({
    redirectUri: REDIRECT,
    redirect: (authorizationUrl) => {
      seen.push(authorizationUrl);
      return as.approve(authorizationUrl);
    },
    registration: { client_name: 'oauth-client test' },
    store,
    fetch: recordingFetch(grants),
  });
}

/** A generated client of `version` with the OAuth client on Streamable HTTP. */
function connectTo(version: Version, url: string, store: AuthStore, seen: URL[] = [], grants: string[] = []) {
  const g = gen.get(version);
  const auth = userAuth(store, seen, grants);
  const client = g.createClient(new g.StreamableHttpClientTransport(url, { auth }), {
    clientInfo: { name: 'generated', version: '1' },
    eraCache: new Map(),
  });
  cleanups.push(() => client.close());
  return client;
}

const text = (result: any): string => result.content.map((c: any) => c.text).join('');

describe.each(VERSIONS)('generated %s client, oauthClient, SDK v2 server behind requireBearerAuth', (version) => {
  it('registers, authorizes with PKCE S256 and the resource, then calls with the token', async () => {
    const store = memoryStore();
    const seen: URL[] = [];
    const client = connectTo(version, bearer.url, store, seen);
    await client.connect();
    expect(client.protocolVersion).toBe(version);
    expect(text(await client.tools.call({ name: 'read', arguments: {} }))).toMatch(/^read as /);

    expect(seen).toHaveLength(1);
    const asked = seen[0]!.searchParams;
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(asked.get('resource')).toBe(bearer.url);
    expect(asked.get('scope')).toBe('mcp:read offline_access');
    expect(asked.get('redirect_uri')).toBe(REDIRECT);
    const tokens = await store.get('tokens', bearer.url);
    expect(tokens).toMatchObject({ token_type: 'bearer', issuer: as.issuer, resource: bearer.url });
    expect(tokens?.refresh_token).toBeTruthy();
    const registration = await store.get('client', as.issuer);
    expect(registration?.client_id).toBe(asked.get('client_id'));
    expect(as.requests).toContain('POST /reg');
  });

  it('refreshes a token the server no longer takes, without asking the user again', async () => {
    const store = memoryStore();
    const seen: URL[] = [];
    const grants: string[] = [];
    const client = connectTo(version, bearer.url, store, seen, grants);
    await client.connect();
    const first = await store.get('tokens', bearer.url);
    bearer.revoked.add(first!.access_token);
    expect(text(await client.tools.call({ name: 'read', arguments: {} }))).toMatch(/^read as /);
    expect(seen).toHaveLength(1);
    expect(grants).toEqual(['authorization_code', 'refresh_token']);
    const second = await store.get('tokens', bearer.url);
    expect(second?.access_token).not.toBe(first?.access_token);
  });

  it('refreshes a token about to expire before sending it', async () => {
    const store = memoryStore();
    const grants: string[] = [];
    const client = connectTo(version, bearer.url, store, [], grants);
    await client.connect();
    const first = await store.get('tokens', bearer.url);
    await store.set('tokens', bearer.url, { ...first!, expires_at: Date.now() - 1 });
    const before = bearer.presented.length;
    expect(text(await client.tools.call({ name: 'read', arguments: {} }))).toMatch(/^read as /);
    expect(grants).toEqual(['authorization_code', 'refresh_token']);
    const second = await store.get('tokens', bearer.url);
    // The expired token was never sent again: the call went with the new one at once.
    expect(bearer.presented.slice(before)).toEqual([second?.access_token]);
    expect(second?.expires_at).toBeGreaterThan(Date.now());
  });

  it('steps up on 403 insufficient_scope with the union of the scopes, once', async () => {
    const store = memoryStore();
    const seen: URL[] = [];
    const client = connectTo(version, bearer.url, store, seen);
    await client.connect();
    expect(text(await client.tools.call({ name: 'write', arguments: {} }))).toMatch(/^write as /);
    expect(seen.map((url) => url.searchParams.get('scope'))).toEqual([
      'mcp:read offline_access',
      'mcp:read mcp:write offline_access',
    ]);
    expect((await store.get('tokens', bearer.url))?.scope?.split(' ')).toContain('mcp:write');
  });

  it('gets a DPoP-bound token where the server asks for one, and proves possession on every request', async () => {
    const store = memoryStore();
    const client = connectTo(version, dpop.url, store);
    await client.connect();
    expect(text(await client.tools.call({ name: 'read', arguments: {} }))).toMatch(/^read as /);
    const tokens = await store.get('tokens', dpop.url);
    expect(tokens?.token_type).toBe('dpop');
    expect(tokens?.dpop_jkt).toMatch(/^[\w-]{43}$/);
    expect(dpop.schemes.length).toBeGreaterThan(0);
    expect(new Set(dpop.schemes)).toEqual(new Set(['DPoP']));
  });
});

describe('HTTP+SSE (2024-11-05) behind the same authorization: the SDK v1 SSEServerTransport', () => {
  const transports: Record<string, (store: AuthStore) => unknown> = {
    SseLegacyClientTransport: (store) => new SseLegacyClientTransport(sse.url, { auth: userAuth(store) }),
    'StreamableHttpClientTransport falling back': (store) =>
      new (gen.get('2025-11-25').StreamableHttpClientTransport)(sse.url, {
        auth: userAuth(store),
        legacySse: sseFallback({ cache: new Set() }),
      }),
  };

  it.each(Object.keys(transports))('%s: the stream and the POSTs carry the token', async (name) => {
    const store = memoryStore();
    const g = gen.get('2025-11-25');
    const client = g.createClient(transports[name]!(store), { clientInfo: { name: 'generated', version: '1' } });
    cleanups.push(() => client.close());
    const before = sse.schemes.length;
    await client.connect();
    expect(text(await client.tools.call({ name: 'read', arguments: {} }))).toBe('read');
    expect((await store.get('tokens', sse.url))?.resource).toBe(sse.url);
    // The GET of the stream, initialize, notifications/initialized, tools/call: each with the token; falling back,
    // the POST that met the 405 of an HTTP+SSE-only server carried it first.
    const requests = name.startsWith('Streamable') ? 5 : 4;
    expect(sse.schemes.slice(before)).toEqual(Array(requests).fill('Bearer'));
  });
});
