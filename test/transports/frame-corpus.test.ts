/**
 * The frame corpus (frame-corpus.ts) through every transport and version: each frame's answers (code, id,
 * HTTP status) are asserted, and after each frame a valid request must still be served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { RpcPeer } from '../../templates/core/peer.js';
import { createStreamableHttpServer } from '../../templates/transports/http/server/endpoint.js';
import { encodeHeaderValue } from '../../templates/peer/http-headers.js';
import { listen, modelProtocol, parseSse, rawRequest } from './helpers/http.js';
import { createInMemoryPair } from '../../templates/core/transport.js';
import { CORPUS_VERSIONS, FRAME_CORPUS, type Answer, type Expected, type Version } from './frame-corpus.js';
import { fixturesDir, transpiledRuntime } from './helpers/runtime.js';
import { listenWebSocket, rawSocket } from './helpers/websocket.js';
import { createSseLegacyServer } from '../../templates/transports/sse/server.js';
import { get as httpGet } from 'node:http';
import { eventually } from '../helpers/eventually.js';

type Received = { id?: unknown; error?: { code: number }; result?: unknown };

/** (code, id) of what came back, flattened; `batch` when it was an array. */
function answersOf(frames: unknown[]): { answers: Answer[]; batch: boolean } {
  const answers: Answer[] = [];
  let batch = false;
  for (const frame of frames) {
    const items = Array.isArray(frame) ? ((batch = true), frame) : [frame];
    for (const item of items as Received[]) {
      answers.push({ code: item.error?.code ?? 0, id: (item.id ?? null) as Answer['id'] });
    }
  }
  return { answers, batch };
}

const sortAnswers = (answers: Answer[]): Answer[] =>
  [...answers].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

function expectAnswers(got: unknown[], expected: Expected, name: string): void {
  const { answers, batch } = answersOf(got);
  expect(sortAnswers(answers), name).toEqual(sortAnswers(expected.answers));
  if (expected.answers.length > 0) expect(batch, `${name}: batch`).toBe(expected.batch ?? false);
}

it('has at least 120 frames', () => {
  expect(FRAME_CORPUS.length).toBeGreaterThanOrEqual(120);
});

describe.each(CORPUS_VERSIONS)('%s', (version: Version) => {
  const batches = version === '2025-03-26';

  it('in memory: every frame gets its answer, and the next request is served', async () => {
    const [client, server] = createInMemoryPair();
    const peer = new RpcPeer(server, { batches });
    peer.setRequestHandler('ping', () => ({}));
    const received: unknown[] = [];
    client.onmessage = (frame) => void received.push(frame);
    await Promise.all([client.start(), peer.start()]);
    for (const [index, entry] of FRAME_CORPUS.entries()) {
      received.length = 0;
      await client.sendText(entry.text);
      await client.sendText(JSON.stringify({ jsonrpc: '2.0', id: `next-${index}`, method: 'ping' }));
      await until(() => received.some((f) => (f as Received).id === `next-${index}`));
      const next = received.pop() as Received;
      expect(next.result, entry.name).toEqual({});
      expectAnswers(received, entry.expect(version, 'memory'), entry.name);
    }
    await peer.close();
  });

  describe('stdio', () => {
    let child: ChildProcessWithoutNullStreams;
    const lines: string[] = [];
    let wake: () => void = () => {};
    beforeAll(() => {
      child = spawn(
        process.execPath,
        [join(fixturesDir, 'corpus-stdio-server.mjs'), transpiledRuntime(), batches ? 'batches' : 'single'],
        { stdio: ['pipe', 'pipe', 'pipe'] },
      );
      let buffer = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffer += chunk;
        const parts = buffer.split('\n');
        buffer = parts.pop()!;
        lines.push(...parts);
        wake();
      });
    });
    afterAll(async () => {
      child.stdin.end();
      await new Promise((resolve) => child.once('close', resolve));
    });

    it('every frame gets its answer, and the next request is served', async () => {
      for (const [index, entry] of FRAME_CORPUS.entries()) {
        const sentinel = `next-${index}`;
        child.stdin.write(`${entry.text}\n${JSON.stringify({ jsonrpc: '2.0', id: sentinel, method: 'ping' })}\n`);
        const got: unknown[] = [];
        for (;;) {
          while (lines.length === 0) await new Promise<void>((resolve) => (wake = resolve));
          const frame = JSON.parse(lines.shift()!) as Received;
          if (frame.id === sentinel) {
            expect(frame.result, entry.name).toEqual({});
            break;
          }
          got.push(frame);
        }
        expectAnswers(got, entry.expect(version, 'stdio'), entry.name);
      }
    });
  });
});

describe.each(CORPUS_VERSIONS)('%s over Streamable HTTP', (version: Version) => {
  it('every frame gets its status and answer, and the next request is served', async () => {
    const handler = createStreamableHttpServer({
      protocol: await modelProtocol(),
      enableJsonResponse: true,
      keepAliveMs: 0,
      onSession: async (transport) => {
        const peer = new RpcPeer(transport, { batches: version === '2025-03-26' });
        peer.setRequestHandler('ping', () => ({}));
        peer.setRequestHandler('initialize', (params) => ({ protocolVersion: params?.['protocolVersion'] ?? null }));
        await peer.start();
      },
    });
    const http = await listen(handler);
    const url = `${http.url}/mcp`;
    try {
      const base: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': version,
      };
      if (version !== '2026-07-28') {
        const init = await rawRequest(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 0,
            method: 'initialize',
            params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'corpus', version: '1' } },
          }),
        });
        expect(init.status).toBe(200);
        base['mcp-session-id'] = init.headers['mcp-session-id'] as string;
      }
      /** The headers a client would derive from the body (2026-07-28 mirrors the method). */
      const headersFor = (text: string): Record<string, string> => {
        if (version !== '2026-07-28') return base;
        let method: unknown;
        try {
          method = (JSON.parse(text) as { method?: unknown }).method;
        } catch {
          method = undefined;
        }
        return typeof method === 'string' ? { ...base, 'mcp-method': encodeHeaderValue(method) } : base;
      };
      for (const [index, entry] of FRAME_CORPUS.entries()) {
        const res = await rawRequest(url, { method: 'POST', headers: headersFor(entry.text), body: entry.text });
        const expected = entry.expect(version, 'http');
        expect(res.status, entry.name).toBe(expected.status);
        expectAnswers(res.body === '' ? [] : [JSON.parse(res.body)], expected, entry.name);
        const next = JSON.stringify({ jsonrpc: '2.0', id: `next-${index}`, method: 'ping' });
        const served = await rawRequest(url, { method: 'POST', headers: headersFor(next), body: next });
        expect(served.status, `${entry.name}: next`).toBe(200);
        expect(JSON.parse(served.body), `${entry.name}: next`).toMatchObject({ id: `next-${index}`, result: {} });
      }
      expect(handler.requests.size).toBe(0);
    } finally {
      await handler.close();
      await http.close();
    }
  });
});

describe.each(CORPUS_VERSIONS)('%s over WebSocket', (version: Version) => {
  it('every frame gets its answer, and the next request is served', async () => {
    const endpoint = await listenWebSocket({
      onSession: async (transport) => {
        const peer = new RpcPeer(transport, { batches: version === '2025-03-26' });
        peer.setRequestHandler('ping', () => ({}));
        await peer.start();
      },
    });
    try {
      const { socket, frames } = await rawSocket(`${endpoint.url}/mcp`);
      for (const [index, entry] of FRAME_CORPUS.entries()) {
        frames.length = 0;
        socket.send(entry.text);
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: `next-${index}`, method: 'ping' }));
        await eventually(() => frames.some((f) => f.includes(`"next-${index}"`)));
        const next = JSON.parse(frames.pop()!) as Received;
        expect(next.result, entry.name).toEqual({});
        expectAnswers(
          frames.map((f) => JSON.parse(f)),
          entry.expect(version, 'websocket'),
          entry.name,
        );
      }
      socket.close();
      await eventually(() => endpoint.handler.sessions.size === 0);
    } finally {
      await endpoint.close();
    }
  });
});

// HTTP+SSE is a transport of the handshake era: the corpus versions before 2026-07-28.
describe.each(CORPUS_VERSIONS.filter((v) => v !== '2026-07-28'))('%s over HTTP+SSE', (version: Version) => {
  it('every frame is accepted (202) and answered on the stream, and the next request is served', async () => {
    const handler = createSseLegacyServer({
      keepAliveMs: 0,
      onSession: async (transport) => {
        const peer = new RpcPeer(transport, { batches: version === '2025-03-26' });
        peer.setRequestHandler('ping', () => ({}));
        await peer.start();
      },
    });
    const http = await listen(handler);
    const events: Array<{ event?: string; data: string }> = [];
    let buffer = '';
    const stream = httpGet(`${http.url}/sse`, { headers: { accept: 'text/event-stream' } }, (res) => {
      res.setEncoding('utf8').on('data', (chunk: string) => {
        buffer += chunk;
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop()!;
        events.push(...parseSse(blocks.map((b) => `${b}\n\n`).join('')));
      });
    });
    try {
      await eventually(() => events.length > 0);
      const endpoint = events.shift()!;
      expect(endpoint.event).toBe('endpoint');
      const post = (body: string) =>
        rawRequest(`${http.url}${endpoint.data}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
      for (const [index, entry] of FRAME_CORPUS.entries()) {
        events.length = 0;
        expect((await post(entry.text)).status, entry.name).toBe(202);
        expect((await post(JSON.stringify({ jsonrpc: '2.0', id: `next-${index}`, method: 'ping' }))).status).toBe(202);
        await eventually(() => events.some((e) => e.data.includes(`"next-${index}"`)));
        const next = JSON.parse(events.pop()!.data) as Received;
        expect(next.result, entry.name).toEqual({});
        expect(events.every((e) => e.event === 'message')).toBe(true);
        expectAnswers(
          events.map((e) => JSON.parse(e.data)),
          entry.expect(version, 'sse'),
          entry.name,
        );
      }
      stream.destroy();
      await eventually(() => handler.sessions.size === 0);
    } finally {
      stream.destroy();
      await handler.close();
      await http.close();
    }
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!condition()) throw new Error('timed out waiting');
}
