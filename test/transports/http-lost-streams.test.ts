/**
 * Issue 36, item 1: a request's SSE stream that ends before its answer and cannot be resumed fails the call at
 * once with LocalError -32000, instead of leaving it to its timeout. A hand-written server answers the POST with
 * an SSE stream that ends early — with no event id, or with one whose resumption (GET with Last-Event-ID) it
 * refuses with 404 — and the runtime's client (an RpcEngine on StreamableHttpClientTransport, with and without
 * the session streams option) must fail the call.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from '../../templates/transports/http/client/transport.js';
import { sessionStreams } from '../../templates/transports/http/client/session-streams.js';
import { RpcEngine } from '../../templates/core/engine.js';
import { LocalError } from '../../templates/core/jsonrpc.js';
import { listen } from './helpers/http.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** POST: an SSE stream with one event (`id` when given) that is not the answer, then the end. GET: 404. */
async function cuttingServer(eventId: string | undefined) {
  const gets: Array<string | undefined> = [];
  const http = await listen((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') {
      gets.push(req.headers['last-event-id'] as string | undefined);
      res.writeHead(404).end();
      return;
    }
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });
      const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info' } });
      res.end(`${eventId === undefined ? '' : `id: ${eventId}\n`}event: message\ndata: ${note}\n\n`);
    });
  });
  cleanups.push(() => http.close());
  return { url: `${http.url}/mcp`, gets };
}

async function call(url: string, withStreams: boolean): Promise<unknown> {
  const transport = new StreamableHttpClientTransport(url, {
    ...(withStreams ? { streams: sessionStreams(), openSseStream: false } : {}),
    reconnection: { initialDelayMs: 1, maxDelayMs: 1, maxRetries: 2 },
  });
  const engine = new RpcEngine(transport);
  cleanups.push(() => engine.close());
  await engine.start();
  return engine.request('tools/call', { name: 'x' }, { timeout: 120_000 }).catch((error: unknown) => error);
}

describe('a POST stream cut before its answer', () => {
  it('without the streams option: the call fails at once', async () => {
    const { url } = await cuttingServer('e1');
    const error = await call(url, false);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: -32000 });
  });

  it('with the streams option but no event id to resume from: fails at once, no GET', async () => {
    const { url, gets } = await cuttingServer(undefined);
    expect(await call(url, true)).toMatchObject({ code: -32000, message: expect.stringContaining('no event id') });
    expect(gets).toEqual([]);
  });

  it('with an event id whose resumption is refused (404): fails once the GET is refused', async () => {
    const { url, gets } = await cuttingServer('e1');
    expect(await call(url, true)).toMatchObject({ code: -32000, message: expect.stringContaining('404') });
    expect(gets).toEqual(['e1']);
  });
});
