/**
 * The WebSocket transport, both sides (templates/transports/websocket/: client.ts, server.ts) on loopback:
 * requests and notifications both ways through the engine, the handshake checks (path, Host/Origin,
 * subprotocol, session cap), the limits (binary frames, oversized messages, unanswered pings), and every
 * session gone afterwards. The frame corpus runs over WebSocket in frame-corpus.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket as WsClient, WebSocketServer } from 'ws';
import { RpcPeer } from '../../templates/core/peer.js';
import type { WebSocketServerTransport } from '../../templates/transports/websocket/server.js';
import { WebSocketClientTransport } from '../../templates/transports/websocket/client.js';
import { TestWebSocket, listenWebSocket, rawSocket, type WebSocketEndpoint } from './helpers/websocket.js';
import { eventually } from '../helpers/eventually.js';

let endpoint: WebSocketEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

/** A server peer per connection answering ping and `echo`, and sending `notifications/hello` on `greet`. */
function servePeers(peers: RpcPeer[] = []) {
  return async (transport: WebSocketServerTransport) => {
    const peer = new RpcPeer(transport);
    peers.push(peer);
    peer.setRequestHandler('ping', () => ({}));
    peer.setRequestHandler('echo', (params) => ({ echoed: params ?? null }));
    peer.setRequestHandler('ask', async (_params, ctx) => ({ answer: await ctx.request('whoami' as never, {}) }));
    peer.setNotificationHandler('greet', () => void peer.notify('notifications/hello', { from: 'server' }));
    await peer.start();
  };
}

/** Upgrade request headers, sent raw so Host, Origin and the subprotocol can be anything. */
function upgrade(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url.replace(/^ws/, 'http'), {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode!);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('WebSocket: generated-runtime client ↔ server', () => {
  it('requests and notifications flow both ways; close ends the session on both sides', async () => {
    const serverPeers: RpcPeer[] = [];
    endpoint = await listenWebSocket({ onSession: servePeers(serverPeers) });
    const transport = new WebSocketClientTransport(`${endpoint.url}/mcp`, { WebSocket: TestWebSocket });
    const client = new RpcPeer(transport);
    client.setRequestHandler('whoami', () => ({ name: 'client' }));
    const hello = new Promise((resolve) => client.setNotificationHandler('notifications/hello', resolve));
    await client.start();

    await expect(client.request('echo' as never, { text: 'héllo ✓' } as never)).resolves.toEqual({
      echoed: { text: 'héllo ✓' },
    });
    await expect(client.request('ask' as never, {} as never)).resolves.toEqual({ answer: { name: 'client' } });
    await client.notify('greet' as never, {} as never);
    await expect(hello).resolves.toEqual({ from: 'server' });
    expect(endpoint.handler.sessions.size).toBe(1);
    const [session] = endpoint.handler.sessions.values();
    expect(session!.sessionId).toMatch(/^[0-9a-f-]{36}$/);

    let clientClosed = 0;
    transport.onclose = () => void clientClosed++;
    await client.close();
    await eventually(() => endpoint!.handler.sessions.size === 0);
    expect(clientClosed).toBe(1);
    expect(session!.isClosed).toBe(true);
    await expect(client.request('ping' as never, {} as never)).rejects.toThrow();
  });

  it('the server closing ends the client (onclose once), and a send after it fails', async () => {
    endpoint = await listenWebSocket({ onSession: servePeers() });
    const transport = new WebSocketClientTransport(`${endpoint.url}/mcp`, { WebSocket: TestWebSocket });
    let closes = 0;
    const errors: Error[] = [];
    transport.onclose = () => void closes++;
    transport.onerror = (e) => void errors.push(e);
    await transport.start();
    await eventually(() => endpoint!.handler.sessions.size === 1);
    await endpoint.handler.close();
    await eventually(() => closes === 1);
    expect(errors).toEqual([]); // 1001 going away is a normal end
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow('Not connected');
    await transport.close();
    expect(closes).toBe(1);
  });

  it('start() rejects without a WebSocket class, and when the server does not select "mcp"', async () => {
    const none = new WebSocketClientTransport('ws://127.0.0.1:9/mcp', { WebSocket: undefined });
    if (!('WebSocket' in globalThis)) await expect(none.start()).rejects.toThrow('pass one as options.WebSocket');

    // A plain WebSocket server that selects no subprotocol.
    const http = createServer();
    const plain = new WebSocketServer({ server: http, handleProtocols: () => false });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
      const transport = new WebSocketClientTransport(url, { WebSocket: TestWebSocket });
      // undici fails the handshake itself (a requested subprotocol must be selected); others open, and the
      // transport then closes and rejects.
      await expect(transport.start()).rejects.toThrow(`WebSocket ${url}`);
    } finally {
      for (const client of plain.clients) client.terminate();
      plain.close();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});

describe('WebSocket server: handshake checks', () => {
  it('refuses other paths (404), foreign Host or Origin (403), a missing mcp subprotocol (400)', async () => {
    endpoint = await listenWebSocket({ onSession: servePeers() });
    const port = new URL(endpoint.url).port;
    const good = { host: `127.0.0.1:${port}`, 'sec-websocket-protocol': 'mcp' };
    expect(await upgrade(`${endpoint.url}/mcp`, good)).toBe(101);
    expect(await upgrade(`${endpoint.url}/other`, good)).toBe(404);
    expect(await upgrade(`${endpoint.url}/mcp`, { ...good, host: `evil.example:${port}` })).toBe(403);
    expect(await upgrade(`${endpoint.url}/mcp`, { ...good, origin: 'http://evil.example' })).toBe(403);
    expect(await upgrade(`${endpoint.url}/mcp`, { ...good, origin: 'http://localhost:5173' })).toBe(101);
    expect(await upgrade(`${endpoint.url}/mcp`, { ...good, 'sec-websocket-protocol': 'chat' })).toBe(400);
    expect(await upgrade(`${endpoint.url}/mcp`, { ...good, 'sec-websocket-protocol': 'chat, mcp' })).toBe(101);
    await eventually(() => endpoint!.handler.sessions.size === 0);
  });

  it('allowedOrigins replaces the local default; maxSessions caps live connections (503)', async () => {
    endpoint = await listenWebSocket({
      onSession: servePeers(),
      allowedOrigins: ['https://app.example'],
      maxSessions: 1,
    });
    const port = new URL(endpoint.url).port;
    const good = { host: `127.0.0.1:${port}`, 'sec-websocket-protocol': 'mcp' };
    expect(await upgrade(`${endpoint.url}/mcp`, { ...good, origin: 'http://localhost:5173' })).toBe(403);
    const first = await rawSocket(`${endpoint.url}/mcp`);
    await eventually(() => endpoint!.handler.sessions.size === 1);
    expect(await upgrade(`${endpoint.url}/mcp`, { ...good, origin: 'https://app.example' })).toBe(503);
    first.socket.close();
    await eventually(() => endpoint!.handler.sessions.size === 0);
    expect(await upgrade(`${endpoint.url}/mcp`, { ...good, origin: 'https://app.example' })).toBe(101);
  });

  it('a failing onSession closes the connection with 1011 and keeps nothing', async () => {
    endpoint = await listenWebSocket({
      onSession: () => {
        throw new Error('no engine today');
      },
    });
    const { closed } = await rawSocket(`${endpoint.url}/mcp`);
    expect((await closed).code).toBe(1011);
    await eventually(() => endpoint!.handler.sessions.size === 0);
  });
});

describe('WebSocket server: limits', () => {
  it('a binary frame closes the connection with 1003', async () => {
    endpoint = await listenWebSocket({ onSession: servePeers() });
    const { socket, closed } = await rawSocket(`${endpoint.url}/mcp`);
    socket.send(new Uint8Array([123, 125]));
    expect((await closed).code).toBe(1003);
    await eventually(() => endpoint!.handler.sessions.size === 0);
  });

  it('a frame over maxFrameSize is answered -32600 with its id; one over maxMessageBytes closes with 1009', async () => {
    endpoint = await listenWebSocket({
      maxMessageBytes: 64 * 1024,
      onSession: async (transport) => {
        const peer = new RpcPeer(transport, { maxFrameSize: 1024 });
        peer.setRequestHandler('ping', () => ({}));
        await peer.start();
      },
    });
    const { socket, frames, closed } = await rawSocket(`${endpoint.url}/mcp`);
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'ping', params: { pad: 'x'.repeat(2000) } }));
    await eventually(() => frames.length === 1);
    expect(JSON.parse(frames[0]!)).toMatchObject({ id: 'big', error: { code: -32600, data: { limit: 1024 } } });
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 'huge', method: 'ping', params: { pad: 'x'.repeat(70_000) } }));
    expect((await closed).code).toBe(1009);
    await eventually(() => endpoint!.handler.sessions.size === 0);
  });

  it('a client that stops reading is cut off once maxBufferedBytes wait for it', async () => {
    endpoint = await listenWebSocket({ onSession: servePeers(), maxBufferedBytes: 64 * 1024 });
    const reader = new WsClient(`${endpoint.url}/mcp`, ['mcp']);
    await new Promise((resolve) => reader.once('open', resolve));
    reader.pause();
    await eventually(() => endpoint!.handler.sessions.size === 1);
    const [session] = endpoint.handler.sessions.values();
    const errors: Error[] = [];
    session!.onerror = (e) => void errors.push(e);
    const big = { jsonrpc: '2.0' as const, method: 'notifications/big', params: { pad: 'x'.repeat(256 * 1024) } };
    let refused: unknown;
    for (let i = 0; i < 400 && refused === undefined; i++) {
      refused = await session!.send(big).then(
        () => undefined,
        (e: unknown) => e,
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(String(refused)).toContain('stopped reading');
    expect(errors[0]?.message).toContain('stopped reading');
    await eventually(() => endpoint!.handler.sessions.size === 0);
    reader.terminate();
  });

  it('a client that stops answering pings is dropped', async () => {
    endpoint = await listenWebSocket({ onSession: servePeers(), keepAliveMs: 50 });
    const silent = new WsClient(`${endpoint.url}/mcp`, ['mcp'], { autoPong: false });
    const closed = new Promise<number>((resolve) => silent.on('close', resolve));
    await eventually(() => endpoint!.handler.sessions.size === 1);
    expect(await closed).toBe(1006); // terminated: no closing handshake
    await eventually(() => endpoint!.handler.sessions.size === 0);
  });

  it('a client that answers pings stays', async () => {
    // Wide margins: a pong must beat the next ping, and a loaded machine stalls the loop for a while.
    endpoint = await listenWebSocket({ onSession: servePeers(), keepAliveMs: 250 });
    const { socket, frames } = await rawSocket(`${endpoint.url}/mcp`);
    await new Promise((resolve) => setTimeout(resolve, 800));
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    await eventually(() => frames.length === 1);
    expect(endpoint.handler.sessions.size).toBe(1);
    socket.close();
  });
});
