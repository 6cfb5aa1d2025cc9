/**
 * Issue 31 with real processes: three generated 2025-11-25 server nodes (test/interop/fixtures/cluster-node.ts)
 * share their sessions, events and bus in a real `redis-server`, behind a real `haproxy` balancing every
 * request round-robin without affinity (test/helpers/cluster.ts; both installed with apt-get when missing).
 * - 20 generated clients: calls spread over the three nodes, nothing lost, duplicated or mismatched;
 *   elicitations whose answers land on other nodes; the official SDK clients (v1 and v2) too;
 * - a session deleted through one node is gone on all, and from Redis;
 * - kill -9 of the node holding a client's standalone stream: the client resumes on another node with
 *   Last-Event-ID and gets every event once, in order; a call whose node is killed fails with a clear error;
 * - Redis restarted under load: clear errors while it is down, then service again without restarting a node;
 * - with `auth` (tokens from oidc-provider): a session is its opener's on every node, the owner in Redis hashed.
 * Issue 46: a half-open cut of the standalone stream (a proxy that stops forwarding, no FIN to the node): the
 * client resumes on another node, which takes the stream over, and gets every event; Redis restarted empty: a
 * node holding a session writes it back, the others serve it; a resumption from an event Redis no longer has is
 * answered 404; a session kept busy only by a stream or a long call outlives the idle timeout.
 * The same logic in one process, fast: test/transports/http-cluster.test.ts.
 */
import { join } from 'node:path';
import { createServer as createNetServer, connect as netConnect, type Socket } from 'node:net';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from 'redis';
import { startAuthorizationServer } from '../helpers/authorization-server.js';
import { clientCredentials, machineClient } from '../helpers/oauth-tokens.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { built, compileFixture, importBuilt } from '../client/helpers/build.js';
import { ROOT } from '../helpers/paths.js';
import { eventually } from '../helpers/eventually.js';
import {
  ensureClusterTools,
  freePort,
  startHaproxy,
  startNode,
  startRedis,
  type Haproxy,
  type Node,
  type Redis,
} from '../helpers/cluster.js';

type Json = Record<string, any>;
let gen: any;
let script: string;
let redis: Redis;
let lb: Haproxy;
const nodes: Node[] = [];

beforeAll(async () => {
  ensureClusterTools();
  gen = await importBuilt(await built('2025-11-25'), 'index.js');
  script = await compileFixture('2025-11-25', join(ROOT, 'test', 'interop', 'fixtures', 'cluster-node.ts'));
  redis = await startRedis();
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  nodes.push(...(await Promise.all(ports.map((port, i) => startNode(script, redis.url, `n${i + 1}`, port)))));
  lb = await startHaproxy(ports);
}, 60_000);

afterAll(async () => {
  await lb?.stop();
  await Promise.all(nodes.map((n) => n.stop()));
  await redis?.stop();
});

/** A generated client through the load balancer, answering elicitations with `name`. */
async function client(name: string, reconnection: Json = { initialDelayMs: 50, maxRetries: 10 }) {
  const transport = new gen.StreamableHttpClientTransport(lb.url, { streams: gen.sessionStreams(), reconnection });
  const c = gen.createClient(transport, { clientInfo: { name, version: '1' }, capabilities: { elicitation: {} } });
  c.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name } }));
  await c.connect();
  return { c, transport };
}

const textOf = (result: Json): string => result.content[0].text;
const call = async (c: any, name: string, args: Json = {}, options: Json = {}) =>
  textOf(await c.tools.call({ name, arguments: args }, { timeout: 10_000, ...options }));

/** Requests of each tool the nodes served, summed. */
async function served(): Promise<Record<string, number>> {
  const sums: Record<string, number> = {};
  for (const n of nodes) for (const [k, v] of Object.entries((await n.debug()).served)) sums[k] = (sums[k] ?? 0) + v;
  return sums;
}

/** A raw POST of one request to one node, in a session (with a bearer token when given). */
async function post(
  base: string,
  sessionId: string,
  body: Json,
  token?: string,
  accept = 'application/json',
): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...body }),
  });
}

/** The id of the first event (the priming one) of a GET stream opened on `base`; the stream is then dropped. */
async function primingId(base: string, sessionId: string): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(`${base}/mcp`, {
    headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  let text = '';
  const decoder = new TextDecoder();
  let id: string | undefined;
  for await (const chunk of response.body!) {
    text += decoder.decode(chunk as Uint8Array, { stream: true });
    id = /^id: ?(.+)$/m.exec(text)?.[1];
    if (id !== undefined) break;
  }
  controller.abort();
  if (id === undefined) throw new Error('the stream ended without an event id');
  return id;
}

/**
 * A TCP proxy to a node whose connections can be cut half-open: `cut()` stops forwarding, drops the client's
 * side and leaves the node's side open and unread, so the node sees no FIN and keeps writing into it.
 */
async function cuttableProxy(port: number): Promise<{ url: string; cut: () => void; close: () => Promise<void> }> {
  const pairs: Array<[Socket, Socket]> = [];
  const server = createNetServer((client) => {
    const upstream = netConnect(port, '127.0.0.1');
    for (const s of [client, upstream]) s.on('error', () => undefined);
    client.pipe(upstream);
    upstream.pipe(client);
    pairs.push([client, upstream]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`,
    cut: () => {
      for (const [client, upstream] of pairs) {
        upstream.unpipe(client);
        client.unpipe(upstream);
        upstream.pause();
        client.destroy();
      }
    },
    close: async () => {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** POSTs `body` to `base` until it is not 503 (Redis coming back), up to a few seconds. */
async function postWhileUnavailable(base: string, sessionId: string, body: Json): Promise<Response> {
  for (let tries = 0; ; tries++) {
    const response = await post(base, sessionId, body);
    if (response.status !== 503 || tries > 100) return response;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Replaces a killed node by a new process on the same port (HAProxy sends it traffic again). */
async function restart(index: number): Promise<void> {
  const old = nodes[index]!;
  nodes[index] = await startNode(script, redis.url, old.id, old.port);
}

describe('three nodes behind HAProxy, state in Redis', () => {
  it('20 clients: every call answered once, by the call it belongs to, on every node; elicitations cross nodes', async () => {
    const before = await served();
    const clients = await Promise.all(Array.from({ length: 20 }, (_, i) => client(`c${i}`)));
    const results = await Promise.all(
      clients.map(async ({ c }, i) => {
        const answers: string[] = [];
        for (let round = 0; round < 5; round++) {
          const texts = Array.from({ length: 10 }, (_, j) => `c${i}-${round}-${j}`);
          const got = await Promise.all(texts.map((t) => call(c, 'echo', { text: t })));
          got.forEach((g, j) => expect(g.split('|')[0]).toBe(texts[j]));
          answers.push(...got);
        }
        answers.push(await call(c, 'ask'));
        return answers;
      }),
    );
    const after = await served();
    expect((after['echo'] ?? 0) - (before['echo'] ?? 0)).toBe(1000); // none lost, none served twice
    expect((after['ask'] ?? 0) - (before['ask'] ?? 0)).toBe(20);
    const byNode = new Set(results.flat().map((t) => t.split('|')[1]));
    expect(byNode).toEqual(new Set(['n1', 'n2', 'n3']));
    results.forEach((answers, i) => expect(answers.at(-1)).toMatch(new RegExp(`^c${i}\\|n[123]$`)));
    await Promise.all(clients.map(({ c }) => c.close()));
  }, 30_000);

  it('the official SDK clients, v1 and v2: calls and an elicitation across the nodes', async () => {
    const v1 = new SdkClient({ name: 'sdk1', version: '1' }, { capabilities: { elicitation: {} } });
    v1.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'sdk1' } }));
    await v1.connect(new SdkHttp(new URL(lb.url)));
    const v2 = new V2Client({ name: 'sdk2', version: '2' }, { capabilities: { elicitation: {} } });
    v2.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'sdk2' } }));
    await v2.connect(new V2Http(new URL(lb.url)));
    try {
      for (const [name, c] of [
        ['sdk1', v1],
        ['sdk2', v2],
      ] as const) {
        const texts = await Promise.all(
          Array.from({ length: 9 }, async (_, i) =>
            textOf((await c.callTool({ name: 'echo', arguments: { text: `${name}-${i}` } })) as Json),
          ),
        );
        texts.forEach((t, i) => expect(t).toMatch(new RegExp(`^${name}-${i}\\|n[123]$`)));
        expect(new Set(texts.map((t) => t.split('|')[1])).size).toBe(3);
        const asked = textOf((await c.callTool({ name: 'ask', arguments: {} })) as Json);
        expect(asked).toMatch(new RegExp(`^${name}\\|n[123]$`));
      }
    } finally {
      await Promise.all([v1.close(), v2.close()]);
    }
  }, 20_000);

  it('a session deleted through one node is gone on every node and from Redis', async () => {
    const { c, transport } = await client('deleted');
    const id: string = transport.sessionId;
    const holders = async () =>
      (await Promise.all(nodes.map(async (n) => (await n.debug()).sessions.includes(id)))).filter(Boolean).length;
    // HAProxy spreads the calls over the nodes, but not in any promised order: call until two hold the session.
    for (let round = 0; round < 10 && (await holders()) < 2; round++) {
      await Promise.all(Array.from({ length: 6 }, (_, i) => call(c, 'echo', { text: String(i) })));
    }
    expect(await holders()).toBeGreaterThan(1);
    await c.close(); // DELETE through HAProxy: one node
    for (const n of nodes) expect((await post(n.base, id, { id: 1, method: 'ping' })).status).toBe(404);
    const r = createClient({ url: redis.url });
    await r.connect();
    try {
      expect(await r.get(`mcp:session:${id}`)).toBeNull();
    } finally {
      await r.quit();
    }
  });

  it('kill -9 of the node holding the standalone stream: the client resumes on another and gets every event once, in order', async () => {
    const { c, transport } = await client('resumer');
    const got: number[] = [];
    c.setNotificationHandler('notifications/message', (p: Json) => void got.push(p.data.i));
    const id: string = transport.sessionId;
    let holder = -1;
    for (let tries = 0; holder < 0 && tries < 100; tries++) {
      const streams = await Promise.all(nodes.map(async (n) => (await n.debug()).streams.includes(id)));
      holder = streams.indexOf(true);
      if (holder < 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(holder).toBeGreaterThanOrEqual(0);
    const sender = nodes[(holder + 1) % 3]!;
    // The notifications are sent on another node, while the holder dies partway through.
    const announced = post(sender.base, id, {
      id: 7,
      method: 'tools/call',
      params: { name: 'announce', arguments: { count: 40, gapMs: 20 } },
    });
    await eventually(() => got.length >= 10);
    await nodes[holder]!.kill();
    try {
      expect((await announced).status).toBe(200);
      await eventually(() => got.length >= 40);
      await new Promise((r) => setTimeout(r, 100)); // nothing more may come
      expect(got).toEqual(Array.from({ length: 40 }, (_, i) => i));
      await c.close();
    } finally {
      await restart(holder); // the next tests need three nodes, whatever happened here
    }
  }, 20_000);

  it('a call whose node is killed mid-call fails at the client with a clear error', async () => {
    const { c } = await client('orphan');
    let runner = '';
    const pending = c.tools.call(
      { name: 'slow', arguments: { ms: 5000 } },
      { timeout: 15_000, onProgress: (p: Json) => void (runner = p.message) },
    );
    await eventually(() => runner !== '');
    const index = nodes.findIndex((n) => n.id === runner);
    await nodes[index]!.kill();
    try {
      await expect(pending).rejects.toThrow(/process running this request stopped before answering/);
      await c.close();
    } finally {
      await restart(index);
    }
  }, 20_000);

  it('Redis restarted under load: clear errors while it is down, then service again without restarting a node', async () => {
    const clients = await Promise.all(Array.from({ length: 5 }, (_, i) => client(`load${i}`)));
    const outcomes: string[] = [];
    let running = true;
    const load = clients.map(async ({ c }, i) => {
      for (let k = 0; running; k++) {
        try {
          const t = await call(c, 'echo', { text: `l${i}-${k}` }, { timeout: 5000 });
          outcomes.push(t.startsWith(`l${i}-${k}|`) ? 'ok' : `mismatch ${t}`);
        } catch (error) {
          outcomes.push(`error ${(error as Error).message}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    });
    await new Promise((r) => setTimeout(r, 300));
    await redis.down();
    // A new session cannot be recorded: the client is told so.
    const refused = await client('during').then(
      ({ c }) => (c.close(), 'connected'),
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/the session could not be stored \(.*offline/);
    await new Promise((r) => setTimeout(r, 300));
    await redis.up();
    await new Promise((r) => setTimeout(r, 500));
    running = false;
    await Promise.all(load);
    expect(outcomes.filter((o) => o.startsWith('mismatch'))).toEqual([]);
    const errors = outcomes.filter((o) => o.startsWith('error'));
    for (const e of errors) expect(e).toMatch(/Service Unavailable|session store|Session not found|404|503/);
    expect(outcomes.filter((o) => o === 'ok').length).toBeGreaterThan(10);
    await Promise.all(clients.map(({ c }) => c.close().catch(() => undefined)));
    // Recovery: new sessions, served by every node, elicitations across them, with no node restarted.
    const fresh = await Promise.all(Array.from({ length: 3 }, (_, i) => client(`after${i}`)));
    const texts = (
      await Promise.all(
        fresh.map(({ c }) => Promise.all(Array.from({ length: 6 }, () => call(c, 'echo', { text: 'x' })))),
      )
    ).flat();
    expect(new Set(texts.map((t) => t.split('|')[1]))).toEqual(new Set(['n1', 'n2', 'n3']));
    for (const { c } of fresh) expect(await call(c, 'ask')).toMatch(/^after\d\|n[123]$/);
    await Promise.all(fresh.map(({ c }) => c.close()));
  }, 30_000);
});

describe('issue 46: what measurement missed', () => {
  it('a half-open cut of the standalone stream: the client resumes on another node, which takes it over; every event arrives once, in order', async () => {
    const [holder, other] = [nodes[0]!, nodes[1]!];
    const proxy = await cuttableProxy(holder.port);
    let resumedOn = '';
    // The standalone GET goes to the holder through the proxy, its resumption to the other node, POSTs anywhere.
    const route = (_input: unknown, init?: RequestInit) => {
      if (init?.method !== 'GET') return fetch(lb.url, init);
      if (!new Headers(init.headers).has('last-event-id')) return fetch(proxy.url, init);
      resumedOn = other.id;
      return fetch(`${other.base}/mcp`, init);
    };
    const transport = new gen.StreamableHttpClientTransport(lb.url, {
      streams: gen.sessionStreams(),
      reconnection: { initialDelayMs: 50, maxRetries: 10 },
      fetch: route,
    });
    const c = gen.createClient(transport, { clientInfo: { name: 'half-open', version: '1' } });
    const got: number[] = [];
    c.setNotificationHandler('notifications/message', (p: Json) => void got.push(p.data.i));
    await c.connect();
    try {
      const id: string = transport.sessionId;
      for (let tries = 0; !(await holder.debug()).streams.includes(id); tries++) {
        if (tries > 200) throw new Error('the holder never opened the stream');
        await new Promise((r) => setTimeout(r, 20));
      }
      // The holder itself sends the notifications, and keeps writing them to the dead connection after the cut.
      const announced = post(holder.base, id, {
        id: 7,
        method: 'tools/call',
        params: { name: 'announce', arguments: { count: 40, gapMs: 20 } },
      });
      await eventually(() => got.length >= 10);
      proxy.cut();
      expect((await announced).status).toBe(200);
      await eventually(() => got.length >= 40);
      await new Promise((r) => setTimeout(r, 100)); // nothing more may come
      expect(got).toEqual(Array.from({ length: 40 }, (_, i) => i));
      expect(resumedOn).toBe(other.id);
    } finally {
      await c.close().catch(() => undefined);
      await proxy.close();
    }
  }, 20_000);

  it('Redis restarted empty: the node holding a session writes it back, and the other nodes serve it', async () => {
    const transport = new gen.StreamableHttpClientTransport(`${nodes[0]!.base}/mcp`);
    const c = gen.createClient(transport, { clientInfo: { name: 'kept', version: '1' } });
    await c.connect();
    try {
      expect(await call(c, 'echo', { text: 'before' })).toBe('before|n1');
      const id: string = transport.sessionId;
      const listeners = async (client: { pubSubNumSub(channel: string): Promise<Record<string, number>> }) =>
        (await client.pubSubNumSub('mcp:bus:all'))['mcp:bus:all'];
      const before = createClient({ url: redis.url });
      await before.connect();
      const listening = await listeners(before);
      await before.quit();
      await redis.down();
      await redis.up(); // no persistence: empty
      const r = createClient({ url: redis.url });
      r.on('error', () => undefined);
      await r.connect();
      // Once the nodes listen on the bus again (node-redis resubscribes by itself).
      for (let tries = 0; (await listeners(r)) !== listening; tries++) {
        if (tries > 200) throw new Error('the nodes never listened again');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      for (const n of nodes.slice(1)) {
        const response = await postWhileUnavailable(n.base, id, { id: 3, method: 'ping' });
        expect(response.status).toBe(200);
      }
      expect(JSON.parse((await r.get(`mcp:session:${id}`)) ?? '{}').id).toBe(id);
      await r.quit();
      expect(await call(c, 'echo', { text: 'after' })).toBe('after|n1');
    } finally {
      await c.close().catch(() => undefined);
    }
  }, 20_000);

  it('a resumption from an event Redis no longer has is answered 404, never 200 with nothing', async () => {
    const transport = new gen.StreamableHttpClientTransport(`${nodes[0]!.base}/mcp`);
    const c = gen.createClient(transport, { clientInfo: { name: 'trimmed', version: '1' } });
    await c.connect();
    const r = createClient({ url: redis.url });
    await r.connect();
    try {
      const id: string = transport.sessionId;
      const primed = await primingId(nodes[0]!.base, id);
      expect(primed).not.toContain(id); // no event id carries the session id
      for (const key of await r.keys('mcp:events:*')) await r.del(key); // expired
      for (const n of nodes.slice(0, 2)) {
        const response = await fetch(`${n.base}/mcp`, {
          headers: {
            accept: 'text/event-stream',
            'mcp-session-id': id,
            'mcp-protocol-version': '2025-11-25',
            'last-event-id': primed,
          },
        });
        expect(response.status).toBe(404);
        expect(await response.text()).toContain('Unknown or expired Last-Event-ID');
      }
    } finally {
      await r.quit();
      await c.close().catch(() => undefined);
    }
  }, 20_000);

  it('a call answered at once costs Redis no command; a longer one still opens with a stored priming event', async () => {
    // Issue 46 item 3: a quick call's answer is its stream's first and last event, written to the connected
    // client, so nothing is stored for it (no priming event, no copy of the answer, nothing to delete).
    const transport = new gen.StreamableHttpClientTransport(`${nodes[0]!.base}/mcp`);
    const c = gen.createClient(transport, { clientInfo: { name: 'cheap', version: '1' } });
    await c.connect();
    const r = createClient({ url: redis.url });
    await r.connect();
    const processed = async () => Number(/total_commands_processed:(\d+)/.exec(await r.info('stats'))?.[1]);
    try {
      await call(c, 'echo', { text: 'warm' });
      const before = await processed();
      for (let i = 0; i < 50; i++) expect(await call(c, 'echo', { text: String(i) })).toBe(`${i}|n1`);
      // One INFO is the counter's own; the session's expiry is pushed on at most once a quarter of its timeout.
      expect((await processed()) - before - 1).toBeLessThanOrEqual(2);
      // A call that runs past one turn of the event loop: its stream opens with a priming event, stored.
      const id: string = transport.sessionId;
      const res = await post(
        nodes[0]!.base,
        id,
        { id: 7, method: 'tools/call', params: { name: 'slow', arguments: { ms: 100 } } },
        undefined,
        'application/json, text/event-stream',
      );
      const events = (await res.text()).split('\n\n').filter((e) => e.trim() !== '');
      expect(events[0]).toMatch(/^id: \S+$/m); // the priming event: an id, no message
      expect(events[0]).not.toContain('event: message');
      expect(events.at(-1)).toContain('"id":7');
    } finally {
      await r.quit();
      await c.close().catch(() => undefined);
    }
  }, 20_000);

  it('a session kept busy only by an open stream or a long call outlives the idle timeout on every node', async () => {
    process.env['MCP_IDLE_MS'] = '600';
    const short = await Promise.all(['e1', 'e2'].map((id) => startNode(script, redis.url, id)));
    delete process.env['MCP_IDLE_MS'];
    const streaming = new gen.StreamableHttpClientTransport(`${short[0]!.base}/mcp`, { streams: gen.sessionStreams() });
    const calling = new gen.StreamableHttpClientTransport(`${short[0]!.base}/mcp`);
    const [s, l] = [streaming, calling].map((t) => gen.createClient(t, { clientInfo: { name: 'busy', version: '1' } }));
    try {
      await Promise.all([s.connect(), l.connect()]);
      // Three idle timeouts: one session with its GET stream open, the other with a call running.
      expect(await call(l, 'slow', { ms: 1800 })).toBe('e1');
      for (const t of [streaming, calling]) {
        expect((await post(short[1]!.base, t.sessionId, { id: 9, method: 'ping' })).status).toBe(200);
      }
    } finally {
      await Promise.all([s.close(), l.close()].map((p) => p.catch(() => undefined)));
      await Promise.all(short.map((n) => n.stop()));
    }
  }, 20_000);
});

describe('two nodes with auth, state in Redis', () => {
  it("a session is its opener's on every node: another identity gets 404, the opener is served; Redis holds a hash", async () => {
    const resource = 'https://mcp.cluster.test/mcp';
    const [alice, bob] = [machineClient('alice'), machineClient('bob')];
    const as = await startAuthorizationServer({
      resources: { [resource]: { scopes: ['mcp:read'] } },
      clients: [alice, bob],
    });
    const gated = await Promise.all(
      ['a1', 'a2'].map((id) => startNode(script, redis.url, id, 0, [as.issuer, resource])),
    );
    const redisClient = createClient({ url: redis.url });
    await redisClient.connect();
    try {
      const tokenOf = async (who: typeof alice) =>
        (await clientCredentials(as.issuer, who, { resource, scope: 'mcp:read' })).access_token;
      const [alices, bobs] = await Promise.all([tokenOf(alice), tokenOf(bob)]);
      const transport = new gen.StreamableHttpClientTransport(`${gated[0]!.base}/mcp`, {
        headers: { authorization: `Bearer ${alices}` },
      });
      const c = gen.createClient(transport, { clientInfo: { name: 'alice', version: '1' } });
      await c.connect();
      expect(await call(c, 'whoami')).toBe('alice|a1');
      const sessionId: string = transport.sessionId;
      const record = JSON.parse((await redisClient.get(`mcp:session:${sessionId}`)) ?? '{}');
      expect(record.owner).toMatch(/^[\w-]{43}$/);
      const whoami = { id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } };
      const asBob = async (node: Node) => (await post(node.base, sessionId, whoami, bobs)).status;
      // Refused on the node that holds it and on the one that would restore it from Redis; then the opener's own
      // request restores it on a2, where the other identity is still refused.
      expect(await asBob(gated[0]!)).toBe(404);
      expect(await asBob(gated[1]!)).toBe(404);
      const onA2 = await post(
        gated[1]!.base,
        sessionId,
        { id: 2, method: 'tools/call', params: { name: 'whoami' } },
        alices,
      );
      expect(onA2.status).toBe(200);
      expect(JSON.stringify(await onA2.json())).toContain('alice|a2');
      expect(await asBob(gated[1]!)).toBe(404);
      await c.close();
    } finally {
      await redisClient.quit();
      await Promise.all(gated.map((n) => n.stop()));
      await as.close();
    }
  }, 30_000);
});
