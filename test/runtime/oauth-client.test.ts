/**
 * The OAuth client (templates/auth/client/) against servers that misbehave, each one way: a typed
 * AuthorizationError naming what was wrong, and nothing stored (no tokens, no registration, no pending
 * authorization) — metadata lying about its issuer, an authorization response with a wrong `iss` or `state`, a token
 * endpoint on http:// beyond loopback, a registration refused, PKCE not advertised, another server's resource
 * metadata, a denied authorization. A server that moves to another authorization server (re-registration, keyed by
 * issuer). And what the conformance suite found: client_secret_basic as forms are encoded, a registration without
 * client_secret_expires_at, and a 2026-07-28 client that does not fall back to initialize after a refused
 * authorization.
 *
 * One scripted server on loopback plays the MCP server (`/mcp`, a 401 without the token) and the authorization server
 * (`/as`); the test plays the user's browser (its `redirect` builds the callback the knobs ask for).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthorizationError,
  memoryStore,
  oauthClient,
  type AuthStore,
  type OAuthClientOptions,
} from '../../templates/auth.js';
import { StreamableHttpClientTransport } from '../../templates/transports/http/client/transport.js';
import { built, importBuilt } from '../client/helpers/build.js';
import { listen } from '../transports/helpers/http.js';

/** How the scripted servers misbehave. */
interface Knobs {
  /** The `issuer` the metadata document states (default: the issuer it is fetched for). */
  issuer?: string;
  /** The authorization server at the origin (issuer `http://127.0.0.1:<port>`, metadata at the root well-known). */
  rootIssuer?: true;
  /** The authorization server the resource metadata names: `as` (default), or `as2` after a migration. */
  as?: 'as' | 'as2';
  tokenEndpoint?: string;
  registration?: 'refuse' | 'secret';
  pkce?: false;
  resource?: string;
  /** The callback's `iss`: the issuer (default), another one, or none. */
  iss?: 'wrong' | 'omit';
  /** The callback's `state`: the request's (default) or another. */
  state?: 'wrong';
  error?: string;
}

let base = '';
let knobs: Knobs = {};
let close: () => Promise<void>;
const requests: string[] = [];
/** The Authorization headers the token endpoint saw. */
const tokenAuth: string[] = [];
/** The client ids the token endpoints saw in their bodies: `<server> <client_id>`. */
const tokenClients: string[] = [];
/** What each authorization server issues: a client id, and the one token the MCP server takes from it. */
const ISSUED = {
  as: { client: 'registered-client', token: 'good-token' },
  as2: { client: 'registered-client-2', token: 'good-token-2' },
};

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '').split('?')[0] ?? '';
  let body = '';
  for await (const chunk of req) body += String(chunk);
  requests.push(`${req.method} ${path}${path === '/mcp' ? ` ${JSON.parse(body || '{}').method}` : ''}`);
  const name = knobs.as ?? 'as';
  const issuer = knobs.rootIssuer ? base : `${base}/${name}`;
  if (path === '/mcp') {
    if (req.headers.authorization === `Bearer ${ISSUED[name].token}`) {
      return json(res, 200, { jsonrpc: '2.0', id: JSON.parse(body).id ?? null, result: {} });
    }
    const prm = `${base}/.well-known/oauth-protected-resource/mcp`;
    return json(res, 401, { error: 'invalid_token' }, { 'www-authenticate': `Bearer resource_metadata="${prm}"` });
  }
  if (path === '/.well-known/oauth-protected-resource/mcp') {
    return json(res, 200, { resource: knobs.resource ?? `${base}/mcp`, authorization_servers: [issuer] });
  }
  if (path === `/.well-known/oauth-authorization-server${knobs.rootIssuer ? '' : `/${name}`}`) {
    return json(res, 200, {
      issuer: knobs.issuer ?? issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: knobs.tokenEndpoint ?? `${issuer}/token`,
      registration_endpoint: `${issuer}/register`,
      response_types_supported: ['code'],
      ...(knobs.pkce === false ? {} : { code_challenge_methods_supported: ['S256'] }),
      authorization_response_iss_parameter_supported: true,
    });
  }
  if (path === `/${name}/register`) {
    if (knobs.registration === 'refuse') {
      return json(res, 400, { error: 'invalid_redirect_uri', error_description: 'not on our list' });
    }
    const secret = knobs.registration === 'secret' ? { client_secret: 'issued-secret' } : {};
    const client = { client_id: ISSUED[name].client, redirect_uris: JSON.parse(body).redirect_uris, ...secret };
    return json(res, 201, client);
  }
  if (path === `/${name}/token`) {
    tokenAuth.push(req.headers.authorization ?? '');
    tokenClients.push(`${name} ${new URLSearchParams(body).get('client_id') ?? ''}`);
    return json(res, 200, { access_token: ISSUED[name].token, token_type: 'Bearer', expires_in: 3600 });
  }
  json(res, 404, { error: 'not_found' });
}

beforeEach(async () => {
  knobs = {};
  requests.length = 0;
  tokenAuth.length = 0;
  tokenClients.length = 0;
  const http = await listen((req, res) => void handle(req, res));
  base = http.url;
  close = http.close;
});
afterEach(() => close());

/** Plays the browser: the callback the current authorization server would send, shaped by the knobs. */
function browser(url: URL): string {
  const back = new URL(url.searchParams.get('redirect_uri') ?? '');
  if (knobs.error) back.searchParams.set('error', knobs.error);
  else back.searchParams.set('code', 'the-code');
  back.searchParams.set('state', knobs.state === 'wrong' ? 'another-state' : (url.searchParams.get('state') ?? ''));
  const issuer = `${base}/${knobs.as ?? 'as'}`;
  if (knobs.iss !== 'omit') back.searchParams.set('iss', knobs.iss === 'wrong' ? 'https://evil.example' : issuer);
  return back.href;
}

function codeFlow(store: AuthStore, extra: Partial<OAuthClientOptions> = {}): OAuthClientOptions {
  return { redirectUri: 'http://127.0.0.1:5555/callback', redirect: browser, store, ...extra } as OAuthClientOptions;
}

/** One request through a transport with the OAuth client; what it rejected with. */
async function refusal(options: OAuthClientOptions): Promise<unknown> {
  const transport = new StreamableHttpClientTransport(`${base}/mcp`, { auth: oauthClient(options) });
  await transport.start();
  const error = await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' }).then(
    () => undefined,
    (e: unknown) => e,
  );
  await transport.close();
  return error;
}

/** Nothing kept: no tokens, no registration; and `pending`, the authorization requests left, as given. */
async function expectNothingStored(store: AuthStore, pendingStates: string[] = []): Promise<void> {
  expect(await store.get('tokens', `${base}/mcp`)).toBeUndefined();
  expect(await store.get('client', `${base}/as`)).toBeUndefined();
  for (const state of pendingStates) expect(await store.get('pending', state)).toBeUndefined();
}

function expectReason(error: unknown, reason: string, message: RegExp): void {
  expect(error).toBeInstanceOf(AuthorizationError);
  expect((error as AuthorizationError).reason).toBe(reason);
  expect((error as Error).message).toMatch(message);
}

describe('OAuth client: bad input gets a typed error and nothing is stored', () => {
  it('authorization-server metadata that names another issuer', async () => {
    knobs.issuer = 'https://honest.example';
    const store = memoryStore();
    expectReason(await refusal(codeFlow(store)), 'issuer-mismatch', /names another issuer/);
    await expectNothingStored(store);
    expect(requests).not.toContain('POST /as/register');
  });

  it('the same issuer with a trailing slash (the same URL to the library): compared as strings, refused', async () => {
    knobs.rootIssuer = true;
    knobs.issuer = `${base}/`;
    expectReason(
      await refusal(codeFlow(memoryStore())),
      'issuer-mismatch',
      /names the issuer http:\/\/127\.0\.0\.1:\d+\/: refused/,
    );
    expect(requests).not.toContain('POST /register');
  });

  it('an authorization response with a wrong iss: the code goes to no token endpoint', async () => {
    knobs.iss = 'wrong';
    const store = memoryStore();
    const states: string[] = [];
    const options = codeFlow(store, {
      redirect: (url: URL) => (states.push(url.searchParams.get('state') ?? ''), browser(url)),
    });
    expectReason(await refusal(options), 'iss-mismatch', /names the issuer https:\/\/evil\.example/);
    expect(requests).not.toContain('POST /as/token');
    // The registration happened before the user was sent away; no tokens, and the request is used up.
    expect(await store.get('tokens', `${base}/mcp`)).toBeUndefined();
    expect(await store.get('pending', states[0] ?? '')).toBeUndefined();
  });

  it('an authorization response without the iss its server advertises', async () => {
    knobs.iss = 'omit';
    expectReason(await refusal(codeFlow(memoryStore())), 'iss-missing', /has no iss/);
    expect(requests).not.toContain('POST /as/token');
  });

  it('an authorization response with another state', async () => {
    knobs.state = 'wrong';
    const store = memoryStore();
    expectReason(await refusal(codeFlow(store)), 'state-mismatch', /another state/);
    expect(requests).not.toContain('POST /as/token');
    expect(await store.get('tokens', `${base}/mcp`)).toBeUndefined();
  });

  it('finishAuthorization with a state nobody waits for', async () => {
    const client = oauthClient(codeFlow(memoryStore()));
    const error = await client
      .finishAuthorization('http://127.0.0.1:5555/callback?code=x&state=forged')
      .catch((e: unknown) => e);
    expectReason(error, 'state-mismatch', /no authorization of this client is waiting/);
  });

  it('a token endpoint on http:// that is not loopback: refused before anything is registered or asked', async () => {
    knobs.tokenEndpoint = 'http://auth.example/token';
    const store = memoryStore();
    let asked = false;
    const options = codeFlow(store, { redirect: (url: URL) => ((asked = true), browser(url)) });
    expectReason(
      await refusal(options),
      'insecure-endpoint',
      /the token endpoint http:\/\/auth\.example\/token is not https/,
    );
    expect(asked).toBe(false);
    await expectNothingStored(store);
  });

  it('a registration refused: the server’s error in the message', async () => {
    knobs.registration = 'refuse';
    const store = memoryStore();
    expectReason(await refusal(codeFlow(store)), 'registration-refused', /invalid_redirect_uri: not on our list/);
    await expectNothingStored(store);
  });

  it('a server that does not advertise PKCE with S256', async () => {
    knobs.pkce = false;
    const store = memoryStore();
    expectReason(await refusal(codeFlow(store)), 'pkce-unsupported', /does not advertise PKCE with S256/);
    await expectNothingStored(store);
  });

  it('resource metadata naming another server', async () => {
    knobs.resource = 'https://evil.example/mcp';
    const store = memoryStore();
    expectReason(await refusal(codeFlow(store)), 'resource-mismatch', /names another resource, https:\/\/evil/);
    await expectNothingStored(store);
    expect(requests.some((r) => r.includes('/.well-known/oauth-authorization-server'))).toBe(false);
  });

  it('a denied authorization: the server’s error, after the iss check', async () => {
    knobs.error = 'access_denied';
    const store = memoryStore();
    expectReason(await refusal(codeFlow(store)), 'authorization-denied', /access_denied/);
    expect(await store.get('tokens', `${base}/mcp`)).toBeUndefined();
  });
});

describe('OAuth client: authorization servers change, and what the conformance suite found', () => {
  it('client_secret_basic: the credentials as forms are encoded (a - stays a -)', async () => {
    const options = codeFlow(memoryStore(), {
      client: {
        client_id: 'my-client.v2',
        client_secret: 's3cret-with_dash',
        token_endpoint_auth_method: 'client_secret_basic',
      },
    });
    expect(await refusal(options)).toBeUndefined();
    expect(tokenAuth).toEqual([`Basic ${btoa('my-client.v2:s3cret-with_dash')}`]);
  });

  it('a registration with a secret and no client_secret_expires_at (RFC 7591 asks for it): taken as never expiring', async () => {
    knobs.registration = 'secret';
    const store = memoryStore();
    expect(await refusal(codeFlow(store))).toBeUndefined();
    expect(await store.get('client', `${base}/as`)).toMatchObject({
      client_id: 'registered-client',
      client_secret: 'issued-secret',
    });
    expect(tokenAuth).toEqual([`Basic ${btoa('registered-client:issued-secret')}`]);
  });

  it('a server that moved to another authorization server: registered with anew, the old client id never shown', async () => {
    const store = memoryStore();
    const transport = new StreamableHttpClientTransport(`${base}/mcp`, { auth: oauthClient(codeFlow(store)) });
    await transport.start();
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    knobs.as = 'as2';
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await transport.close();
    expect(requests.filter((r) => r.endsWith('/register'))).toEqual(['POST /as/register', 'POST /as2/register']);
    expect(tokenClients).toEqual(['as registered-client', 'as2 registered-client-2']);
    expect(await store.get('client', `${base}/as`)).toMatchObject({ client_id: 'registered-client' });
    expect(await store.get('client', `${base}/as2`)).toMatchObject({ client_id: 'registered-client-2' });
    expect(await store.get('tokens', `${base}/mcp`)).toMatchObject({
      issuer: `${base}/as2`,
      access_token: 'good-token-2',
    });
  });

  it('a 2026-07-28 client whose authorization is refused fails connect, with no initialize after the probe', async () => {
    knobs.issuer = 'https://honest.example';
    const g = await importBuilt(await built('2026-07-28'), 'index.js');
    const { oauthClient: packaged } = await import('@mcp-typegen/runtime/auth');
    const client = g.createClient(
      new g.StreamableHttpClientTransport(`${base}/mcp`, { auth: packaged(codeFlow(memoryStore()) as never) }),
      { clientInfo: { name: 'probe', version: '1' }, eraCache: new Map() },
    );
    const error = await client.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as { reason?: string }).reason).toBe('issuer-mismatch');
    expect(requests.filter((r) => r.startsWith('POST /mcp'))).toEqual(['POST /mcp server/discover']);
  });
});
