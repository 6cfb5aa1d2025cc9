/**
 * Issue 42, item 5: the official SDK v2 client (`@modelcontextprotocol/client` 2.4.0) with its own OAuth
 * support (`authProvider`, an `OAuthClientProvider` kept in memory) against a generated server's gate, with
 * oidc-provider as the authorization server: the SDK reads the 401's challenge, finds the protected-resource
 * metadata and the authorization server, registers itself (RFC 7591), sends the user to authorize with PKCE
 * and the resource indicator (`approve(url)` plays the browser), redeems the code, and calls the tool, whose
 * handler sees the user as `ctx.auth`. A tool that needs more scope is a 403 the SDK steps up from; a DPoP
 * session (the SDK's `dpop()`) gets a DPoP-bound token the gate checks proof by proof, nonces included.
 */
import {
  Client,
  DpopSession,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dpopProofs, jwtVerifier } from '@mcp-typegen/runtime/auth/server';
import { built, importBuilt, type Version } from '../client/helpers/build.js';
import { startAuthorizationServer, type AuthorizationServer } from '../helpers/authorization-server.js';
import { portFirst } from '../helpers/oauth-tokens.js';

type Json = Record<string, any>;
const REDIRECT = 'http://127.0.0.1:8/callback';
/** A public client registered up front, with no scope of its own: any scope the resources have. */
const PREREGISTERED = {
  client_id: 'sdk-preregistered',
  redirect_uris: [REDIRECT],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  application_type: 'native',
};
const VERSIONS: Version[] = ['2026-07-28', '2025-11-25'];

/** What an application keeps for the SDK: registration, tokens, the PKCE verifier; and where it sent the user. */
class MemoryProvider implements OAuthClientProvider {
  registered: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  verifier = '';
  discovered: OAuthDiscoveryState | undefined;
  sentTo: URL | undefined;
  readonly #dpop: DpopSession | undefined;

  constructor(dpop?: DpopSession) {
    this.#dpop = dpop;
  }
  get redirectUrl(): string {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'sdk-v2',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // oidc-provider lets a native application redirect to http on loopback.
      ...({ application_type: 'native' } as object),
    };
  }
  clientInformation() {
    return this.registered;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.registered = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.sentTo = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovered = state;
  }
  discoveryState() {
    return this.discovered;
  }
  dpop() {
    return this.#dpop;
  }
}

let as: AuthorizationServer;
const ports: Awaited<ReturnType<typeof portFirst>>[] = [];
const gen = new Map<Version, any>();
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  for (const v of VERSIONS) gen.set(v, await importBuilt(await built(v), 'index.js'));
  for (let i = 0; i < 2; i++) ports.push(await portFirst());
  as = await startAuthorizationServer({
    resources: Object.fromEntries(ports.map((p) => [`${p.origin}/mcp`, { scopes: ['mcp:read', 'mcp:write'] }])),
    // The SDK registers with the scope it will ask for: the server must know it as one of its own.
    scopesSupported: ['mcp:read', 'mcp:write'],
    clients: [PREREGISTERED as never],
  });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await Promise.all([as?.close(), ...ports.map((p) => p.close())]);
});

/** The generated server of `version` behind the gate on `port`: `whoami` answers ctx.auth, `write` needs mcp:write. */
function gated(version: Version, port: (typeof ports)[number], auth: Json = {}): string {
  const g = gen.get(version);
  const url = `${port.origin}/mcp`;
  const server = g.createServer(
    {
      'tools/list': () => ({
        tools: ['whoami', 'write'].map((name) => ({ name, inputSchema: { type: 'object' } })),
      }),
      'tools/call': (_params: Json, ctx: Json) => ({ content: [{ type: 'text', text: JSON.stringify(ctx.auth) }] }),
    },
    { serverInfo: { name: `gated-${version}`, version: '1' } },
  );
  const endpoint = g.createStreamableHttpServer({
    server,
    keepAliveMs: 0,
    auth: {
      resource: url,
      authorizationServers: [as.issuer],
      verifier: jwtVerifier({ issuer: as.issuer }),
      scopes: ['mcp:read'],
      toolScopes: { write: ['mcp:write'] },
      ...auth,
    },
  });
  port.serve(endpoint);
  cleanups.push(() => endpoint.close());
  return url;
}

const newClient = (version: Version) =>
  new Client(
    { name: 'sdk-v2-oauth', version: '1' },
    version === '2026-07-28'
      ? { supportedProtocolVersions: ['2026-07-28', '2025-11-25'], versionNegotiation: { mode: 'auto' } }
      : {},
  );

/** Connects as a user would: the first attempt sends them to authorize, the callback finishes it, then connect. */
async function authorizedClient(version: Version, url: string, provider: MemoryProvider): Promise<Client> {
  const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  await expect(newClient(version).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.sentTo).toBeDefined();
  const back = await as.approve(provider.sentTo!);
  await first.finishAuth(back.searchParams);
  const client = newClient(version);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  cleanups.push(() => client.close());
  return client;
}

const called = async (client: Client, name: string): Promise<Json> =>
  JSON.parse(((await client.callTool({ name, arguments: {} })) as Json).content[0].text);

describe.each(VERSIONS)('SDK v2 client with its authProvider → generated %s server behind the gate', (version) => {
  it('discovers, registers, authorizes with PKCE and the resource, and calls as the user', async () => {
    const url = gated(version, ports[0]!);
    const provider = new MemoryProvider();
    const client = await authorizedClient(version, url, provider);
    // What the SDK asked for: the scope of the challenge (and offline_access, which the server offers), the
    // resource of the metadata, S256.
    const asked = provider.sentTo!.searchParams;
    expect(asked.get('resource')).toBe(url);
    expect(asked.get('scope')).toBe('mcp:read offline_access');
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(as.requests).toContain('POST /reg');
    const auth = await called(client, 'whoami');
    expect(auth).toMatchObject({
      subject: 'user-1',
      clientId: provider.registered?.client_id,
      scopes: ['mcp:read'],
      audience: [url],
      issuer: as.issuer,
    });
  });

  it('steps up on 403 insufficient_scope: authorizes again for the wider scope, then the call passes', async () => {
    const url = gated(version, ports[0]!);
    // Pre-registered: a registration names the scopes it may ever ask (the SDK registers with the first
    // challenge's), and oidc-provider holds a client to them.
    const provider = new MemoryProvider();
    provider.registered = { client_id: PREREGISTERED.client_id };
    const client = await authorizedClient(version, url, provider);
    provider.sentTo = undefined;
    await expect(client.callTool({ name: 'write', arguments: {} })).rejects.toThrow();
    expect(provider.sentTo).toBeDefined();
    expect(provider.sentTo!.searchParams.get('scope')?.split(' ').sort()).toEqual([
      'mcp:read',
      'mcp:write',
      'offline_access',
    ]);
    const back = await as.approve(provider.sentTo!);
    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    await transport.finishAuth(back.searchParams);
    const wider = newClient(version);
    await wider.connect(transport);
    cleanups.push(() => wider.close());
    expect((await called(wider, 'write')).scopes).toEqual(['mcp:read', 'mcp:write']);
  });

  it('with a DPoP session: a DPoP-bound token, a proof per request, the server nonce taken up', async () => {
    const url = gated(version, ports[1]!, { dpop: dpopProofs({ nonce: true }) });
    const session = await DpopSession.create();
    const provider = new MemoryProvider(session);
    const client = await authorizedClient(version, url, provider);
    expect(provider.saved?.token_type?.toLowerCase()).toBe('dpop');
    const auth = await called(client, 'whoami');
    expect(auth.claims.cnf).toEqual({ jkt: session.thumbprint });
    expect((await called(client, 'whoami')).subject).toBe('user-1');
  });
});
