/**
 * Issue 31, in one process: two Streamable HTTP endpoints ("nodes") of one generated 2025-11-25 server share
 * an InMemorySessionStore, an InMemoryMessageBus and an event store, and the client's requests alternate
 * between them (its fetch round-robins, as a load balancer without affinity would). Any node serves any
 * request: a session opened on one is served by the other without a second initialize; an elicitation's
 * answer POSTed to the other node reaches the waiting handler; a cancellation reaches the node running the
 * call; a notification sent on one node reaches the standalone stream held by the other; DELETE and expiry end
 * the session on both. The same with real processes, Redis and HAProxy: test/interop/cluster-redis.test.ts.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createStreamableHttpServer,
  InMemoryMessageBus,
  InMemorySessionStore,
  type MessageBus,
  type SessionStore,
} from '@mcp-typegen/runtime/node';
import { InMemoryEventStore } from '@mcp-typegen/runtime';
import { built, importBuilt } from '../client/helpers/build.js';
import { eventually } from '../helpers/eventually.js';
import { listen } from './helpers/http.js';

type Json = Record<string, any>;
let gen: any;
beforeAll(async () => {
  gen = await importBuilt(await built('2025-11-25'), 'index.js');
});

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** What the nodes' handlers saw. */
interface Seen {
  aborted: string[];
  initializes: number;
}

/** The tools: `whoami` names the node; `ask` elicits; `wait` ends when cancelled; `announce` notifies unrelated. */
function handlers(node: string, seen: Seen, server: () => any) {
  return {
    'tools/list': () => ({ tools: [] }),
    'tools/call': async (params: Json, ctx: any) => {
      if (params.name === 'whoami') return text(node);
      if (params.name === 'log') {
        for (const level of ['info', 'error']) await ctx.notify('notifications/message', { level, data: node });
        return text(node);
      }
      if (params.name === 'ask') {
        const answer = await ctx.request('elicitation/create', {
          message: 'name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        });
        return text(`${answer.content.name}|${node}`);
      }
      if (params.name === 'wait') {
        return new Promise((resolve) =>
          ctx.signal.addEventListener('abort', () => {
            seen.aborted.push(node);
            resolve(text('aborted'));
          }),
        );
      }
      const id = ctx.extra?.requestInfo?.headers['mcp-session-id'];
      const entry = [...server().sessions].find((s: any) => s.peer.transport.sessionId === id);
      for (let i = 0; i < params.arguments.count; i++) {
        await entry.peer.notify('notifications/message', { level: 'info', data: { i, node } });
      }
      return text(node);
    },
    'logging/setLevel': () => ({}),
    'notifications/initialized': () => void seen.initializes++,
  };
}

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

/** Two nodes sharing the given state; returns their URLs and what they saw. */
async function cluster(
  state: { sessionStore: SessionStore; bus: MessageBus; eventStore: InMemoryEventStore },
  options: Json = {},
) {
  const seen: Seen = { aborted: [], initializes: 0 };
  const urls: string[] = [];
  const handles: any[] = [];
  for (const node of ['a', 'b']) {
    const server: any = gen.createServer(
      handlers(node, seen, () => server),
      { serverInfo: { name: 'cluster', version: '1' } },
    );
    const handler = createStreamableHttpServer({ server, ...state, nodeId: node, keepAliveMs: 0, ...options });
    const http = await listen(handler);
    handles.push(handler);
    cleanups.push(async () => {
      await handler.close();
      await http.close();
    });
    urls.push(`${http.url}/mcp`);
  }
  return { urls, seen, handles };
}

function shared() {
  return {
    sessionStore: new InMemorySessionStore(),
    bus: new InMemoryMessageBus(),
    eventStore: new InMemoryEventStore(),
  };
}

/** A fetch that sends each request to the next node in turn. */
function roundRobin(urls: string[]) {
  let next = 0;
  return (_input: unknown, init?: RequestInit) => fetch(urls[next++ % urls.length] ?? '', init);
}

async function client(urls: string[], fetchImpl = roundRobin(urls), streams = true) {
  const transport = new gen.StreamableHttpClientTransport(urls[0], {
    fetch: fetchImpl,
    ...(streams ? { streams: gen.sessionStreams() } : {}),
  });
  const c = gen.createClient(transport, {
    clientInfo: { name: 'rr', version: '1' },
    capabilities: { elicitation: {} },
  });
  c.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'ada' } }));
  await c.connect();
  cleanups.push(() => c.close());
  return c;
}

const called = async (c: any, name: string, args: Json = {}) =>
  (await c.tools.call({ name, arguments: args })).content[0].text as string;

describe('two nodes, one session store and bus, requests alternating', () => {
  it('a session opened on one node is served by the other, with no second initialize', async () => {
    const { urls, seen } = await cluster(shared());
    const c = await client(urls, roundRobin(urls), false);
    const nodes = await Promise.all(Array.from({ length: 8 }, () => called(c, 'whoami')));
    expect(new Set(nodes)).toEqual(new Set(['a', 'b']));
    expect(seen.initializes).toBe(1);
  });

  it('an elicitation whose answer is POSTed to the other node reaches the waiting handler', async () => {
    const { urls } = await cluster(shared());
    const c = await client(urls, roundRobin(urls), false);
    const answers = await Promise.all(Array.from({ length: 6 }, () => called(c, 'ask')));
    expect(answers.every((a) => /^ada\|[ab]$/.test(a))).toBe(true);
    expect(new Set(answers)).toEqual(new Set(['ada|a', 'ada|b']));
  });

  it('a cancellation POSTed to the other node cancels the call where it runs', async () => {
    const { urls, seen } = await cluster(shared());
    const c = await client(urls, roundRobin(urls), false);
    const controller = new AbortController();
    const call = c.tools.call({ name: 'wait', arguments: {} }, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await expect(call).rejects.toThrow();
    await eventually(() => seen.aborted.length === 1);
  });

  it('notifications a node sends reach the standalone stream held by the other node, in order', async () => {
    const state = shared();
    const { urls } = await cluster(state);
    // The standalone GET goes to node a; every POST to node b.
    let opened = false;
    const fetchImpl = async (_input: unknown, init?: RequestInit) => {
      const response = await fetch(init?.method === 'GET' ? urls[0]! : urls[1]!, init);
      if (init?.method === 'GET' && response.ok) opened = true;
      return response;
    };
    const c = await client(urls, fetchImpl);
    const got: Json[] = [];
    c.setNotificationHandler('notifications/message', (p: Json) => void got.push(p.data));
    // The GET stream opens after initialized; node a answers it once it listens for what node b sends.
    await eventually(() => opened);
    expect(await called(c, 'announce', { count: 20 })).toBe('b');
    await eventually(() => got.length === 20);
    expect(got.map((d) => d.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(got.every((d) => d.node === 'b')).toBe(true);
  });

  it('a log level set through one node applies on the other node too', async () => {
    const { urls } = await cluster(shared());
    const c = await client(urls, roundRobin(urls), false);
    const logs: string[] = [];
    c.setNotificationHandler('notifications/message', (p: Json) => void logs.push(`${p.level}@${p.data}`));
    await Promise.all([called(c, 'whoami'), called(c, 'whoami')]); // both nodes hold the session
    await c.logging.setLevel({ level: 'error' });
    const nodes = await Promise.all([called(c, 'log'), called(c, 'log')]);
    expect(new Set(nodes)).toEqual(new Set(['a', 'b']));
    expect(logs.sort()).toEqual(['error@a', 'error@b']);
  });

  it('DELETE on one node ends the session on both; the store forgets it', async () => {
    const state = shared();
    const { urls, handles } = await cluster(state);
    const c = await client(urls, roundRobin(urls), false);
    await Promise.all([called(c, 'whoami'), called(c, 'whoami')]);
    const id: string = handles[0].sessions.keys().next().value;
    expect(handles.map((h) => h.sessions.has(id))).toEqual([true, true]);
    const res = await fetch(urls[0]!, { method: 'DELETE', headers: { 'mcp-session-id': id } });
    expect(res.status).toBe(200);
    await eventually(() => handles.every((h) => h.sessions.size === 0));
    expect(await state.sessionStore.get(id)).toBeUndefined();
    for (const url of urls) {
      const after = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-session-id': id },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
      });
      expect(after.status).toBe(404);
    }
  });

  it('a session that expires (no activity on any node) ends on both', async () => {
    const state = shared();
    const { urls, handles } = await cluster(state, { sessionIdleTimeoutMs: 300 });
    const c = await client(urls, roundRobin(urls), false);
    await Promise.all([called(c, 'whoami'), called(c, 'whoami')]);
    expect(handles.map((h) => h.sessions.size)).toEqual([1, 1]);
    const id: string = handles[0].sessions.keys().next().value;
    await eventually(() => handles.every((h) => h.sessions.size === 0), 3000);
    expect(await state.sessionStore.get(id)).toBeUndefined();
  });
});

/** A raw POST of one request to one node, in a session, answered as JSON. */
const rawPost = (url: string, sessionId: string, body: Json) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...body }),
  });

/** A session store whose writes fail while `failing` is set (a store that is down). */
class FlakyStore extends InMemorySessionStore {
  failing = false;
  override async put(record: Parameters<InMemorySessionStore['put']>[0]): Promise<void> {
    if (this.failing) throw new Error('store down');
    return super.put(record);
  }
}

/** A bus whose first subscription to `all` fails (the bus answers one subscription, not the other). */
class HalfReadyBus extends InMemoryMessageBus {
  failed = false;
  override async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    if (channel === 'all' && !this.failed) {
      this.failed = true;
      throw new Error('subscribe failed');
    }
    return super.subscribe(channel, listener);
  }
}

/**
 * An event store that, like Redis's, names the stream of any id it could have made (`<stream>.<n>`), kept or not:
 * only the replay finds out that the event is gone.
 */
class ForgetfulEventStore extends InMemoryEventStore {
  override getStreamIdForEventId(eventId: string): string | undefined {
    const dot = eventId.lastIndexOf('.');
    return dot > 0 ? eventId.slice(0, dot) : undefined;
  }
}

describe('issue 46: the cluster where it broke', () => {
  it('a POST stream resumed on another node from an event the store trimmed is answered 404, not 200 with nothing', async () => {
    // One event kept per stream: the priming event is gone once the first notification is stored.
    const { urls, handles } = await cluster({ ...shared(), eventStore: new ForgetfulEventStore(1) });
    const c = await client([urls[0]!], undefined, false);
    expect(await called(c, 'whoami')).toBe('a');
    const id: string = handles[0].sessions.keys().next().value;
    const call = await fetch(urls[0]!, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'tools/call', params: { name: 'log', arguments: {} } }),
    });
    const text = await call.text();
    const primed = /^id: ?(.+)$/m.exec(text)?.[1];
    expect(primed).toBeDefined();
    const resumed = await fetch(urls[1]!, {
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': id,
        'mcp-protocol-version': '2025-11-25',
        'last-event-id': primed!,
      },
    });
    expect(resumed.status).toBe(404);
    expect(await resumed.text()).toContain('Unknown or expired Last-Event-ID');
  });

  it('a log level the store could not record is not applied: the session stays as it was', async () => {
    const state = { ...shared(), sessionStore: new FlakyStore() };
    const { urls } = await cluster(state);
    const c = await client([urls[0]!], undefined, false);
    const logs: string[] = [];
    c.setNotificationHandler('notifications/message', (p: Json) => void logs.push(p.level));
    state.sessionStore.failing = true;
    await expect(c.logging.setLevel({ level: 'error' })).rejects.toThrow(/could not be stored/);
    state.sessionStore.failing = false;
    expect(await called(c, 'log')).toBe('a');
    expect(logs).toEqual(['info', 'error']);
  });

  it('a subscription to the bus that failed beside one that succeeded is undone: nothing listens after close', async () => {
    const bus = new HalfReadyBus();
    const { urls, handles } = await cluster({ ...shared(), bus });
    const init = (url: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        }),
      });
    expect((await init(urls[0]!)).status).toBe(503);
    expect((await init(urls[0]!)).status).toBe(200);
    await Promise.all(handles.map((h) => h.close()));
    expect(bus.channelCount).toBe(0);
  });

  it('an unreadable or incomplete bus message is dropped; the nodes serve on', async () => {
    const state = shared();
    const logged: string[] = [];
    const { urls, handles } = await cluster(state, { log: (m: string) => void logged.push(m) });
    const c = await client(urls, roundRobin(urls), false);
    await Promise.all([called(c, 'whoami'), called(c, 'whoami')]);
    const id: string = handles[0].sessions.keys().next().value;
    for (const channel of ['all', 'node:a', 'node:b']) {
      for (const raw of ['not json', '{"t":"msg","s":"x"}', JSON.stringify({ t: 'msg', s: id }), '{"t":"end"}', '[]']) {
        await state.bus.publish(channel, raw);
      }
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(logged.filter((m) => m.includes('unreadable bus message'))).toHaveLength(15 * 2 - 10); // `node:` ones reach one node
    expect(new Set(await Promise.all([called(c, 'whoami'), called(c, 'whoami')]))).toEqual(new Set(['a', 'b']));
  });

  it('a node that closes leaves its sessions to the others: the store keeps them and the other node serves them', async () => {
    const state = shared();
    const { urls, handles } = await cluster(state);
    const c = await client(urls, roundRobin(urls), false);
    await Promise.all([called(c, 'whoami'), called(c, 'whoami')]);
    const id: string = handles[0].sessions.keys().next().value;
    await handles[0].close();
    await new Promise((r) => setTimeout(r, 20));
    expect(await state.sessionStore.get(id)).toBeDefined();
    expect(handles[1].sessions.has(id)).toBe(true);
    expect((await rawPost(urls[1]!, id, { id: 5, method: 'ping' })).status).toBe(200);
  });

  it('a session kept busy by an open stream on one node outlives the idle timeout; the other node serves it', async () => {
    const state = shared();
    const { urls, handles } = await cluster(state, { sessionIdleTimeoutMs: 300 });
    // The standalone GET goes to node a, every POST too; then nothing but the open stream for four timeouts.
    let opened = false;
    const fetchImpl = async (_input: unknown, init?: RequestInit) => {
      const response = await fetch(urls[0]!, init);
      if (init?.method === 'GET' && response.ok) opened = true;
      return response;
    };
    const c = await client(urls, fetchImpl);
    await eventually(() => opened);
    const id: string = handles[0].sessions.keys().next().value;
    await new Promise((r) => setTimeout(r, 1200));
    expect(handles[0].sessions.has(id)).toBe(true);
    expect((await rawPost(urls[1]!, id, { id: 5, method: 'ping' })).status).toBe(200);
    expect(await called(c, 'whoami')).toBe('a');
  });

  it('a session the store lost (restarted empty) is written back by the node holding it; the other node serves it', async () => {
    const state = shared();
    const { urls, handles } = await cluster(state);
    const c = await client([urls[0]!], undefined, false);
    expect(await called(c, 'whoami')).toBe('a');
    const id: string = handles[0].sessions.keys().next().value;
    await state.sessionStore.delete(id);
    expect((await rawPost(urls[1]!, id, { id: 5, method: 'ping' })).status).toBe(200);
    expect((await state.sessionStore.get(id))?.id).toBe(id);
    // Another session id nobody holds is still unknown.
    expect((await rawPost(urls[1]!, 'nobody', { id: 6, method: 'ping' })).status).toBe(404);
  });
});

describe('2026-07-28 (sessionless) on two nodes', () => {
  const V = '2026-07-28';
  let g: any;
  beforeAll(async () => {
    g = await importBuilt(await built(V), 'index.js');
  });

  /** A store and a bus that count what they are asked: sessionless requests must ask nothing. */
  function countedState() {
    const calls: string[] = [];
    const count = <T extends object>(target: T, name: string): T =>
      new Proxy(target, {
        get: (t, p, r) => {
          const value = Reflect.get(t, p, r);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => (calls.push(`${name}.${String(p)}`), value.apply(t, args));
        },
      });
    const bus = new InMemoryMessageBus();
    return { calls, bus, sessionStore: count(new InMemorySessionStore(), 'store'), countedBus: count(bus, 'bus') };
  }

  /** Two 2026-07-28 nodes; tools: `whoami`, `confirm` (an input round), `touch` (publishes a resource update on the app's bus channel). */
  async function nodes2026(state: ReturnType<typeof countedState>) {
    const urls: string[] = [];
    for (const node of ['a', 'b']) {
      const listeners = new Set<{ uris: string[]; ctx: any }>();
      // The app's own channel on the cluster's bus: an update made on any node reaches every node's listeners.
      const stop = await state.bus.subscribe('app:updated', (uri) => {
        for (const l of listeners) {
          if (l.uris.includes(uri))
            void l.ctx.notify('notifications/resources/updated', { uri, _meta: { [SUB]: l.ctx.id } });
        }
      });
      const server = g.createServer(
        {
          'tools/call': async (params: Json, ctx: any) => {
            if (params.name === 'whoami') return text(node);
            if (params.name === 'touch') {
              await state.bus.publish('app:updated', params.arguments.uri);
              return text(node);
            }
            const round = ctx.inputs(
              params,
              {
                ok: {
                  method: 'elicitation/create',
                  params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } },
                },
              },
              { requestState: node },
            );
            return round.complete ? text(`${round.requestState}->${node}`) : round.ask;
          },
          'subscriptions/listen': async (params: Json, ctx: any) => {
            const uris = params.notifications?.resourceSubscriptions ?? [];
            await ctx.notify('notifications/subscriptions/acknowledged', {
              _meta: { [SUB]: ctx.id },
              notifications: { resourceSubscriptions: uris },
            });
            const entry = { uris, ctx };
            listeners.add(entry);
            await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
            listeners.delete(entry);
            return { resultType: 'complete' };
          },
        },
        { serverInfo: { name: 'cluster26', version: '1' } },
      );
      const handler = createStreamableHttpServer({
        server,
        sessionStore: state.sessionStore,
        bus: state.countedBus,
        nodeId: node,
        keepAliveMs: 0,
      });
      const http = await listen(handler);
      cleanups.push(async () => {
        await stop();
        await handler.close();
        await http.close();
      });
      urls.push(`${http.url}/mcp`);
    }
    return urls;
  }

  const SUB = 'io.modelcontextprotocol/subscriptionId';

  async function client26(urls: string[]) {
    const c = g.createClient(new g.StreamableHttpClientTransport(urls[0], { fetch: roundRobin(urls) }), {
      clientInfo: { name: 'rr26', version: '1' },
      capabilities: { elicitation: {} },
      eraCache: new Map(),
    });
    c.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: {} }));
    await c.connect();
    cleanups.push(() => c.close());
    return c;
  }

  it('requests spread over both nodes, and ask nothing of the session store or the bus', async () => {
    const state = countedState();
    const urls = await nodes2026(state);
    const c = await client26(urls);
    expect(c.protocolVersion).toBe(V);
    const nodes = await Promise.all(Array.from({ length: 10 }, () => called(c, 'whoami')));
    expect(new Set(nodes)).toEqual(new Set(['a', 'b']));
    expect(state.calls).toEqual([]);
  });

  it('an input-required retry that lands on the other node completes', async () => {
    const urls = await nodes2026(countedState());
    const c = await client26(urls);
    const answer = await called(c, 'confirm');
    expect(['a->b', 'b->a']).toContain(answer);
  });

  it('a subscriptions/listen stream on one node receives a resource update made on the other', async () => {
    const state = countedState();
    const urls = await nodes2026(state);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': V,
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const headers = (method: string) => ({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': V,
      'mcp-method': method,
    });
    const abort = new AbortController();
    const stream = await fetch(urls[0]!, {
      method: 'POST',
      headers: headers('subscriptions/listen'),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'sub-1',
        method: 'subscriptions/listen',
        params: { _meta: meta, notifications: { resourceSubscriptions: ['file:///x'] } },
      }),
      signal: abort.signal,
    });
    cleanups.push(() => abort.abort());
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    const until = async (needle: string) => {
      while (!seen.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${needle}: ${seen}`);
        seen += value;
      }
    };
    await until('notifications/subscriptions/acknowledged');
    const touched = await fetch(urls[1]!, {
      method: 'POST',
      headers: { ...headers('tools/call'), 'mcp-name': 'touch' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { _meta: meta, name: 'touch', arguments: { uri: 'file:///x' } },
      }),
    });
    expect(await touched.json()).toMatchObject({ result: { content: [{ text: 'b' }] } });
    await until('notifications/resources/updated');
    expect(seen).toContain('"uri":"file:///x"');
    expect(seen).toContain(`"${SUB}":"sub-1"`);
  });
});

describe('legacy HTTP+SSE (2024-11-05) needs affinity', () => {
  it('a message POSTed to a node that does not hold its SSE stream is refused 404, never lost silently', async () => {
    const g = await importBuilt(await built('2025-11-25'), 'index.js');
    const { createSseLegacyServer } = await import('@mcp-typegen/runtime/node');
    const servers = await Promise.all(
      ['a', 'b'].map(async () => {
        const endpoint = createSseLegacyServer({
          onSession: (t: any) =>
            g
              .createServer({ 'tools/list': () => ({ tools: [] }) }, { serverInfo: { name: 'l', version: '1' } })
              .connect(t),
        });
        const http = await listen(endpoint);
        cleanups.push(async () => {
          await endpoint.close();
          await http.close();
        });
        return http.url;
      }),
    );
    const abort = new AbortController();
    cleanups.push(() => abort.abort());
    const sse = await fetch(`${servers[0]}/sse`, { headers: { accept: 'text/event-stream' }, signal: abort.signal });
    const reader = sse.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!/data: (\S+)/.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the SSE stream ended: ${text}`);
      text += value;
    }
    const endpoint = /data: (\S+)/.exec(text)![1]!;
    const elsewhere = await fetch(new URL(endpoint, servers[1]), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.text()).toMatch(/Session not found/);
    const here = await fetch(new URL(endpoint, servers[0]), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(here.status).toBe(202);
  });
});
