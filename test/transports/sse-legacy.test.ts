/**
 * HTTP+SSE (2024-11-05), both sides (templates/transports/sse/: client.ts, server.ts), and the
 * Streamable HTTP client's fallback to it, on loopback: the endpoint event and session query, messages both
 * ways through the engine, the server's HTTP refusals (DNS rebinding, session, media type, size, caps, idle
 * streams), the client's checks (endpoint origin, a stream without endpoint, oversized events, fetch called
 * unbound), and every session gone afterwards. The frame corpus runs over HTTP+SSE in frame-corpus.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RpcPeer } from '../../templates/core/peer.js';
import {
  StreamableHttpClientTransport,
  StreamableHttpError,
} from '../../templates/transports/http/client/transport.js';
import { createSseLegacyServer, type SseLegacyServerTransport } from '../../templates/transports/sse/server.js';
import { SseLegacyClientTransport } from '../../templates/transports/sse/client.js';
import { sseFallback } from '../../templates/transports/http/client/sse-fallback.js';
import { listen, rawRequest } from './helpers/http.js';
import { eventually } from '../helpers/eventually.js';

type Listening = Awaited<ReturnType<typeof listen>>;
let http: Listening | undefined;
let closeEndpoint: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeEndpoint?.();
  await http?.close();
  http = undefined;
  closeEndpoint = undefined;
});

/** A server peer per session answering ping, `echo` and `ask` (which asks the client back). */
async function servePeer(transport: SseLegacyServerTransport): Promise<void> {
  const peer = new RpcPeer(transport);
  peer.setRequestHandler('ping', () => ({}));
  peer.setRequestHandler('initialize', (params) => ({ protocolVersion: params?.['protocolVersion'] ?? null }));
  peer.setRequestHandler('echo', (params) => ({ echoed: params ?? null }));
  peer.setRequestHandler('ask', async (_params, ctx) => ({ answer: await ctx.request('whoami' as never, {}) }));
  peer.setNotificationHandler('greet', () => void peer.notify('notifications/hello', { from: 'server' }));
  await peer.start();
}

async function serve(options: Partial<Parameters<typeof createSseLegacyServer>[0]> = {}) {
  const handler = createSseLegacyServer({ keepAliveMs: 0, onSession: servePeer, ...options });
  http = await listen(handler);
  closeEndpoint = () => handler.close();
  return { handler, base: http.url };
}

/** Opens a raw GET stream and resolves with its endpoint event's data (and the request, to end it). */
function openStream(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ endpoint: string; text: () => string; res: IncomingMessage }>((resolve, reject) => {
    import('node:http').then(({ get }) => {
      const req = get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          const match = /event: endpoint\ndata: (.*)\n\n/.exec(text);
          if (match) resolve({ endpoint: match[1]!, text: () => text, res });
        });
        res.on('end', () => reject(new Error(`stream ended: ${res.statusCode} ${text}`)));
      });
      req.on('error', reject);
    }, reject);
  });
}

describe('HTTP+SSE: generated-runtime client ↔ server', () => {
  it('endpoint event, requests and notifications both ways, and close ends the session', async () => {
    const { handler, base } = await serve();
    const transport = new SseLegacyClientTransport(`${base}/sse`);
    const client = new RpcPeer(transport);
    client.setRequestHandler('whoami', () => ({ name: 'client' }));
    const hello = new Promise((resolve) => client.setNotificationHandler('notifications/hello', resolve));
    await client.start();
    expect(transport.endpoint?.pathname).toBe('/messages');
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect([...handler.sessions.keys()]).toEqual([transport.sessionId]);

    await expect(client.request('echo' as never, { text: 'héllo ✓' } as never)).resolves.toEqual({
      echoed: { text: 'héllo ✓' },
    });
    await expect(client.request('ask' as never, {} as never)).resolves.toEqual({ answer: { name: 'client' } });
    await client.notify('greet' as never, {} as never);
    await expect(hello).resolves.toEqual({ from: 'server' });

    let closes = 0;
    transport.onclose = () => void closes++;
    await client.close();
    await eventually(() => handler.sessions.size === 0);
    expect(closes).toBe(1);
  });

  it('the server ending the session closes the client once; sending afterwards fails', async () => {
    const { handler, base } = await serve();
    const transport = new SseLegacyClientTransport(`${base}/sse`);
    let closes = 0;
    transport.onclose = () => void closes++;
    await transport.start();
    await handler.close();
    await eventually(() => closes === 1);
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow('Not connected');
    await transport.close();
    expect(closes).toBe(1);
  });

  it('the injected fetch is used, and called as a plain function (browsers throw "Illegal invocation")', async () => {
    const { base } = await serve();
    const calls: string[] = [];
    const strictFetch = function (this: unknown, input: Parameters<typeof fetch>[0], init?: RequestInit) {
      if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
      calls.push(`${init?.method} ${new URL(String(input)).pathname}`);
      return fetch(input, init);
    } as typeof fetch;
    const transport = new SseLegacyClientTransport(`${base}/sse`, { fetch: strictFetch });
    const client = new RpcPeer(transport);
    await client.start();
    await expect(client.request('ping' as never, {} as never)).resolves.toEqual({});
    expect(calls).toEqual(['GET /sse', 'POST /messages']);
    await client.close();
  });
});

describe('HTTP+SSE server: refusals and limits', () => {
  it('checks path, method, Host and Origin, session id, media type and size on POST', async () => {
    const { base } = await serve({ maxBodyBytes: 1000 });
    const stream = await openStream(`${base}/sse`);
    expect(stream.endpoint).toMatch(/^\/messages\?sessionId=[0-9a-f-]{36}$/);
    const post = (path: string, headers: Record<string, string> = {}, body = '{"jsonrpc":"2.0","method":"x"}') =>
      rawRequest(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });

    expect((await post(stream.endpoint)).status).toBe(202);
    expect((await post('/messages')).status).toBe(400);
    expect((await post('/messages?sessionId=nope')).status).toBe(404);
    expect((await post(stream.endpoint, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post(stream.endpoint, {}, `"${'x'.repeat(2000)}"`)).status).toBe(413);
    expect((await post(stream.endpoint, { host: 'evil.example' })).status).toBe(403);
    expect((await post(stream.endpoint, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post('/elsewhere')).status).toBe(404);
    expect((await post('/sse')).status).toBe(405);
    expect((await rawRequest(`${base}/messages`, { method: 'GET' })).status).toBe(405);
    const foreign = await rawRequest(`${base}/sse`, { method: 'GET', headers: { origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ error: { message: expect.stringContaining('Origin') } });
    stream.res.destroy();
  });

  it('CORS: an Origin `cors` lists is echoed and preflights name the method', async () => {
    const origins = ['https://app.example'];
    const { base } = await serve({ allowedOrigins: origins, cors: { origins } });
    const preflight = await rawRequest(`${base}/messages`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(preflight.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
    const local = await rawRequest(`${base}/sse`, { method: 'GET', headers: { origin: 'http://localhost:3000' } });
    expect(local.status).toBe(403); // the allow-list replaces the local default
  });

  it('maxSessions caps live streams (503); a closed stream ends its session and frees the slot', async () => {
    const { handler, base } = await serve({ maxSessions: 1 });
    const first = await openStream(`${base}/sse`);
    expect(handler.sessions.size).toBe(1);
    const refused = await rawRequest(`${base}/sse`, { method: 'GET' });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    first.res.destroy();
    await eventually(() => handler.sessions.size === 0);
    const second = await openStream(`${base}/sse`);
    expect(handler.sessions.size).toBe(1);
    second.res.destroy();
    await eventually(() => handler.sessions.size === 0);
  });

  it('a stream whose client POSTs nothing within handshakeTimeoutMs is closed; one that talks stays', async () => {
    const ended: string[] = [];
    const { handler, base } = await serve({ handshakeTimeoutMs: 1000, onSessionClosed: (id) => void ended.push(id) });
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const headers = { 'content-type': 'application/json' };
    const talking = await openStream(`${base}/sse`);
    expect((await rawRequest(`${base}${talking.endpoint}`, { method: 'POST', headers, body: ping })).status).toBe(202);
    const silent = await openStream(`${base}/sse`);
    await eventually(() => ended.length === 1);
    expect(ended).toEqual([new URL(silent.endpoint, base).searchParams.get('sessionId')]);
    expect(handler.sessions.size).toBe(1);
    await eventually(() => talking.text().includes('"id":1'));
    expect(talking.text()).toContain('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}');
    talking.res.destroy();
    await eventually(() => handler.sessions.size === 0);
  });

  it('a client that stops reading is cut off once maxBufferedBytes wait for it', async () => {
    const sessions: SseLegacyServerTransport[] = [];
    const { handler, base } = await serve({
      maxBufferedBytes: 64 * 1024,
      onSession: (t) => void sessions.push(t),
    });
    const stream = await openStream(`${base}/sse`);
    stream.res.pause();
    const errors: Error[] = [];
    sessions[0]!.onerror = (e) => void errors.push(e);
    const big = { jsonrpc: '2.0' as const, method: 'notifications/big', params: { pad: 'x'.repeat(256 * 1024) } };
    for (let i = 0; i < 200 && !sessions[0]!.isClosed; i++) await sessions[0]!.send(big);
    expect(sessions[0]!.isClosed).toBe(true);
    expect(errors[0]?.message).toContain('stopped reading');
    expect(handler.sessions.size).toBe(0);
    stream.res.destroy();
  });
});

describe('HTTP+SSE client: what it refuses', () => {
  /** A raw server that answers GET with the given SSE text (and keeps the stream open unless `end`). */
  async function sseServer(text: string, end = false) {
    http = await listen((_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (end) res.end(text);
      else res.write(text);
    });
    return `${http.url}/sse`;
  }

  it('an endpoint on another origin', async () => {
    const url = await sseServer('event: endpoint\ndata: http://evil.example/messages?sessionId=1\n\n');
    await expect(new SseLegacyClientTransport(url).start()).rejects.toThrow('another origin');
  });

  it('a stream that ends before its endpoint event, or sends none in time', async () => {
    const url = await sseServer('event: message\ndata: {}\n\n', true);
    await expect(new SseLegacyClientTransport(url).start()).rejects.toThrow('ended before its endpoint event');
    await http!.close();
    const silent = await sseServer(': nothing yet\n\n');
    await expect(new SseLegacyClientTransport(silent, { connectTimeoutMs: 100 }).start()).rejects.toThrow(
      'No endpoint event',
    );
  });

  it('an HTTP failure of the GET is a StreamableHttpError with the status', async () => {
    const { base } = await serve();
    const error = await new SseLegacyClientTransport(`${base}/nowhere`).start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamableHttpError);
    expect((error as StreamableHttpError).status).toBe(404);
  });

  it('an event larger than maxEventSize closes the transport with an error', async () => {
    const url = await sseServer(`event: endpoint\ndata: /messages?sessionId=1\n\ndata: ${'x'.repeat(5000)}`);
    const transport = new SseLegacyClientTransport(url, { maxEventSize: 1000 });
    const errors: Error[] = [];
    let closed = false;
    transport.onerror = (e) => void errors.push(e);
    transport.onclose = () => (closed = true);
    await transport.start();
    await eventually(() => closed);
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('exceeds 1000 characters')]);
  });
});

describe('Streamable HTTP client: fallback to HTTP+SSE', () => {
  // A Streamable HTTP URL that is really an HTTP+SSE server's stream: POST gets 405, GET the endpoint.
  it('an initialize refused with 405 and no modern error: GET finds the endpoint, and the session runs on it', async () => {
    const { handler, base } = await serve();
    const transport = new StreamableHttpClientTransport(`${base}/sse`, { legacySse: sseFallback() });
    const client = new RpcPeer(transport);
    await client.start();
    const init = { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'c', version: '1' } };
    client.setRequestHandler('whoami', () => ({ name: 'client' }));
    await expect(client.request('initialize' as never, init as never)).resolves.toEqual({
      protocolVersion: '2024-11-05',
    });
    expect(transport.usesLegacySse).toBe(true);
    expect(handler.sessions.size).toBe(1);
    // The version a client agrees on reaches the HTTP+SSE transport now in use: its POSTs carry it.
    const versions: Array<string | undefined> = [];
    http!.server.prependListener('request', (req: IncomingMessage) => {
      if (req.method === 'POST') versions.push(req.headers['mcp-protocol-version'] as string | undefined);
    });
    transport.setProtocolVersion('2024-11-05');
    await expect(client.request('ask' as never, {} as never)).resolves.toEqual({ answer: { name: 'client' } });
    expect(versions).toEqual(['2024-11-05', '2024-11-05']); // the request, then the client's answer to whoami
    await client.close();
    await eventually(() => handler.sessions.size === 0);
  });

  it('remembers an HTTP+SSE URL: the next transport GETs at once, and probes with a POST when that fails', async () => {
    const { handler } = await serve();
    const seen: string[] = [];
    http!.server.prependListener('request', (req: IncomingMessage) => void seen.push(`${req.method} ${req.url}`));
    const cache = new Set<string>();
    const url = `${http!.url}/sse`;
    const init = { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'c', version: '1' } };
    const connect = async () => {
      const client = new RpcPeer(new StreamableHttpClientTransport(url, { legacySse: sseFallback({ cache }) }));
      await client.start();
      const result = await client.request('initialize' as never, init as never);
      await client.close();
      return result;
    };
    await expect(connect()).resolves.toEqual({ protocolVersion: '2024-11-05' });
    expect([...cache]).toEqual([url]);
    expect(seen.splice(0).map((r) => r.replace(/=.*/, '=…'))).toEqual([
      'POST /sse',
      'GET /sse',
      'POST /messages?sessionId=…',
    ]);
    await expect(connect()).resolves.toEqual({ protocolVersion: '2024-11-05' });
    expect(seen.splice(0).map((r) => r.replace(/=.*/, '=…'))).toEqual(['GET /sse', 'POST /messages?sessionId=…']);
    await eventually(() => handler.sessions.size === 0);

    // The URL moved on: its GET fails, the POST is tried, and the memory is dropped.
    const stale = new Set([`${http!.url}/elsewhere`]);
    const transport = new StreamableHttpClientTransport(`${http!.url}/elsewhere`, {
      legacySse: sseFallback({ cache: stale }),
    });
    transport.onerror = () => {};
    await transport.start();
    const error = await transport
      .send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init })
      .catch((e: unknown) => e);
    expect((error as StreamableHttpError).status).toBe(404);
    expect((error as StreamableHttpError).message).toContain('no HTTP+SSE endpoint either');
    expect(seen.splice(0)).toEqual(['GET /elsewhere', 'POST /elsewhere']);
    expect(stale.size).toBe(0);
    await transport.close();
  });

  it('no fallback on a modern error body, without the option, or for a message that is not initialize', async () => {
    const seen: string[] = [];
    http = await listen((req: IncomingMessage, res: ServerResponse) => {
      seen.push(`${req.method} ${req.headers['x-case'] ?? ''}`);
      const code = req.headers['x-case'] === 'modern' ? -32022 : -32000;
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message: 'no' } }));
    });
    const initialize = { jsonrpc: '2.0' as const, id: 1, method: 'initialize', params: {} };
    const attempt = async (name: string, options: object, message: object = initialize) => {
      const transport = new StreamableHttpClientTransport(`${http!.url}/mcp`, {
        headers: { 'x-case': name },
        terminateOnClose: false,
        legacySse: sseFallback(),
        ...options,
      });
      transport.onerror = () => {};
      await transport.start();
      const error = await transport.send(message as never).catch((e: unknown) => e);
      await transport.close();
      return error as StreamableHttpError;
    };
    expect((await attempt('modern', {})).status).toBe(400);
    expect((await attempt('disabled', { legacySse: undefined })).status).toBe(400);
    expect((await attempt('ping', {}, { jsonrpc: '2.0', id: 2, method: 'ping' })).status).toBe(400);
    const legacy = await attempt('legacy', {});
    expect(legacy.message).toContain('no HTTP+SSE endpoint either');
    expect(seen).toEqual(['POST modern', 'POST disabled', 'POST ping', 'POST legacy', 'GET legacy']);
  });
});
