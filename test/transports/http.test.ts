import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  createStreamableHttpServer,
  type StreamableHttpServerOptions,
  type StreamableHttpServerTransport,
} from '../../templates/transports/http/server/endpoint.js';
import {
  METADATA_HEADERS,
  StreamableHttpClientTransport,
  StreamableHttpError,
} from '../../templates/transports/http/client/transport.js';
import { sessionStreams } from '../../templates/transports/http/client/session-streams.js';
import { InMemoryEventStore } from '../../templates/cluster/event-store.js';
import { SseParser } from '../../templates/transports/http/sse.js';
import { RpcEngine } from '../../templates/core/engine.js';
import type { JsonRpcFrame } from '../../templates/core/transport.js';
import { listen, modelProtocol, parseSse, rawRequest, sleep } from './helpers/http.js';
import { respond } from './helpers/responder.js';

type Msg = { jsonrpc: '2.0'; id?: string | number; method?: string; params?: any; result?: any; error?: any };

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function startOurServer(options: Partial<StreamableHttpServerOptions> = {}) {
  const sessions: StreamableHttpServerTransport[] = [];
  const logs = new Map<string, Msg[]>();
  const handler = createStreamableHttpServer({
    keepAliveMs: 0,
    protocol: await modelProtocol(),
    ...options,
    onSession: async (connection) => {
      const transport = connection as StreamableHttpServerTransport;
      sessions.push(transport);
      const log: Msg[] = [];
      logs.set(transport.sessionId, log);
      respond(transport, log);
      await transport.start();
    },
  });
  const http = await listen(handler);
  cleanups.push(async () => {
    await handler.close();
    await http.close();
  });
  return { handler, sessions, logs, url: `${http.url}/mcp`, base: http.url, port: http.port };
}

const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Initializes a session with raw HTTP; returns its id. */
async function rawInit(url: string, version = '2025-11-25'): Promise<string> {
  const res = await rawRequest(url, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ ...INIT, params: { ...INIT.params, protocolVersion: version } }),
  });
  expect(res.status).toBe(200);
  const sessionId = res.headers['mcp-session-id'] as string;
  expect(sessionId).toMatch(/^[\x21-\x7e]+$/);
  return sessionId;
}

/** Collects what a transport receives. */
function collect(transport: { onmessage?: (m: JsonRpcFrame) => void }) {
  const received: Msg[] = [];
  const waiters: Array<[(m: Msg) => boolean, (m: Msg) => void]> = [];
  transport.onmessage = (frame) => {
    const m = frame as Msg;
    received.push(m);
    for (const w of [...waiters]) {
      if (!w[0](m)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w[1](m);
    }
  };
  return {
    received,
    wait(pred: (m: Msg) => boolean, ms = 10_000): Promise<Msg> {
      const hit = received.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('timeout waiting for message')), ms);
        waiters.push([pred, (m) => (clearTimeout(t), resolve(m))]);
      });
    },
  };
}

describe('createStreamableHttpServer ← SDK Client + StreamableHTTPClientTransport', () => {
  it('initializes, lists tools, streams progress before the result, relays a server→client request', async () => {
    const srv = await startOurServer();
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(srv.url));
    await client.connect(transport);
    expect(client.getServerVersion()).toEqual({ name: 'hand-written', version: '1.0.0' });
    expect(transport.sessionId).toBe(srv.sessions[0]!.sessionId);
    expect(srv.sessions[0]!.protocolVersion).toBe('2025-11-25');

    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['echo', 'progress', 'ask_client', 'reconnect']);

    const progress: Array<{ progress: number; total?: number }> = [];
    const result = await client.callTool({ name: 'progress', arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(progress).toEqual([
      { progress: 1, total: 2 },
      { progress: 2, total: 2 },
    ]);
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);

    const asked = await client.callTool({ name: 'ask_client', arguments: {} });
    expect(asked.content).toEqual([{ type: 'text', text: 'client answered {}' }]);

    // Server-initiated notification without a related request: goes to the standalone GET stream.
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    await sleep(100); // let the SDK open its GET stream (after notifications/initialized)
    await srv.sessions[0]!.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await changed;

    let closed = 0;
    srv.sessions[0]!.onclose = () => closed++;
    await transport.terminateSession();
    expect(closed).toBe(1);
    expect(srv.handler.sessions.size).toBe(0);
    await client.close();
  });

  it('answers with application/json when enableJsonResponse is set', async () => {
    const srv = await startOurServer({ enableJsonResponse: true });
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
    const res = await rawRequest(srv.url, {
      method: 'POST',
      headers: {
        ...JSON_HEADERS,
        'mcp-session-id': srv.sessions[0]!.sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body)).toEqual({ jsonrpc: '2.0', id: 9, result: {} });
    expect((await client.callTool({ name: 'echo', arguments: { message: 'json' } })).content).toEqual([
      { type: 'text', text: 'json' },
    ]);
    await client.close();
  });
});

describe('raw wire behaviour of createStreamableHttpServer', () => {
  it('sessions end after the idle timeout, and initialize beyond maxSessions reclaims the idlest one', async () => {
    const srv = await startOurServer({ sessionIdleTimeoutMs: 2000, maxSessions: 2 });
    const reclaimed = await rawInit(srv.url);
    const first = await rawInit(srv.url);
    await rawInit(srv.url); // both idle: the older one makes room (http-defaults.test.ts: 503 when none is idle)
    expect(srv.handler.sessions.size).toBe(2);
    expect(srv.handler.sessions.has(reclaimed)).toBe(false);
    for (let i = 0; i < 100 && srv.handler.sessions.size > 0; i++) await sleep(100);
    expect(srv.handler.sessions.size).toBe(0);
    const gone = await rawRequest(srv.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': first },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(gone.status).toBe(404);
  });

  it('CORS for the origins `cors` lists (Mcp-* request headers, Mcp-Session-Id exposed), 403 for origins rebinding protection refuses', async () => {
    const origins = ['http://app.example'];
    const srv = await startOurServer({ allowedOrigins: origins, cors: { origins } });
    const preflight = await rawRequest(srv.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://app.example');
    const allowed = String(preflight.headers['access-control-allow-headers']).split(', ');
    for (const h of ['mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id', 'mcp-param-region']) {
      expect(allowed).toContain(h);
    }
    const init = await rawRequest(srv.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, origin: 'http://app.example' },
      body: JSON.stringify(INIT),
    });
    expect(init.status).toBe(200);
    expect(String(init.headers['access-control-expose-headers'])).toContain('mcp-session-id');
    const evil = await rawRequest(srv.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, origin: 'http://evil.example' },
      body: JSON.stringify(INIT),
    });
    expect(evil.status).toBe(403);
  });

  it('a header naming 2025-03-26 cannot make a 2025-11-25 session run a batch; unsupported headers are 400', async () => {
    const srv = await startOurServer();
    const sid = await rawInit(srv.url);
    const batch = await rawRequest(srv.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' },
      body: JSON.stringify([{ jsonrpc: '2.0', id: 'b', method: 'ping' }]),
    });
    expect(batch.status).toBe(400);
    expect(JSON.parse(batch.body)).toMatchObject({ id: null, error: { code: -32600 } });
    const unsupported = await rawRequest(srv.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '1999-01-01' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'p', method: 'ping' }),
    });
    expect(unsupported.status).toBe(400);
  });

  it('writes priming event, related messages, then the response, and ends the stream', async () => {
    const srv = await startOurServer({ retryMs: 1234 });
    const sid = await rawInit(srv.url);
    const res = await rawRequest(srv.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'p1',
        method: 'tools/call',
        params: { name: 'progress', arguments: {}, _meta: { progressToken: 'tok' } },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['mcp-session-id']).toBe(sid);
    const events = parseSse(res.body);
    expect(events[0]).toMatchObject({ data: '', retry: 1234 });
    expect(events[0]!.id).toBeTruthy();
    const messages = events.slice(1).map((e) => JSON.parse(e.data) as Msg);
    expect(messages.map((m) => m.method ?? `response:${m.id}`)).toEqual([
      'notifications/progress',
      'notifications/progress',
      'response:p1',
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length); // unique ids
  });

  it('202 for notifications and responses; 2025-03-26 batches allowed, later versions not', async () => {
    const srv = await startOurServer();
    const sid = await rawInit(srv.url);
    const h = { ...JSON_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const note = await rawRequest(srv.url, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(note.status).toBe(202);
    expect(note.body).toBe('');
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    expect((await rawRequest(srv.url, { method: 'POST', headers: h, body: batch })).status).toBe(400);

    const oldSid = await rawInit(srv.url, '2025-03-26');
    const ok = await rawRequest(srv.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-session-id': oldSid },
      body: batch,
    });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
  });

  it('enforces session id, protocol version, media types, path and method', async () => {
    const srv = await startOurServer({ enableGetStream: false });
    const sid = await rawInit(srv.url);
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const post = (headers: Record<string, string>, body = ping, url = srv.url) =>
      rawRequest(url, { method: 'POST', headers, body });

    expect((await post(JSON_HEADERS)).status).toBe(400); // no session
    const unknown = await post({ ...JSON_HEADERS, 'mcp-session-id': 'nope' });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001 } });
    expect((await post({ ...JSON_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '1999-01-01' })).status).toBe(
      400,
    );
    expect((await post({ ...JSON_HEADERS, 'mcp-session-id': sid })).status).toBe(200); // header optional
    expect(
      (await post({ 'content-type': 'application/json', accept: 'text/html', 'mcp-session-id': sid })).status,
    ).toBe(406);
    expect(
      (await post({ 'content-type': 'text/plain', accept: JSON_HEADERS.accept, 'mcp-session-id': sid })).status,
    ).toBe(415);
    const bad = await post({ ...JSON_HEADERS, 'mcp-session-id': sid }, '{not json');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe(-32700);
    expect((await post({ ...JSON_HEADERS, 'mcp-session-id': sid }, '{"jsonrpc":"2.0","id":1}')).status).toBe(400);
    expect((await post({ ...JSON_HEADERS, 'mcp-session-id': sid }, JSON.stringify(INIT))).status).toBe(400); // re-init
    expect((await post(JSON_HEADERS, ping, `${srv.base}/other`)).status).toBe(404);
    expect((await rawRequest(srv.url, { method: 'PUT', headers: JSON_HEADERS })).status).toBe(405);

    const get = (headers: Record<string, string>) => rawRequest(srv.url, { method: 'GET', headers });
    expect((await get({ accept: 'text/event-stream' })).status).toBe(400);
    expect((await get({ accept: 'text/event-stream', 'mcp-session-id': 'nope' })).status).toBe(404);
    expect((await get({ accept: 'text/event-stream', 'mcp-session-id': sid })).status).toBe(405); // disabled

    expect((await rawRequest(srv.url, { method: 'DELETE', headers: {} })).status).toBe(400);
    expect((await rawRequest(srv.url, { method: 'DELETE', headers: { 'mcp-session-id': sid } })).status).toBe(200);
    expect((await post({ ...JSON_HEADERS, 'mcp-session-id': sid })).status).toBe(404);
    expect((await rawRequest(srv.url, { method: 'DELETE', headers: { 'mcp-session-id': sid } })).status).toBe(404);
  });

  it('allows only one standalone GET stream per session (409)', async () => {
    const srv = await startOurServer();
    const sid = await rawInit(srv.url);
    const controller = new AbortController();
    const first = await fetch(srv.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sid },
      signal: controller.signal,
    });
    expect(first.status).toBe(200);
    const second = await rawRequest(srv.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': sid },
    });
    expect(second.status).toBe(409);
    controller.abort();
  });

  it('rejects DNS rebinding: foreign Host or Origin → 403, localhost forms accepted', async () => {
    const srv = await startOurServer();
    const init = (headers: Record<string, string>) =>
      rawRequest(srv.url, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(INIT) });
    const evil = await init({ host: 'evil.example.com', origin: 'http://evil.example.com' });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body)).toMatchObject({ error: { code: -32000 } });
    expect((await init({ host: 'evil.example.com' })).status).toBe(403);
    expect((await init({ origin: 'http://evil.example.com' })).status).toBe(403);
    expect((await init({ origin: 'null' })).status).toBe(403);
    expect(srv.handler.sessions.size).toBe(0);
    expect((await init({ host: `localhost:${srv.port}`, origin: `http://localhost:${srv.port}` })).status).toBe(200);
    expect((await init({ host: `[::1]:${srv.port}`, origin: 'http://[::1]:5173' })).status).toBe(200);
    expect((await init({ origin: 'http://127.0.0.1:3000' })).status).toBe(200);
  });

  it('honours allowedHosts / allowedOrigins and can be turned off', async () => {
    const srv = await startOurServer({ allowedHosts: ['mcp.internal'], allowedOrigins: ['https://app.example'] });
    const init = (headers: Record<string, string>) =>
      rawRequest(srv.url, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(INIT) });
    expect((await init({})).status).toBe(403); // 127.0.0.1 no longer listed
    expect((await init({ host: 'mcp.internal:8080' })).status).toBe(200);
    expect((await init({ host: 'mcp.internal', origin: 'http://localhost' })).status).toBe(403);
    expect((await init({ host: 'mcp.internal', origin: 'https://app.example' })).status).toBe(200);

    const open = await startOurServer({ dnsRebindingProtection: false });
    const res = await rawRequest(open.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, host: 'evil.example.com', origin: 'http://evil.example.com' },
      body: JSON.stringify(INIT),
    });
    expect(res.status).toBe(200);
  });
});

describe('resumability (Last-Event-ID)', () => {
  it('replays what was sent after a server-closed stream, then ends it (SSE polling)', async () => {
    const srv = await startOurServer({ retryMs: 50 });
    const sid = await rawInit(srv.url);
    const h = { ...JSON_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const first = await rawRequest(srv.url, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'reconnect', arguments: { delayMs: 100 } },
      }),
    });
    const primed = parseSse(first.body);
    expect(primed).toHaveLength(1); // only the priming event: the tool closed the stream
    expect(primed[0]).toMatchObject({ data: '', retry: 50 });
    await sleep(200); // the tool answers while no stream is connected
    const resumed = await rawRequest(srv.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'last-event-id': primed[0]!.id! },
    });
    expect(resumed.status).toBe(200);
    const replay = parseSse(resumed.body).map((e) => JSON.parse(e.data) as Msg);
    expect(replay.map((m) => m.method ?? `response:${m.id}`)).toEqual(['notifications/message', 'response:5']);
    expect(replay[1]!.result.content[0].text).toBe('after reconnect');

    const gone = await rawRequest(srv.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'last-event-id': primed[0]!.id! },
    });
    expect(gone.status).toBe(404); // the finished stream is forgotten
  });

  it('resumes a stream the client dropped while the request was running', async () => {
    const srv = await startOurServer();
    const sid = await rawInit(srv.url);
    const controller = new AbortController();
    const res = await fetch(srv.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': sid },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'slow',
        method: 'tools/call',
        params: { name: 'ask_client', arguments: {} },
      }),
      signal: controller.signal,
    });
    // Read until the server's ping request arrives, remembering the last event id; then drop the connection.
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let pingEvent: { id?: string; data: string } | undefined;
    while (!pingEvent) {
      const { value } = await reader.read();
      text += decoder.decode(value, { stream: true });
      pingEvent = parseSse(text).find((e) => e.data.includes('"ping"'));
    }
    controller.abort();
    await sleep(50);
    // Answer the server's ping on a new POST; the tool then answers on the (disconnected) stream.
    const ping = JSON.parse(pingEvent.data) as Msg;
    const answer = await rawRequest(srv.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': sid },
      body: JSON.stringify({ jsonrpc: '2.0', id: ping.id, result: {} }),
    });
    expect(answer.status).toBe(202);
    await sleep(50);
    const resumed = await rawRequest(srv.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'last-event-id': pingEvent.id! },
    });
    // A priming event (empty data, an id only) may open the resumed stream when the result is not stored yet.
    const replay = parseSse(resumed.body)
      .filter((e) => e.data !== '')
      .map((e) => JSON.parse(e.data) as Msg);
    expect(replay).toEqual([
      { jsonrpc: '2.0', id: 'slow', result: { content: [{ type: 'text', text: 'client answered {}' }] } },
    ]);
  });

  it('the SDK client reconnects with Last-Event-ID after the server closes its stream', async () => {
    const srv = await startOurServer({ retryMs: 100 });
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
    const result = await client.callTool({ name: 'reconnect', arguments: { delayMs: 300 } });
    expect(result.content).toEqual([{ type: 'text', text: 'after reconnect' }]);
    await client.close();
  });

  it('InMemoryEventStore replays only the given stream, after the given event', async () => {
    const store = new InMemoryEventStore();
    const a1 = store.storeEvent('a', null);
    store.storeEvent('b', { jsonrpc: '2.0', method: 'x' });
    store.storeEvent('a', { jsonrpc: '2.0', method: 'y' });
    const seen: string[] = [];
    expect(await store.replayEventsAfter(a1, (_id, m) => void seen.push((m as Msg).method!))).toBe('a');
    expect(seen).toEqual(['y']);
    expect(await store.replayEventsAfter('missing', () => undefined)).toBeUndefined();
  });
});

describe('StreamableHttpClientTransport → SDK McpServer + StreamableHTTPServerTransport', () => {
  async function startSdkServer() {
    const transports = new Map<string, StreamableHTTPServerTransport>();
    const closedSessions: string[] = [];
    const mcpServers: McpServer[] = [];
    const http = await listen(async (req, res) => {
      const sid = req.headers['mcp-session-id'] as string | undefined;
      let transport = sid ? transports.get(sid) : undefined;
      if (!transport) {
        if (sid) {
          res.writeHead(404).end();
          return;
        }
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void transports.set(id, created),
          onsessionclosed: (id) => void closedSessions.push(id),
        });
        transport = created;
        const server = new McpServer({ name: 'sdk-server', version: '2.0.0' }, { capabilities: { logging: {} } });
        server.registerTool('slow', { description: 'progress, a log message, then a result' }, async (extra) => {
          const token = extra._meta?.progressToken;
          if (token !== undefined) {
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, progress: 50, total: 100 },
            });
          }
          await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'working' } });
          return { content: [{ type: 'text', text: 'slow done' }] };
        });
        mcpServers.push(server);
        await server.connect(created);
      }
      await transport.handleRequest(req, res);
    });
    cleanups.push(async () => {
      for (const s of mcpServers) await s.close();
      await http.close();
    });
    return { url: `${http.url}/mcp`, transports, closedSessions, mcpServers };
  }

  it('speaks raw JSON-RPC over POST/SSE, receives standalone-stream messages, DELETEs on close', async () => {
    const srv = await startSdkServer();
    const transport = new StreamableHttpClientTransport(srv.url, { streams: sessionStreams() });
    const errors: Error[] = [];
    transport.onerror = (e) => errors.push(e);
    const box = collect(transport);
    let closes = 0;
    transport.onclose = () => closes++;
    await transport.start();

    await transport.send(INIT as JsonRpcFrame);
    const init = await box.wait((m) => m.id === 0);
    expect(init.result.protocolVersion).toBe('2025-11-25');
    expect(init.result.serverInfo).toEqual({ name: 'sdk-server', version: '2.0.0' });
    expect(transport.sessionId).toBeDefined();
    // A client tells the transport the agreed version (the generated one and the SDK's do); not read from the body.
    expect(transport.protocolVersion).toBeUndefined();
    transport.setProtocolVersion(init.result.protocolVersion);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect((await box.wait((m) => m.id === 1)).result.tools.map((t: { name: string }) => t.name)).toEqual(['slow']);

    await transport.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'slow', arguments: {}, _meta: { progressToken: 'pt' } },
    });
    await box.wait((m) => m.id === 2);
    const order = box.received
      .slice(box.received.findIndex((m) => m.id === 1) + 1)
      .map((m) => m.method ?? `response:${m.id}`);
    expect(order).toEqual(['notifications/progress', 'notifications/message', 'response:2']);

    // Server-initiated, unrelated to any request → the standalone GET stream the transport opened.
    await sleep(100);
    srv.mcpServers[0]!.registerTool('late', { description: 'added later' }, async () => ({ content: [] }));
    await box.wait((m) => m.method === 'notifications/tools/list_changed');

    await transport.close();
    expect(closes).toBe(1);
    expect(srv.closedSessions).toEqual([...srv.transports.keys()]);
    expect(errors).toEqual([]);
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow(/Not connected/);
  });

  it('rejects send() with a StreamableHttpError on HTTP errors', async () => {
    const srv = await startSdkServer();
    const transport = new StreamableHttpClientTransport(srv.url, { sessionId: 'does-not-exist', openSseStream: false });
    transport.onerror = () => undefined;
    await transport.start();
    const error = await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamableHttpError);
    expect((error as StreamableHttpError).status).toBe(404);
    expect(transport.sessionId).toBeUndefined(); // the session is gone
    await transport.close();
  });
});

describe('StreamableHttpClientTransport ↔ createStreamableHttpServer', () => {
  it('reconnects with Last-Event-ID after the server closes a request stream, honouring retry', async () => {
    const srv = await startOurServer({ retryMs: 400 });
    const transport = new StreamableHttpClientTransport(srv.url, { streams: sessionStreams() });
    transport.onerror = () => undefined;
    const box = collect(transport);
    const tokens: string[] = [];
    await transport.start();
    await transport.send(INIT as JsonRpcFrame);
    await box.wait((m) => m.id === 0);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const started = Date.now();
    await transport.send(
      { jsonrpc: '2.0', id: 'r', method: 'tools/call', params: { name: 'reconnect', arguments: { delayMs: 50 } } },
      { onresumptiontoken: (t) => tokens.push(t) },
    );
    const answer = await box.wait((m) => m.id === 'r');
    const elapsed = Date.now() - started;
    expect(answer.result.content[0].text).toBe('after reconnect');
    expect(elapsed).toBeGreaterThanOrEqual(380);
    expect(elapsed).toBeLessThan(2000);
    expect(box.received.some((m) => m.method === 'notifications/message')).toBe(true);
    expect(tokens.length).toBeGreaterThan(0);
    await transport.close();
    expect(srv.handler.sessions.size).toBe(0); // DELETE ended the session
  });

  it('reconnects the standalone stream after the server drops it, without losing messages', async () => {
    const srv = await startOurServer({ retryMs: 100 });
    const transport = new StreamableHttpClientTransport(srv.url, { streams: sessionStreams() });
    transport.onerror = () => undefined;
    const box = collect(transport);
    await transport.start();
    await transport.send(INIT as JsonRpcFrame);
    await box.wait((m) => m.id === 0);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await sleep(100);
    const session = srv.sessions[0]!;
    await session.send({ jsonrpc: '2.0', method: 'notifications/one' });
    await box.wait((m) => m.method === 'notifications/one');
    session.closeStandaloneSSEStream();
    await session.send({ jsonrpc: '2.0', method: 'notifications/two' }); // stored while disconnected
    await box.wait((m) => m.method === 'notifications/two', 3000);
    await session.send({ jsonrpc: '2.0', method: 'notifications/three' });
    await box.wait((m) => m.method === 'notifications/three', 3000);
    expect(box.received.filter((m) => m.method?.startsWith('notifications/')).map((m) => m.method)).toEqual([
      'notifications/one',
      'notifications/two',
      'notifications/three',
    ]);
    await transport.close();
  });
});

describe('SseParser', () => {
  it('parses fields, multi-line data, comments, CRLF/CR, and chunk splits anywhere', () => {
    const text =
      ': comment\r\nretry: 250\r\nid: 1\r\ndata: \r\n\r\nevent: message\nid: 2\ndata: {"a":\ndata: 1}\n\n' +
      'data: no-id\r\rdata:x\n\n';
    for (const step of [1, 2, 3, 7, text.length]) {
      const events: Array<{ event: string; data: string; id?: string }> = [];
      const retries: number[] = [];
      const parser = new SseParser(
        (e) => events.push(e),
        (ms) => retries.push(ms),
      );
      for (let i = 0; i < text.length; i += step) parser.push(text.slice(i, i + step));
      expect(retries).toEqual([250]);
      expect(events).toEqual([
        { event: 'message', data: '', id: '1' },
        { event: 'message', data: '{"a":\n1}', id: '2' },
        { event: 'message', data: 'no-id' },
        { event: 'message', data: 'x' },
      ]);
      expect(parser.lastEventId).toBe('2');
    }
  });
});

describe('StreamableHttpClientTransport fetch', () => {
  it('surfaces a 401 with its WWW-Authenticate to the caller; the header provider runs per request', async () => {
    let calls = 0;
    const http = await listen((req, res) => {
      calls++;
      if (req.headers.authorization !== 'Bearer good') {
        res
          .writeHead(401, {
            'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"',
          })
          .end();
        return;
      }
      res.writeHead(202).end();
    });
    cleanups.push(() => http.close());
    let token = 'bad';
    const transport = new StreamableHttpClientTransport(`${http.url}/mcp`, {
      headers: async () => ({ authorization: `Bearer ${token}` }),
      openSseStream: false,
    });
    await transport.start();
    const error = await transport
      .send({ jsonrpc: '2.0', method: 'notifications/initialized' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamableHttpError);
    expect((error as StreamableHttpError).status).toBe(401);
    expect((error as StreamableHttpError).wwwAuthenticate).toBe(
      'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"',
    );
    token = 'good';
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(calls).toBe(2);
    await transport.close();
  });

  it('calls fetch as a plain function, never as a method (a browser fetch throws Illegal invocation then)', async () => {
    const receivers: unknown[] = [];
    const transport = new StreamableHttpClientTransport('http://127.0.0.1:9/mcp', {
      fetch: function (this: unknown) {
        receivers.push(this);
        return Promise.resolve(new Response(null, { status: 202 }));
      },
      openSseStream: false,
    });
    await transport.start();
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await transport.close();
    expect(receivers).toEqual([undefined]);
  });
  it("reads a request's version under the _meta key its model names (setMetadataHeaders with PROTOCOL.facts)", async () => {
    const seen: Array<Record<string, string>> = [];
    const fetch = async (_url: unknown, init?: RequestInit) => {
      seen.push(Object.fromEntries(new Headers(init?.headers)));
      return new Response(null, { status: 202 });
    };
    const transport = new StreamableHttpClientTransport('http://127.0.0.1:9/mcp', { fetch });
    const facts = { transport: { nameSources: { 'x/run': 'job' } }, metaKeys: { protocolVersion: 'acme/version' } };
    transport.setMetadataHeaders(METADATA_HEADERS, facts);
    await transport.start();
    const run = (job: string, meta: Record<string, string>) =>
      transport.send({ jsonrpc: '2.0', method: 'x/run', params: { job, _meta: meta } });
    await run('j1', { 'acme/version': '2026-07-28' });
    // A key this model does not name declares nothing: the request goes as one of the session era.
    await run('j2', { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' });
    expect(seen[0]).toMatchObject({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'x/run', 'mcp-name': 'j1' });
    expect(seen[1]).not.toHaveProperty('mcp-method');
    await transport.close();
  });

  it('hands every answer to the engine, which refuses one that is not JSON-RPC as it would on any transport', async () => {
    const run = async (version: string | undefined) => {
      const posted: unknown[] = [];
      const fetch = async (_url: unknown, init?: RequestInit) => {
        const body: unknown = JSON.parse(String(init?.body));
        posted.push(body);
        const answersPing = (body as { method?: string }).method === 'ping';
        return answersPing ? Response.json({ hello: 1 }) : new Response(null, { status: 202 });
      };
      const transport = new StreamableHttpClientTransport('http://127.0.0.1:9/mcp', { fetch });
      if (version !== undefined) transport.setProtocolVersion(version);
      const failures: string[] = [];
      const onDiagnostic = (d: { kind: string; message: string }) => {
        if (d.kind === 'send-failed') failures.push(d.message);
      };
      const engine = new RpcEngine(transport, { timeout: 100, onDiagnostic });
      await engine.start();
      await expect(engine.request('ping' as never)).rejects.toThrow('Request timed out');
      await engine.close();
      return { posted, failures };
    };
    const refusal = {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: not a request, notification or response' },
    };
    const legacy = await run('2025-11-25');
    expect(legacy.posted).toContainEqual(refusal);
    // 2026-07-28 on, a client never posts a response: the engine's answer is refused by the transport.
    const modern = await run('2026-07-28');
    expect(modern.posted).not.toContainEqual(refusal);
    expect(modern.posted.map((m) => (m as { method?: string }).method)).toEqual(['ping']);
    expect(modern.failures).toEqual(['Send failed: A client sends no JSON-RPC responses in 2026-07-28']);
  });
});

describe('StreamableHttpClientTransport session streams (opt-in)', () => {
  /** A transport on a fetch that records each request's method and answers 202 with no body. */
  async function recordedRun(options: { streams?: ReturnType<typeof sessionStreams> }) {
    const methods: string[] = [];
    const fetch = async (_url: unknown, init?: RequestInit) => {
      methods.push(init?.method ?? 'GET');
      return new Response(null, { status: 202 });
    };
    const transport = new StreamableHttpClientTransport('http://127.0.0.1:9/mcp', {
      fetch,
      sessionId: 's',
      ...options,
    });
    await transport.start();
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await sleep(10);
    return { transport, methods };
  }

  it('without the streams option: no standalone GET, and resuming says what it needs', async () => {
    const { transport, methods } = await recordedRun({});
    expect(methods).toEqual(['POST']);
    expect(() => transport.resumeStream('7')).toThrow('resumeStream needs the streams: sessionStreams() option');
    await expect(transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' }, { resumptionToken: '7' })).rejects.toThrow(
      /sessionStreams/,
    );
  });

  it('with streams: sessionStreams(), a known session opens its standalone GET stream', async () => {
    const { methods } = await recordedRun({ streams: sessionStreams() });
    expect(methods).toEqual(['GET', 'POST']);
  });
});
