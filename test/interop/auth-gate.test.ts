/**
 * Issue 42, item 3: a generated server's resource-server gate (`createStreamableHttpServer({ server, auth })`)
 * against a real authorization server (oidc-provider, test/helpers/authorization-server.ts), for a 2026-07-28
 * and a 2025-11-25 server. Tokens come from the authorization server as clients get them (client
 * credentials, JWT or opaque, DPoP-bound or not); the generated client makes the calls that should pass, raw
 * requests the ones that should not. Checked: the protected-resource metadata, the 401 / 400 / 403
 * challenges, JWT verification (audience, issuer, expiry), introspection, DPoP proofs and nonces, the token
 * cache, `ctx.auth`, and that no token reaches a log, an answer or a handler.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dpopProofs, introspectionVerifier, jwtVerifier } from '@mcp-typegen/runtime/auth/server';
import { built, importBuilt, type Version } from '../client/helpers/build.js';
import { startAuthorizationServer, type AuthorizationServer } from '../helpers/authorization-server.js';
import { clientCredentials, dpopKey, dpopProof, machineClient, portFirst } from '../helpers/oauth-tokens.js';

type Json = Record<string, any>;
type Port = Awaited<ReturnType<typeof portFirst>>;
const VERSIONS: Version[] = ['2026-07-28', '2025-11-25'];
const machine = machineClient('machine');
const reader = machineClient('reader');
/** The resource server's own client at the authorization server, for introspection. */
const rs = machineClient('resource-server');

const gen = new Map<Version, any>();
const ports: Record<'main' | 'short' | 'opaque', Port> = {} as never;
let as: AuthorizationServer;
/** Another authorization server that issues tokens for the same resource: its tokens are not trusted. */
let stranger: AuthorizationServer;
const resource = (port: Port): string => `${port.origin}/mcp`;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  for (const v of VERSIONS) gen.set(v, await importBuilt(await built(v), 'index.js'));
  for (const name of ['main', 'short', 'opaque'] as const) ports[name] = await portFirst();
  const clients = [machine, reader, rs];
  as = await startAuthorizationServer({
    resources: {
      [resource(ports.main)]: { scopes: ['mcp:read', 'mcp:write'] },
      [resource(ports.short)]: { scopes: ['mcp:read'], accessTokenTtl: 1 },
      [resource(ports.opaque)]: { scopes: ['mcp:read', 'mcp:write'], format: 'opaque' },
      'http://127.0.0.1:9/other': { scopes: ['mcp:read', 'mcp:write'] },
    },
    clients,
  });
  stranger = await startAuthorizationServer({
    resources: { [resource(ports.main)]: { scopes: ['mcp:read'] } },
    clients,
  });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await Promise.all([as?.close(), stranger?.close(), ...Object.values(ports).map((p) => p.close())]);
});

/** The generated server of `version` behind the gate on `port`; its tools/call answers with `ctx.auth`. */
function gated(version: Version, port: Port, auth: Json, logged: string[] = []) {
  const g = gen.get(version);
  const server = g.createServer(
    {
      'tools/list': () => ({ tools: [{ name: 'whoami', inputSchema: { type: 'object' } }] }),
      'tools/call': (params: Json, ctx: Json) => {
        // A remembered identity serves every later request: no handler may change it.
        const frozen = [ctx.auth, ctx.auth.scopes, ctx.auth.audience, ctx.auth.claims].every(Object.isFrozen);
        const answer = params.name === 'frozen' ? String(frozen) : JSON.stringify(ctx.auth);
        return { content: [{ type: 'text', text: answer }] };
      },
    },
    { serverInfo: { name: `gated-${version}`, version: '1' } },
  );
  const endpoint = g.createStreamableHttpServer({
    server,
    keepAliveMs: 0,
    log: (message: string) => void logged.push(message),
    auth: { resource: resource(port), authorizationServers: [as.issuer], ...auth },
  });
  port.serve(endpoint);
  cleanups.push(() => endpoint.close());
  return endpoint;
}

/** The generated client of `version`, its requests made with `fetch` (default: plain, with `headers`). */
async function connect(version: Version, port: Port, options: { headers?: Json; fetch?: typeof fetch }) {
  const g = gen.get(version);
  const client = g.createClient(new g.StreamableHttpClientTransport(resource(port), options), {
    clientInfo: { name: 'auth-test', version: '1' },
    eraCache: new Map(),
  });
  await client.connect();
  cleanups.push(() => client.close());
  return client;
}

const whoami = async (client: any): Promise<Json> =>
  JSON.parse((await client.tools.call({ name: 'whoami', arguments: {} })).content[0].text);

/** A raw POST of one JSON-RPC message (what the gate refuses is refused before the transport reads more). */
async function post(port: Port, headers: Record<string, string>, message: Json = { method: 'tools/list' }) {
  const response = await fetch(resource(port), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
  });
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    headers: response.headers,
    body: await response.text(),
  };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const token = async (resourceUrl: string, scope = 'mcp:read mcp:write', client = machine) =>
  (await clientCredentials(as.issuer, client, { resource: resourceUrl, scope })).access_token;

describe.each(VERSIONS)('the gate of a generated %s server', (version) => {
  it('serves the protected-resource metadata at the path-based and root well-known URLs (RFC 9728)', async () => {
    gated(version, ports.main, {
      verifier: jwtVerifier({ issuer: as.issuer }),
      methodScopes: { 'tools/call': ['mcp:write'] },
    });
    const expected = {
      resource: resource(ports.main),
      authorization_servers: [as.issuer],
      scopes_supported: ['mcp:write'],
      bearer_methods_supported: ['header'],
    };
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(`${ports.main.origin}${path}`, { headers: { origin: 'https://elsewhere.example' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual(expected);
    }
  });

  it('401 without a token: a Bearer challenge naming the metadata (which names the authorization server) and the scope', async () => {
    gated(version, ports.main, { verifier: jwtVerifier({ issuer: as.issuer }), scopes: ['mcp:read'] });
    const refused = await post(ports.main, {});
    expect(refused.status).toBe(401);
    const metadataUrl = `${ports.main.origin}/.well-known/oauth-protected-resource/mcp`;
    expect(refused.challenge).toBe(`Bearer resource_metadata="${metadataUrl}", scope="mcp:read"`);
    expect(((await (await fetch(metadataUrl)).json()) as Json).authorization_servers).toEqual([as.issuer]);
    // Another scheme is no token either; an unreadable Bearer header is a bad request (RFC 6750 §3.1).
    expect((await post(ports.main, { authorization: 'Basic dXNlcjpwYXNz' })).status).toBe(401);
    const malformed = await post(ports.main, { authorization: 'Bearer two words' });
    expect(malformed.status).toBe(400);
    expect(malformed.challenge).toContain('error="invalid_request"');
  });

  it('a browser page of an allowed origin can send a DPoP proof and read the challenge (CORS)', async () => {
    const g = gen.get(version);
    const origin = 'https://app.example';
    const server = g.createServer({}, { serverInfo: { name: 'cors', version: '1' } });
    const auth = {
      resource: resource(ports.main),
      authorizationServers: [as.issuer],
      verifier: jwtVerifier({ issuer: as.issuer }),
    };
    const endpoint = g.createStreamableHttpServer({
      server,
      auth,
      allowedOrigins: [origin],
      cors: { origins: [origin] },
    });
    ports.main.serve(endpoint);
    cleanups.push(() => endpoint.close());
    const preflight = await fetch(resource(ports.main), {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, dpop',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')?.split(', ')).toEqual(
      expect.arrayContaining(['authorization', 'dpop']),
    );
    const refused = await post(ports.main, { origin });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(origin);
    expect(refused.headers.get('access-control-expose-headers')?.split(', ')).toEqual(
      expect.arrayContaining(['www-authenticate', 'dpop-nonce']),
    );
  });

  it('a JWT for this resource passes, verified once; the handler gets the identity as ctx.auth, never the token', async () => {
    const jwt = jwtVerifier({ issuer: as.issuer });
    let verified = 0;
    const verifier = { verify: (...args: Parameters<typeof jwt.verify>) => (verified++, jwt.verify(...args)) };
    gated(version, ports.main, { verifier });
    const access = await token(resource(ports.main), 'mcp:read');
    const client = await connect(version, ports.main, { headers: bearer(access) });
    const auth = await whoami(client);
    await whoami(client);
    expect(verified).toBe(1);
    expect((await client.tools.call({ name: 'frozen', arguments: {} })).content[0].text).toBe('true');
    expect(auth).toMatchObject({
      subject: 'machine',
      clientId: 'machine',
      scopes: ['mcp:read'],
      audience: [resource(ports.main)],
      issuer: as.issuer,
    });
    expect(auth.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(auth.claims.client_id).toBe('machine');
    expect(JSON.stringify(auth)).not.toContain(access);
  });

  it('with the issuer metadata given: nothing discovered, the JWKS fetched once for every token', async () => {
    const verifier = jwtVerifier({ issuer: as.issuer, metadata: { jwks_uri: `${as.issuer}/jwks` } });
    gated(version, ports.main, { verifier });
    const counted = (request: string) => as.requests.filter((r) => r === request).length;
    const [discovered, fetched] = [counted('GET /.well-known/oauth-authorization-server'), counted('GET /jwks')];
    for (const scope of ['mcp:read', 'mcp:write', 'mcp:read mcp:write']) {
      const access = await token(resource(ports.main), scope);
      expect((await whoami(await connect(version, ports.main, { headers: bearer(access) }))).scopes.join(' ')).toBe(
        scope,
      );
    }
    expect(counted('GET /.well-known/oauth-authorization-server')).toBe(discovered);
    expect(counted('GET /jwks')).toBe(fetched + 1);
  });

  it('refuses a token for another audience, from another issuer, and one that expired: 401 invalid_token', async () => {
    gated(version, ports.main, { verifier: jwtVerifier({ issuer: as.issuer }) });
    const elsewhere = await token('http://127.0.0.1:9/other');
    const foreign = (
      await clientCredentials(stranger.issuer, machine, { resource: resource(ports.main), scope: 'mcp:read' })
    ).access_token;
    for (const refusedToken of [elsewhere, foreign]) {
      const refused = await post(ports.main, bearer(refusedToken));
      expect(refused.status).toBe(401);
      expect(refused.challenge).toMatch(
        /^Bearer resource_metadata="[^"]+", error="invalid_token", error_description="[^"]+"$/,
      );
      expect(refused.body).not.toContain(refusedToken);
    }

    gated(version, ports.short, { verifier: jwtVerifier({ issuer: as.issuer }) });
    const short = await token(resource(ports.short), 'mcp:read');
    const client = await connect(version, ports.short, { headers: bearer(short) });
    expect((await whoami(client)).subject).toBe('machine');
    // One second of life, and the gate allows no leeway on `exp` (the cached identity goes with it).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const expired = await post(ports.short, bearer(short));
    expect(expired.status).toBe(401);
    expect(expired.challenge).toContain('error_description="the token expired"');
  });

  it('403 insufficient_scope naming the scopes a method and a tool need; the token with them passes', async () => {
    gated(version, ports.main, {
      verifier: jwtVerifier({ issuer: as.issuer }),
      methodScopes: { 'tools/call': ['mcp:read'] },
      toolScopes: { whoami: ['mcp:write'] },
    });
    const readOnly = await token(resource(ports.main), 'mcp:read', reader);
    const call = { method: 'tools/call', params: { name: 'whoami', arguments: {} } };
    const refused = await post(ports.main, bearer(readOnly), call);
    expect(refused.status).toBe(403);
    expect(refused.challenge).toContain('error="insufficient_scope"');
    expect(refused.challenge).toContain('scope="mcp:read mcp:write"');
    // tools/list needs nothing more: the token goes on to the transport (which asks for a session or headers).
    expect((await post(ports.main, bearer(readOnly))).status).not.toBe(403);
    const both = await token(resource(ports.main), 'mcp:read mcp:write');
    expect((await whoami(await connect(version, ports.main, { headers: bearer(both) }))).scopes).toEqual([
      'mcp:read',
      'mcp:write',
    ]);
  });

  it('introspects opaque tokens (RFC 7662), once per token: a cached token costs the authorization server nothing', async () => {
    gated(version, ports.opaque, {
      verifier: introspectionVerifier({ issuer: as.issuer, clientId: rs.client_id, clientSecret: rs.client_secret }),
    });
    const opaque = await token(resource(ports.opaque));
    expect(opaque.split('.')).toHaveLength(1);
    const client = await connect(version, ports.opaque, { headers: bearer(opaque) });
    const introspections = () => as.requests.filter((r) => r === 'POST /token/introspection').length;
    const first = await whoami(client);
    expect(first).toMatchObject({ subject: 'machine', clientId: 'machine', audience: [resource(ports.opaque)] });
    const asked = introspections();
    expect(asked).toBeGreaterThan(0);
    await whoami(client);
    await client.tools.list();
    expect(introspections()).toBe(asked);
    // An unknown token is inactive: 401.
    const refused = await post(ports.opaque, bearer('not-a-token'));
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('error_description="the token is not active"');
  });

  it('503 when the token cannot be checked (the introspection client is refused), logged without the token', async () => {
    const logged: string[] = [];
    gated(
      version,
      ports.opaque,
      { verifier: introspectionVerifier({ issuer: as.issuer, clientId: rs.client_id, clientSecret: 'wrong' }) },
      logged,
    );
    const opaque = await token(resource(ports.opaque));
    const refused = await post(ports.opaque, bearer(opaque));
    expect(refused.status).toBe(503);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('could not be verified');
    expect(logged.join('\n') + refused.body).not.toContain(opaque);
  });
});

describe.each(VERSIONS)('DPoP-bound tokens at a generated %s server (RFC 9449)', (version) => {
  /** A fetch that sends `token` with the DPoP scheme and a fresh proof, taking the server's nonce when asked. */
  function dpopFetch(key: Awaited<ReturnType<typeof dpopKey>>, token: string): typeof fetch {
    let nonce: string | undefined;
    return async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      for (let attempt = 0; ; attempt++) {
        const headers = new Headers(init?.headers);
        headers.set('authorization', `DPoP ${token}`);
        headers.set('dpop', await dpopProof(key, init?.method ?? 'GET', url, { token, ...(nonce ? { nonce } : {}) }));
        const response = await fetch(input, { ...init, headers });
        const given = response.headers.get('dpop-nonce');
        if (given !== null) nonce = given;
        if (
          response.status !== 401 ||
          attempt > 0 ||
          !/use_dpop_nonce/.test(response.headers.get('www-authenticate') ?? '')
        )
          return response;
      }
    };
  }

  it('a DPoP-bound JWT passes with its proof on every request, and is refused without one or with a wrong one', async () => {
    gated(version, ports.main, { verifier: jwtVerifier({ issuer: as.issuer }), dpop: dpopProofs() });
    const key = await dpopKey();
    const bound = await clientCredentials(as.issuer, machine, {
      resource: resource(ports.main),
      scope: 'mcp:read',
      dpop: key,
    });
    expect(bound.token_type).toBe('DPoP');
    const auth = await whoami(await connect(version, ports.main, { fetch: dpopFetch(key, bound.access_token) }));
    expect(auth.claims.cnf.jkt).toBeTruthy();

    const url = resource(ports.main);
    const as401 = async (headers: Record<string, string>) => {
      const refused = await post(ports.main, headers);
      expect(refused.status).toBe(401);
      return refused.challenge ?? '';
    };
    // As a Bearer token (the proof's key is what it is bound to).
    expect(await as401(bearer(bound.access_token))).toContain('Bearer resource_metadata="');
    expect(await as401(bearer(bound.access_token))).toContain('error="invalid_token"');
    const dpopAuth = { authorization: `DPoP ${bound.access_token}` };
    expect(await as401(dpopAuth)).toMatch(/DPoP .*error="invalid_dpop_proof".*algs="ES256/);
    const otherKey = await dpopKey();
    expect(
      await as401({ ...dpopAuth, dpop: await dpopProof(otherKey, 'POST', url, { token: bound.access_token }) }),
    ).toContain('invalid_dpop_proof');
    expect(
      await as401({ ...dpopAuth, dpop: await dpopProof(key, 'POST', `${url}/other`, { token: bound.access_token }) }),
    ).toContain('htu');
    expect(await as401({ ...dpopAuth, dpop: await dpopProof(key, 'POST', url, { token: 'another' }) })).toContain(
      'ath',
    );
    const once = await dpopProof(key, 'POST', url, { token: bound.access_token });
    expect((await post(ports.main, { ...dpopAuth, dpop: once })).status).not.toBe(401);
    expect(await as401({ ...dpopAuth, dpop: once })).toContain('used before');
  });

  it('with server nonces: a proof without the nonce is answered use_dpop_nonce and the nonce, then passes', async () => {
    gated(version, ports.main, { verifier: jwtVerifier({ issuer: as.issuer }), dpop: dpopProofs({ nonce: true }) });
    const key = await dpopKey();
    const bound = await clientCredentials(as.issuer, machine, {
      resource: resource(ports.main),
      scope: 'mcp:read',
      dpop: key,
    });
    const url = resource(ports.main);
    const refused = await post(ports.main, {
      authorization: `DPoP ${bound.access_token}`,
      dpop: await dpopProof(key, 'POST', url, { token: bound.access_token }),
    });
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('DPoP resource_metadata=');
    expect(refused.challenge).toContain('error="use_dpop_nonce"');
    expect(refused.headers.get('dpop-nonce')).toMatch(/^[\w-]{20,}$/);
    const auth = await whoami(await connect(version, ports.main, { fetch: dpopFetch(key, bound.access_token) }));
    expect(auth.subject).toBe('machine');
  });
});

describe('a verifier of your own', () => {
  it('its refusals are known by name (a verifier from another copy of the runtime), anything else is a 503', async () => {
    const logged: string[] = [];
    const refuse = (name: string) => async () => {
      throw Object.assign(new Error(`refused as ${name}`), { name });
    };
    for (const [name, status] of [
      ['InvalidTokenError', 401],
      ['InvalidDpopProofError', 401],
      ['TypeError', 503],
    ] as const) {
      gated('2025-11-25', ports.main, { verifier: { verify: refuse(name) } }, logged);
      const refused = await post(ports.main, bearer(`token-${name}`));
      expect(refused.status, name).toBe(status);
      if (status === 401) expect(refused.challenge).toContain(`error_description="refused as ${name}"`);
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    }
    expect(logged).toEqual(['MCP server auth: a token could not be verified: refused as TypeError']);
  });
  it('a token bound by a confirmation method the gate does not check (mTLS x5t#S256) is refused, not taken as a bearer token', async () => {
    const identity = (cnf: unknown) => ({
      verify: async () => ({
        subject: 'alice',
        clientId: 'app',
        scopes: ['mcp:read', 'mcp:write'],
        audience: [resource(ports.main)],
        claims: { cnf },
      }),
    });
    for (const [cnf, status] of [
      [{ 'x5t#S256': 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2' }, 401],
      [{ jkt: 'a', 'x5t#S256': 'b' }, 401],
      ['jkt', 401],
      [{}, 200],
    ] as const) {
      gated('2025-11-25', ports.main, { verifier: identity(cnf) }, []);
      const initialize = {
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cnf', version: '1' } },
      };
      const answered = await post(ports.main, bearer(`token-${status}-${Object.keys(cnf).length}`), initialize);
      expect(answered.status, JSON.stringify(cnf)).toBe(status);
      if (status === 401) expect(answered.challenge).toContain('confirmation method');
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    }
  });
});

describe('the auth option refuses to start without what it needs', () => {
  it('no verifier, no resource, an http resource off loopback', async () => {
    const g = gen.get('2025-11-25');
    const server = g.createServer({}, { serverInfo: { name: 'x', version: '1' } });
    const make = (auth: Json) => () => g.createStreamableHttpServer({ server, auth });
    expect(make({ resource: 'http://127.0.0.1/mcp', authorizationServers: [as.issuer] })).toThrow(
      /auth\.verifier is required/,
    );
    const verifier = jwtVerifier({ issuer: as.issuer });
    expect(make({ verifier, resource: 'mcp', authorizationServers: [as.issuer] })).toThrow(
      /auth\.resource must be the absolute URL/,
    );
    expect(make({ verifier, resource: 'http://mcp.example.com/mcp', authorizationServers: [as.issuer] })).toThrow(
      /auth\.resource must be https/,
    );
    expect(make({ verifier, resource: 'https://mcp.example.com/mcp', authorizationServers: [] })).toThrow(
      /auth\.authorizationServers/,
    );
  });
});
