/**
 * Issue 43: an HTTP server of the runtime keeps an idle connection open past the keep-alive timeout it tells
 * clients (node:http's `Keep-Alive: timeout=…`), so a client that reuses the connection late — its event loop
 * starved, its idle timer fired late — still gets its answer. (node:http closed it at that timeout: a request
 * the client had just written into it was lost, `fetch failed` / "other side closed"; test/stress/http-starved
 * shows it under load.) A raw keep-alive connection: one POST, a pause past the server's keep-alive timeout, a
 * second POST on the same connection — answered, by the Streamable HTTP server and by the HTTP+SSE one. And the
 * client's side: a POST whose connection closed before it was written is answered on a new one.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { RpcEngine } from '../../templates/core/engine.js';
import { RpcPeer } from '../../templates/core/peer.js';
import { METADATA_HEADERS, StreamableHttpClientTransport } from '../../templates/transports/http/client/transport.js';
import { createStreamableHttpServer } from '../../templates/transports/http/server/endpoint.js';
import { createSseLegacyServer } from '../../templates/transports/sse/server.js';
import { modelProtocol } from './helpers/http.js';

/** The server's keep-alive timeout: short, so the test waits past it quickly. */
const KEEP_ALIVE_MS = 300;
/** The pause between the two requests: past the timeout and the second node:http adds to it (Node 20.20, 22). */
const IDLE_MS = KEEP_ALIVE_MS + 2_000;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function listen(handler: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { server, port: (server.address() as AddressInfo).port };
}

/** One keep-alive connection: sends a request and resolves with the head and body of its answer. */
function connection(port: number): { socket: Socket; exchange: (request: string) => Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  cleanups.push(() => void socket.destroy());
  let buffer = '';
  let wake: () => void = () => {};
  let ended = false;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => ((buffer += chunk), wake()));
  socket.on('end', () => ((ended = true), wake()));
  socket.on('error', () => ((ended = true), wake()));
  const exchange = async (request: string): Promise<string> => {
    buffer = '';
    socket.write(request);
    // An answer is complete at its Content-Length, or at its last chunk.
    for (;;) {
      const head = buffer.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(buffer.slice(0, head))?.[1];
      const whole =
        length === undefined ? buffer.endsWith('\r\n0\r\n\r\n') : buffer.length >= head + 4 + Number(length);
      if (head >= 0 && whole) return buffer;
      if (ended) throw new Error(`the server closed the connection before answering (got ${JSON.stringify(buffer)})`);
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  return { socket, exchange };
}

const post = (path: string, headers: Record<string, string>, body: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('') +
  `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('Streamable HTTP: a request on a connection idle past the keep-alive timeout is answered', async () => {
  const handler = createStreamableHttpServer({
    protocol: await modelProtocol(),
    enableJsonResponse: true,
    keepAliveMs: 0,
    onSession: async (transport) => {
      const peer = new RpcPeer(transport, {});
      peer.setRequestHandler('ping', () => ({}));
      await peer.start();
    },
  });
  cleanups.push(() => handler.close());
  const { port } = await listen(handler);
  const { exchange } = connection(port);
  const headers = {
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': 'ping',
  };
  const first = await exchange(post('/mcp', headers, '{"jsonrpc":"2.0","id":1,"method":"ping"}'));
  expect(first).toMatch(/^HTTP\/1\.1 200 /);
  expect(first).toMatch(/keep-alive: timeout=0/i); // what node:http tells clients, unchanged
  await pause(IDLE_MS);
  const second = await exchange(post('/mcp', headers, '{"jsonrpc":"2.0","id":2,"method":"ping"}'));
  expect(second).toMatch(/"id":2/);
});

it('HTTP+SSE: a message POSTed on a connection idle past the keep-alive timeout is accepted', async () => {
  const legacy = createSseLegacyServer({ keepAliveMs: 0, onSession: (transport) => transport.start() });
  cleanups.push(() => legacy.close());
  const { port } = await listen(legacy);
  // The session's stream, on a connection of its own, names where to POST.
  const stream = connection(port);
  const opened = await new Promise<string>((resolve) => {
    let text = '';
    stream.socket.on('data', (chunk: string) => {
      text += chunk;
      const match = /data: (\/messages\?\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    stream.socket.write('GET /sse HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n');
  });
  const { exchange } = connection(port);
  const message = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
  expect(await exchange(post(opened, {}, message))).toMatch(/^HTTP\/1\.1 202 /);
  await pause(IDLE_MS);
  expect(await exchange(post(opened, {}, message))).toMatch(/^HTTP\/1\.1 202 /);
});

/**
 * The client's side: a POST whose connection was closed (here by an intermediary, 100 ms after each answer)
 * before any byte of it was written — the client busy meanwhile, so the close has not been read yet when it
 * sends — is sent on a new connection and answered: fetch sends such a request again itself (undici, Node's,
 * re-dispatches a request its pooled connection closed before writing; a browser does the same). The transport
 * never sends a POST again by itself: one that failed may have reached the server.
 */
it('Streamable HTTP client: a POST whose idle connection was closed before it was written is answered', async () => {
  const handler = createStreamableHttpServer({
    protocol: await modelProtocol(),
    enableJsonResponse: true,
    keepAliveMs: 0,
    onSession: async (transport) => {
      const peer = new RpcPeer(transport, {});
      peer.setRequestHandler('tools/list', () => ({ tools: [] }));
      await peer.start();
    },
  });
  cleanups.push(() => handler.close());
  const connections = new Set<unknown>();
  const { port } = await listen((req, res) => {
    connections.add(req.socket);
    res.once('finish', () => setTimeout(() => req.socket.destroy(), 100));
    void handler(req, res);
  });
  const transport = new StreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`);
  transport.setProtocolVersion('2026-07-28');
  transport.setMetadataHeaders(METADATA_HEADERS, (await modelProtocol()).facts);
  const client = new RpcEngine(transport, {});
  await client.start();
  cleanups.push(() => client.close());
  const meta = {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  };
  expect(await client.request('tools/list', meta)).toEqual({ tools: [] });
  // Busy past the close, then send at once: the connection's end is read only after this request was handed on.
  const busyUntil = Date.now() + 400;
  while (Date.now() < busyUntil);
  expect(await client.request('tools/list', meta)).toEqual({ tools: [] });
  expect(connections.size).toBe(2);
});
