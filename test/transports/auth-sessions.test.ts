/**
 * Issue 42, item 3: with `auth`, a session belongs to the identity that opened it. Another identity's token
 * on that session id gets 404 (the session does not exist for it) — on a single Streamable HTTP endpoint, on
 * every node of an in-process cluster (two endpoints sharing an InMemorySessionStore and bus, as
 * test/transports/http-cluster.test.ts sets them up), and on the HTTP+SSE server. The same identity with a
 * new token (a refresh) keeps its session. Tokens are real: client credentials from oidc-provider
 * (test/helpers/authorization-server.ts) for two clients, `alice` and `bob`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createSseLegacyServer,
  createStreamableHttpServer,
  InMemoryMessageBus,
  InMemorySessionStore,
} from '@mcp-typegen/runtime/node';
import { jwtVerifier } from '@mcp-typegen/runtime/auth/server';
import { built, importBuilt } from '../client/helpers/build.js';
import { startAuthorizationServer, type AuthorizationServer } from '../helpers/authorization-server.js';
import { clientCredentials, machineClient, portFirst } from '../helpers/oauth-tokens.js';

type Json = Record<string, any>;
type Port = Awaited<ReturnType<typeof portFirst>>;
const alice = machineClient('alice');
const bob = machineClient('bob');
const VERSION = '2025-11-25';

let gen: any;
let as: AuthorizationServer;
const ports: Port[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  gen = await importBuilt(await built(VERSION), 'index.js');
  for (let i = 0; i < 3; i++) ports.push(await portFirst());
  // One resource, served by every port (the nodes of a cluster answer for the same URL).
  as = await startAuthorizationServer({
    resources: { [resourceUrl()]: { scopes: ['mcp:read'] } },
    clients: [alice, bob],
  });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await Promise.all([as?.close(), ...ports.map((p) => p.close())]);
});

/** The resource every node serves: the first port's URL (behind a load balancer, one name for all). */
const resourceUrl = (): string => `${ports[0]!.origin}/mcp`;
const tokenOf = async (client: typeof alice) =>
  (await clientCredentials(as.issuer, client, { resource: resourceUrl(), scope: 'mcp:read' })).access_token;

function authOption() {
  return { resource: resourceUrl(), authorizationServers: [as.issuer], verifier: jwtVerifier({ issuer: as.issuer }) };
}

function generatedServer() {
  return gen.createServer(
    {
      'tools/list': () => ({ tools: [] }),
      'tools/call': (_p: Json, ctx: Json) => ({ content: [{ type: 'text', text: ctx.auth.subject }] }),
    },
    { serverInfo: { name: 'bound', version: '1' } },
  );
}

/** Streamable HTTP endpoints on the first `count` ports, sharing `state` when given (a cluster). */
function nodes(count: number, state: Json = {}) {
  return ports.slice(0, count).map((port, i) => {
    const endpoint = createStreamableHttpServer({
      server: generatedServer(),
      keepAliveMs: 0,
      auth: authOption(),
      ...(state.sessionStore ? { ...state, nodeId: `n${i}` } : {}),
    });
    port.serve(endpoint);
    cleanups.push(() => endpoint.close());
    return `${port.origin}/mcp`;
  });
}

/** A session opened by the generated client with `token`; returns its id and the client. */
async function openSession(url: string, token: string) {
  const transport = new gen.StreamableHttpClientTransport(url, { headers: { authorization: `Bearer ${token}` } });
  const client = gen.createClient(transport, { clientInfo: { name: 'owner', version: '1' } });
  await client.connect();
  cleanups.push(() => client.close());
  return { sessionId: transport.sessionId as string, client };
}

/** A raw request on a session, with `token`. */
async function onSession(url: string, sessionId: string, token: string, method: 'POST' | 'GET' | 'DELETE' = 'POST') {
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': VERSION,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    ...(method === 'POST'
      ? { body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x', arguments: {} } }) }
      : {}),
  });
  // A GET that was let in is a stream that stays open: only its status matters.
  if (method === 'GET' && response.ok) {
    await response.body?.cancel();
    return { status: response.status, text: '' };
  }
  return { status: response.status, text: await response.text() };
}

describe('a session belongs to the identity that opened it', () => {
  it('on one endpoint: another identity gets 404 on POST, GET and DELETE; the owner, with a new token, goes on', async () => {
    const [url] = nodes(1);
    const { sessionId, client } = await openSession(url!, await tokenOf(alice));
    const bobs = await tokenOf(bob);
    for (const method of ['POST', 'GET', 'DELETE'] as const) {
      const refused = await onSession(url!, sessionId, bobs, method);
      expect(refused.status, method).toBe(404);
      expect(refused.text).toContain('Session not found');
    }
    // A second initialize naming the session is no way in either.
    const reinit = await fetch(url!, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bobs}`,
        'mcp-session-id': sessionId,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'b', version: '1' } },
      }),
    });
    expect(reinit.status).toBe(404);
    // The session is untouched: its owner calls on, and a fresh token of the same identity is the same owner.
    expect((await client.tools.call({ name: 'x', arguments: {} })).content[0].text).toBe('alice');
    const refreshed = await onSession(url!, sessionId, await tokenOf(alice));
    expect(refreshed.status).toBe(200);
    expect(refreshed.text).toContain('alice');
  });

  it('on every node of a cluster: the shared record names its owner (hashed), and only the owner is adopted', async () => {
    const sessionStore = new InMemorySessionStore();
    const [a, b] = nodes(2, { sessionStore, bus: new InMemoryMessageBus() });
    const { sessionId } = await openSession(a!, await tokenOf(alice));
    const record = await sessionStore.get(sessionId);
    expect(record?.owner).toMatch(/^[\w-]{43}$/);
    expect(JSON.stringify(record)).not.toContain('alice');
    const bobs = await tokenOf(bob);
    // Node b never held the session: it is refused there before and after the owner's request adopts it.
    expect((await onSession(b!, sessionId, bobs)).status).toBe(404);
    const adopted = await onSession(b!, sessionId, await tokenOf(alice));
    expect(adopted.status).toBe(200);
    expect(adopted.text).toContain('alice');
    for (const node of [a!, b!]) expect((await onSession(node, sessionId, bobs)).status).toBe(404);
  });

  it('on the HTTP+SSE server: only the identity that opened the stream may POST to its session', async () => {
    const port = ports[0]!;
    const handler = createSseLegacyServer({
      keepAliveMs: 0,
      auth: authOption(),
      onSession: (transport) => generatedServer().connect(transport),
    });
    port.serve(handler);
    cleanups.push(() => handler.close());
    const alices = await tokenOf(alice);
    const stream = await fetch(`${port.origin}/sse`, {
      headers: { authorization: `Bearer ${alices}`, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    cleanups.push(() => reader.cancel());
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    const endpoint = /data: (\S+)/.exec(text)?.[1];
    expect(endpoint).toMatch(/^\/messages\?sessionId=/);
    const postAs = (token: string) =>
      fetch(`${port.origin}${endpoint}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    expect((await postAs(await tokenOf(bob))).status).toBe(404);
    expect((await postAs(alices)).status).toBe(202);
    // Without a token: 401 on both endpoints, with the challenge.
    const bare = await fetch(`${port.origin}/sse`, { headers: { accept: 'text/event-stream' } });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toContain('resource_metadata=');
  });
});
