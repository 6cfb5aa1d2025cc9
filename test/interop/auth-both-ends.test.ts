/**
 * Issue 42 end to end, both halves of this repository: the generated client with `auth: oauthClient(…)`
 * (@mcp-typegen/runtime/auth) against a generated server behind its gate (`auth` with jwtVerifier, and
 * dpopProofs), tokens from oidc-provider (test/helpers/authorization-server.ts). The user's way (discovery
 * from the gate's challenge and metadata, registration, the code flow with PKCE and the resource, a step-up on
 * the gate's 403) and the machine's (client credentials, DPoP-bound, with the gate's nonces); the handler sees
 * each caller as ctx.auth. For a 2026-07-28 and a 2025-11-25 pair.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memoryStore, oauthClient } from '@mcp-typegen/runtime/auth';
import { dpopProofs, jwtVerifier } from '@mcp-typegen/runtime/auth/server';
import { built, importBuilt, type Version } from '../client/helpers/build.js';
import { startAuthorizationServer, type AuthorizationServer } from '../helpers/authorization-server.js';
import { machineClient, portFirst } from '../helpers/oauth-tokens.js';

type Json = Record<string, any>;
const VERSIONS: Version[] = ['2026-07-28', '2025-11-25'];
const REDIRECT = 'http://127.0.0.1:8977/callback';
const machine = machineClient('machine');

let as: AuthorizationServer;
const ports: Awaited<ReturnType<typeof portFirst>>[] = [];
const gen = new Map<Version, any>();
const cleanups: Array<() => Promise<void> | void> = [];
const urlOf = (i: number): string => `${ports[i]!.origin}/mcp`;

beforeAll(async () => {
  for (const v of VERSIONS) gen.set(v, await importBuilt(await built(v), 'index.js'));
  for (let i = 0; i < 2; i++) ports.push(await portFirst());
  as = await startAuthorizationServer({
    resources: Object.fromEntries([0, 1].map((i) => [urlOf(i), { scopes: ['mcp:read', 'mcp:write'] }])),
    clients: [machine],
  });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await Promise.all([as?.close(), ...ports.map((p) => p.close())]);
});

/** The generated server of `version` behind the gate on port `i`: every request needs mcp:read, `write` mcp:write. */
function gated(version: Version, i: number, auth: Json = {}): void {
  const g = gen.get(version);
  const server = g.createServer(
    {
      'tools/list': () => ({ tools: ['whoami', 'write'].map((name) => ({ name, inputSchema: { type: 'object' } })) }),
      'tools/call': (_params: Json, ctx: Json) => ({ content: [{ type: 'text', text: JSON.stringify(ctx.auth) }] }),
    },
    { serverInfo: { name: `gated-${version}`, version: '1' } },
  );
  const endpoint = g.createStreamableHttpServer({
    server,
    keepAliveMs: 0,
    auth: {
      resource: urlOf(i),
      authorizationServers: [as.issuer],
      verifier: jwtVerifier({ issuer: as.issuer }),
      scopes: ['mcp:read'],
      toolScopes: { write: ['mcp:write'] },
      ...auth,
    },
  });
  ports[i]!.serve(endpoint);
  cleanups.push(() => endpoint.close());
}

async function connected(version: Version, i: number, auth: unknown) {
  const g = gen.get(version);
  const client = g.createClient(new g.StreamableHttpClientTransport(urlOf(i), { auth }), {
    clientInfo: { name: 'both-ends', version: '1' },
    eraCache: new Map(),
  });
  await client.connect();
  cleanups.push(() => client.close());
  return client;
}

const called = async (client: any, name: string): Promise<Json> =>
  JSON.parse((await client.tools.call({ name, arguments: {} })).content[0].text);

describe.each(VERSIONS)('generated %s client with oauthClient → generated server behind the gate', (version) => {
  it('a user: registration, the code flow with PKCE and the resource, then a step-up on 403', async () => {
    gated(version, 0);
    const asked: URL[] = [];
    const auth = oauthClient({
      redirectUri: REDIRECT,
      redirect: (url) => (asked.push(url), as.approve(url)),
      registration: { client_name: 'both ends' },
      store: memoryStore(),
    });
    const client = await connected(version, 0, auth);
    const user = await called(client, 'whoami');
    expect(user).toMatchObject({ subject: 'user-1', scopes: ['mcp:read'], audience: [urlOf(0)], issuer: as.issuer });
    expect(asked[0]?.searchParams.get('resource')).toBe(urlOf(0));
    expect(asked[0]?.searchParams.get('code_challenge_method')).toBe('S256');
    // `write` needs mcp:write: the gate's 403 names it, the client authorizes again for both, and the call passes.
    const wider = await called(client, 'write');
    expect(wider.scopes).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
    expect(asked).toHaveLength(2);
    expect(asked[1]?.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
  });

  it('a machine: client credentials, DPoP-bound, the gate checking a proof per request with nonces', async () => {
    gated(version, 1, { dpop: dpopProofs({ nonce: true }) });
    const auth = oauthClient({
      grant: 'client_credentials',
      client: { client_id: machine.client_id, client_secret: machine.client_secret },
      dpop: true,
      store: memoryStore(),
    });
    const client = await connected(version, 1, auth);
    const first = await called(client, 'whoami');
    expect(first).toMatchObject({ subject: 'machine', clientId: 'machine', audience: [urlOf(1)] });
    expect(first.claims.cnf.jkt).toMatch(/^[\w-]{43}$/);
    expect((await called(client, 'whoami')).claims.cnf).toEqual(first.claims.cnf);
  });
});
