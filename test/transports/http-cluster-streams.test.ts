/**
 * The standalone stream of a session served by two nodes (issue 31), at the two moments where a real cluster
 * lost or doubled an event under load (test/interop/cluster-redis.test.ts, kill -9 of the holder), made
 * deterministic with a bus that holds what it is given:
 * - a node answers the GET only once it listens on the bus for the stream: a 200 means nothing another node
 *   sends from then on is missed;
 * - a resumption replays an event that another node stored but had not relayed yet: when the relayed copy
 *   arrives after the replay, it is not written a second time.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStreamableHttpServer, InMemoryMessageBus, InMemorySessionStore } from '@mcp-typegen/runtime/node';
import { InMemoryEventStore } from '@mcp-typegen/runtime';
import { built, importBuilt } from '../client/helpers/build.js';
import { eventually } from '../helpers/eventually.js';
import { listen, parseSse, sleep } from './helpers/http.js';

type Json = Record<string, any>;
const V = '2025-11-25';
let gen: any;
beforeAll(async () => {
  gen = await importBuilt(await built(V), 'index.js');
});

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * A bus that can hold subscriptions to the `stream:` channels, or the events relayed on them (not the nodes'
 * hand-over messages), until released.
 */
class HeldBus extends InMemoryMessageBus {
  holdSubscribe = false;
  holdPublish = false;
  readonly #held: Array<() => void> = [];

  release(): void {
    this.holdSubscribe = this.holdPublish = false;
    for (const go of this.#held.splice(0)) go();
  }

  #wait(hold: boolean, channel: string): Promise<void> {
    if (!hold || !channel.startsWith('stream:')) return Promise.resolve();
    return new Promise((resolve) => this.#held.push(resolve));
  }

  override async publish(channel: string, message: string): Promise<number> {
    await this.#wait(this.holdPublish && JSON.parse(message).t === 'ev', channel);
    return super.publish(channel, message);
  }

  override async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    await this.#wait(this.holdSubscribe, channel);
    return super.subscribe(channel, listener);
  }
}

/** Two nodes, `a` and `b`, sharing a store, an event store and `bus`; `announce` notifies on the session. */
async function twoNodes(bus: HeldBus): Promise<string[]> {
  const state = { sessionStore: new InMemorySessionStore(), eventStore: new InMemoryEventStore(), bus };
  const urls: string[] = [];
  for (const node of ['a', 'b']) {
    const server: any = gen.createServer(
      {
        'tools/call': async (params: Json, ctx: any) => {
          const id = ctx.extra?.requestInfo?.headers['mcp-session-id'];
          const entry = [...server.sessions].find((s: any) => s.peer.transport.sessionId === id);
          for (let i = 0; i < params.arguments.count; i++) {
            await entry.peer.notify('notifications/message', { level: 'info', data: { i, node } });
          }
          return { content: [{ type: 'text', text: node }] };
        },
      },
      { serverInfo: { name: 'streams', version: '1' } },
    );
    const handler = createStreamableHttpServer({ server, ...state, nodeId: node, keepAliveMs: 0 });
    const http = await listen(handler);
    cleanups.push(async () => {
      await handler.close();
      await http.close();
    });
    urls.push(`${http.url}/mcp`);
  }
  return urls;
}

const headers = (sessionId?: string, extra: Record<string, string> = {}): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': V,
  ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
  ...extra,
});

async function post(url: string, sessionId: string | undefined, body: Json): Promise<Response> {
  const response = await fetch(url, {
    method: 'POST',
    headers: headers(sessionId),
    body: JSON.stringify({ jsonrpc: '2.0', ...body }),
  });
  await response.text();
  return response;
}

/** An initialized session, opened on `url`. */
async function session(url: string): Promise<string> {
  const params = { protocolVersion: V, capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
  const opened = await post(url, undefined, { id: 1, method: 'initialize', params });
  const id = opened.headers.get('mcp-session-id')!;
  await post(url, id, { method: 'notifications/initialized' });
  return id;
}

const announce = (url: string, sessionId: string, count: number) =>
  post(url, sessionId, { id: 2, method: 'tools/call', params: { name: 'announce', arguments: { count } } });

/** A GET stream, read as it comes: its events so far, and a way to drop it. */
function openStream(url: string, sessionId: string, lastEventId?: string) {
  const controller = new AbortController();
  let text = '';
  const extra: Record<string, string> = lastEventId === undefined ? {} : { 'last-event-id': lastEventId };
  const response = fetch(url, { headers: headers(sessionId, extra), signal: controller.signal });
  const read = response.then(async (r) => {
    const decoder = new TextDecoder();
    for await (const chunk of r.body!) text += decoder.decode(chunk as Uint8Array, { stream: true });
  });
  read.catch(() => undefined);
  return {
    response,
    events: () => parseSse(text),
    messages: () =>
      parseSse(text)
        .filter((e) => e.data !== '')
        .map((e) => JSON.parse(e.data) as Json),
    close: () => controller.abort(),
  };
}

describe('the standalone stream on two nodes', () => {
  it('a node answers the GET only once it listens: what the other node sends after the 200 all arrives', async () => {
    const bus = new HeldBus();
    const [a, b] = await twoNodes(bus);
    const id = await session(a!);
    bus.holdSubscribe = true;
    const stream = openStream(a!, id);
    cleanups.push(stream.close);
    let answered = false;
    void stream.response.then(() => (answered = true));
    await sleep(100);
    expect(answered).toBe(false); // not listening yet: a 200 now could lose what b sends
    bus.release();
    expect((await stream.response).status).toBe(200);
    await announce(b!, id, 3);
    await eventually(() => stream.messages().length === 3, 3000);
    expect(stream.messages().map((m) => m.params.data)).toEqual([0, 1, 2].map((i) => ({ i, node: 'b' })));
  });

  it('an event replayed on resumption whose relayed copy comes after the replay is written once', async () => {
    const bus = new HeldBus();
    const [a, b] = await twoNodes(bus);
    const id = await session(a!);
    const first = openStream(a!, id);
    await eventually(() => first.events().some((e) => e.id !== undefined), 3000);
    const primed = first.events().find((e) => e.id !== undefined)!.id!;
    first.close();
    await sleep(50); // node a sees the client go
    bus.holdPublish = true; // b stores its event, but its relay waits
    await announce(b!, id, 1);
    const resumed = openStream(a!, id, primed);
    cleanups.push(resumed.close);
    await eventually(() => resumed.messages().length === 1, 3000); // the replay
    bus.release(); // now the relayed copy arrives at a
    await sleep(100);
    expect(resumed.messages()).toHaveLength(1);
    expect(resumed.messages()[0]!.params.data).toEqual({ i: 0, node: 'b' });
  });
});
