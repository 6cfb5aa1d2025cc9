/**
 * Issue 36, item 2: the answers a transport used to give differently from the engine on every other transport.
 * - Streamable HTTP answers a request reusing an id in flight, and a second `initialize`, with -32600 and the
 *   request's id (it answered id null), and a sessionless response frame with id 1.5 with id null (it echoed 1.5).
 * - stdio answers a line over its 10 MiB cap -32600 with the id it leads with (it answered nothing).
 * - the HTTP servers refuse a body over the limit at the limit (its Content-Length, or the bytes read so far),
 *   without reading the rest.
 */
import { request as httpRequest } from 'node:http';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createStreamableHttpServer,
  type StreamableHttpServerTransport,
} from '../../templates/transports/http/server/endpoint.js';
import { createSseLegacyServer } from '../../templates/transports/sse/server.js';
import { StdioServerTransport } from '../../templates/transports/stdio/stdio.js';
import { RpcPeer } from '../../templates/core/peer.js';
import { listen, modelProtocol, rawRequest } from './helpers/http.js';
import { respond } from './helpers/responder.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const initialize = (id: number | string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });

async function serve(maxBodyBytes?: number) {
  const handler = createStreamableHttpServer({
    keepAliveMs: 0,
    enableJsonResponse: true,
    protocol: await modelProtocol(),
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
    onSession: async (connection) => {
      const transport = connection as StreamableHttpServerTransport;
      respond(transport);
      await transport.start();
    },
  });
  const http = await listen(handler);
  cleanups.push(async () => {
    await handler.close();
    await http.close();
  });
  return `${http.url}/mcp`;
}

/** Sends headers declaring `declared` bytes but only a little of the body, and resolves with the status. */
function postPartly(url: string, declared: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'content-length': String(declared) },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
    req.write('['.repeat(1024)); // and never the rest: an answer after reading it all would never come
  });
}

describe('Streamable HTTP answers with the id it can read', () => {
  it('a second initialize on a session: -32600 with its id', async () => {
    const url = await serve();
    const first = await rawRequest(url, { method: 'POST', headers: JSON_HEADERS, body: initialize(1) });
    const session = String(first.headers['mcp-session-id']);
    const second = await rawRequest(url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: initialize('again'),
    });
    expect(second.status).toBe(400);
    expect(JSON.parse(second.body)).toMatchObject({ id: 'again', error: { code: -32600 } });
  });

  it('a request reusing the id of one in progress: -32600 with that id', async () => {
    const url = await serve();
    const first = await rawRequest(url, { method: 'POST', headers: JSON_HEADERS, body: initialize(1) });
    const headers = {
      ...JSON_HEADERS,
      accept: 'application/json, text/event-stream',
      'mcp-session-id': String(first.headers['mcp-session-id']),
      'mcp-protocol-version': '2025-11-25',
    };
    // `reconnect` answers only after its delay: its id stays in use meanwhile.
    const slow = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'reconnect', arguments: { delayMs: 500 } },
    });
    const pending = rawRequest(url, { method: 'POST', headers, body: slow });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reused = await rawRequest(url, { method: 'POST', headers, body: slow });
    expect(reused.status).toBe(400);
    expect(JSON.parse(reused.body)).toMatchObject({ id: 7, error: { code: -32600 } });
    await pending;
  });

  it('2026-07-28: a response frame with the unsafe id 1.5 is answered with id null', async () => {
    const url = await serve();
    const res = await rawRequest(url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-protocol-version': '2026-07-28' },
      body: '{"jsonrpc":"2.0","id":1.5,"result":{}}',
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe('bodies over the limit are refused at the limit', () => {
  it('Streamable HTTP: a declared 100 MB body gets 413 without being read', async () => {
    expect(await postPartly(await serve(), 100 * 1024 * 1024)).toBe(413);
  });

  it('Streamable HTTP: a body without Content-Length gets 413 once the limit is passed', async () => {
    const url = await serve(4096);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers: { ...JSON_HEADERS, 'transfer-encoding': 'chunked' } });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.write('['.repeat(8192)); // past the limit, never ended
    });
    expect(status).toBe(413);
  });

  it('HTTP+SSE: the same', async () => {
    const legacy = createSseLegacyServer({ keepAliveMs: 0, onSession: (transport) => transport.start() });
    const http = await listen(legacy);
    cleanups.push(async () => {
      await legacy.close();
      await http.close();
    });
    // The session's stream names where to POST.
    const endpoint = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${http.url}/sse`, { headers: { accept: 'text/event-stream' } }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const match = /event: endpoint\ndata: (.+)\n/.exec(chunk);
          if (match?.[1]) resolve(match[1]);
        });
      });
      req.on('error', reject);
      cleanups.push(() => void req.destroy());
      req.end();
    });
    expect(await postPartly(new URL(endpoint, http.url).href, 100 * 1024 * 1024)).toBe(413);
  });
});

describe('stdio', () => {
  it('a line over the cap is answered -32600 with its leading id, and the next line is served', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    // Small limits, in the default order (the line cap above the frame limit), so the test stays small.
    const peer = new RpcPeer(new StdioServerTransport({ stdin, stdout, maxLineBytes: 64 * 1024 }), {
      maxFrameSize: 32 * 1024,
    });
    peer.setRequestHandler('ping', () => ({}));
    await peer.start();
    cleanups.push(() => peer.close());
    const answers: Array<{ id: unknown; error?: { code: number } }> = [];
    stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') answers.push(JSON.parse(line));
    });
    const huge = `{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"${'x'.repeat(100 * 1024)}"}}`;
    // In pieces, as a pipe delivers it: the line passes the cap before its newline arrives.
    for (let at = 0; at < huge.length; at += 16 * 1024) stdin.write(huge.slice(at, at + 16 * 1024));
    stdin.write(`\n{"jsonrpc":"2.0","id":"next","method":"ping"}\n`);
    for (let i = 0; i < 200 && answers.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(answers).toEqual([
      expect.objectContaining({ id: 'big', error: expect.objectContaining({ code: -32600 }) }),
      { jsonrpc: '2.0', id: 'next', result: {} },
    ]);
  });
});
