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
    const fetchImpl = (_input: unknown, init?: RequestInit) =>
      fetch(init?.method === 'GET' ? urls[0]! : urls[1]!, init);
    const c = await client(urls, fetchImpl);
    const got: Json[] = [];
    c.setNotificationHandler('notifications/message', (p: Json) => void got.push(p.data));
    await new Promise((r) => setTimeout(r, 50)); // the GET stream opens after initialized
    expect(await called(c, 'announce', { count: 20 })).toBe('b');
    await eventually(() => got.length === 20);
    expect(got.map((d) => d.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(got.every((d) => d.node === 'b')).toBe(true);
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
