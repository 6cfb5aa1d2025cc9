/**
 * The WebSocket and HTTP+SSE transports of the runtime package (the entries generated code imports: '.',
 * './node', './ws') against the official SDK (@modelcontextprotocol/sdk) on loopback:
 * the SDK's WebSocketClientTransport and SSEClientTransport against a generated 2025-11-25 server, and a
 * generated client against the SDK's SSEServerTransport (directly, and by the Streamable HTTP fallbacks of a
 * 2025-11-25 and a 2026-07-28 client); plus the generated client on WebSocket. Each pair initializes, calls a tool,
 * sends a notification each way, and ends with no session left on either side.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocketClientTransport as SdkWebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { SSEClientTransport as SdkSseClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport as SdkSseServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { WebSocket as UndiciWebSocket } from 'undici';
import { z } from 'zod';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SseLegacyClientTransport, WebSocketClientTransport, sseFallback } from '@mcp-typegen/runtime';
import { createSseLegacyServer } from '@mcp-typegen/runtime/node';
import { createWebSocketServer } from '@mcp-typegen/runtime/ws';
import { built, importBuilt } from '../client/helpers/build.js';
import { listen } from '../transports/helpers/http.js';
import { eventually } from '../helpers/eventually.js';

type Json = Record<string, any>;

const SERVER_INFO = { name: 'legacy-transports-server', version: '1.0.0' };
const SDK_CLIENT_INFO = { name: 'sdk-client', version: '1.0.0' };

let gen: any;
const rootsChanged: unknown[] = [];
let server: any;

beforeAll(async () => {
  const b = await built('2025-11-25');
  gen = await importBuilt(b, 'index.js');
  server = gen.createServer(
    {
      'tools/list': () => ({
        tools: [{ name: 'count', inputSchema: { type: 'object', properties: { steps: { type: 'number' } } } }],
      }),
      'tools/call': async (params: Json, ctx: Json) => {
        const steps = Number(params.arguments?.steps ?? 2);
        for (let i = 1; i <= steps; i++) {
          await ctx.progress(i, steps);
          // The SDK client handles notifications a microtask after responses: let each progress land first.
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await ctx.notify('notifications/message', { level: 'info', data: `counted ${steps}` });
        return { content: [{ type: 'text', text: `counted ${steps}` }] };
      },
      'notifications/roots/list_changed': (params: unknown) => void rootsChanged.push(params ?? {}),
    },
    { serverInfo: SERVER_INFO },
  );
});

/** What every SDK client run checks: handshake, a tool call with progress and a log, a notification up. */
async function exerciseSdkClient(client: Client): Promise<void> {
  expect(client.getServerVersion()).toEqual(SERVER_INFO);
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(['count']);
  const progress: unknown[] = [];
  const logs: unknown[] = [];
  client.fallbackNotificationHandler = async (n) => void (n.method === 'notifications/message' && logs.push(n.params));
  const result = await client.callTool({ name: 'count', arguments: { steps: 3 } }, undefined, {
    onprogress: (p) => progress.push(p),
  });
  expect(result.content).toEqual([{ type: 'text', text: 'counted 3' }]);
  expect(progress).toEqual([1, 2, 3].map((n) => ({ progress: n, total: 3 })));
  await eventually(() => logs.length === 1);
  expect(logs).toEqual([{ level: 'info', data: 'counted 3' }]);
  const before = rootsChanged.length;
  await client.sendRootsListChanged();
  await eventually(() => rootsChanged.length === before + 1);
}

describe('SDK WebSocketClientTransport and the generated client ↔ generated 2025-11-25 server (createWebSocketServer)', () => {
  let endpoint: any;
  let http: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    endpoint = await createWebSocketServer({ keepAliveMs: 0, onSession: (t: unknown) => server.connect(t) });
    http = await listen((_req, res) => void res.writeHead(426).end());
    http.server.on('upgrade', endpoint);
    // The SDK's transport uses the global WebSocket, which Node 20 lacks: undici's is Node 22's global.
    vi.stubGlobal('WebSocket', UndiciWebSocket);
  });

  afterAll(async () => {
    vi.unstubAllGlobals();
    await endpoint?.close();
    await http?.close();
  });

  it('initializes, calls a tool with progress, gets a log, sends a notification, closes cleanly', async () => {
    const client = new Client(SDK_CLIENT_INFO, { capabilities: { roots: { listChanged: true } } });
    await client.connect(new SdkWebSocketClientTransport(new URL(`ws://127.0.0.1:${http.port}/mcp`)));
    await exerciseSdkClient(client);
    expect(endpoint.sessions.size).toBe(1);
    await client.close();
    await eventually(() => endpoint.sessions.size === 0 && server.sessions.size === 0);
  });

  it('the generated McpClient on WebSocketClientTransport (undici injected) against the same server', async () => {
    const transport = new WebSocketClientTransport(`ws://127.0.0.1:${http.port}/mcp`, { WebSocket: UndiciWebSocket });
    const client = new gen.McpClient(transport, {
      clientInfo: { name: 'generated-client', version: '0.0.0' },
      capabilities: { roots: { listChanged: true } },
    });
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (params: unknown) => void logs.push(params));
    await client.connect();
    expect(client.serverInfo).toEqual(SERVER_INFO);
    const progress: unknown[] = [];
    const result = await client.tools.call(
      { name: 'count', arguments: { steps: 2 } },
      { onProgress: (p: unknown) => progress.push(p) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'counted 2' }]);
    expect(progress).toEqual([1, 2].map((n) => ({ progress: n, total: 2 })));
    await eventually(() => logs.length === 1);
    const before = rootsChanged.length;
    await client.notify('notifications/roots/list_changed', {});
    await eventually(() => rootsChanged.length === before + 1);
    await client.close();
    await eventually(() => endpoint.sessions.size === 0 && server.sessions.size === 0);
  });
});

describe('SDK SSEClientTransport ↔ generated 2025-11-25 server (createSseLegacyServer)', () => {
  let endpoint: any;
  let http: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    endpoint = createSseLegacyServer({ keepAliveMs: 0, onSession: (t: unknown) => server.connect(t) });
    http = await listen(endpoint);
  });

  afterAll(async () => {
    await endpoint?.close();
    await http?.close();
  });

  it('initializes, calls a tool with progress, gets a log, sends a notification, closes cleanly', async () => {
    const client = new Client(SDK_CLIENT_INFO, { capabilities: { roots: { listChanged: true } } });
    await client.connect(new SdkSseClientTransport(new URL(`${http.url}/sse`)));
    await exerciseSdkClient(client);
    expect(endpoint.sessions.size).toBe(1);
    await client.close();
    await eventually(() => endpoint.sessions.size === 0 && server.sessions.size === 0);
  });
});

describe('generated 2025-11-25 McpClient ↔ SDK SSEServerTransport', () => {
  let http: Awaited<ReturnType<typeof listen>>;
  const sdkSessions = new Map<string, InstanceType<typeof SdkSseServerTransport>>();
  const received: unknown[] = [];

  beforeAll(async () => {
    http = await listen(async (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (req.method === 'GET' && url.pathname === '/sse') {
        const transport = new SdkSseServerTransport('/messages', res);
        sdkSessions.set(transport.sessionId, transport);
        transport.onclose = () => sdkSessions.delete(transport.sessionId);
        const mcp = new SdkMcpServer({ name: 'sdk-sse-server', version: '1.2.3' }, { capabilities: { logging: {} } });
        mcp.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }, extra) => {
          await extra.sendNotification({
            method: 'notifications/message',
            params: { level: 'info', data: `adding ${a} and ${b}` },
          });
          return { content: [{ type: 'text', text: String(a + b) }] };
        });
        mcp.server.setNotificationHandler(
          z.object({ method: z.literal('notifications/roots/list_changed') }).passthrough() as never,
          (n: unknown) => void received.push(n),
        );
        await mcp.connect(transport);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/messages') {
        const transport = sdkSessions.get(url.searchParams.get('sessionId') ?? '');
        if (transport === undefined) return void res.writeHead(404).end('unknown session');
        return void transport.handlePostMessage(req, res);
      }
      // What an HTTP+SSE-only server says to a Streamable HTTP POST on its stream URL.
      res.writeHead(405, { 'content-type': 'text/plain' }).end('Method Not Allowed');
    });
  });

  afterAll(async () => {
    for (const transport of sdkSessions.values()) await transport.close();
    await http?.close();
  });

  const transports: Record<string, () => unknown> = {
    SseLegacyClientTransport: () => new SseLegacyClientTransport(`${http.url}/sse`),
    'StreamableHttpClientTransport (falls back)': () =>
      new gen.StreamableHttpClientTransport(`${http.url}/sse`, { legacySse: sseFallback() }),
  };

  it.each(Object.keys(transports))('over %s: initializes, calls a tool, a notification each way', async (name) => {
    const transport = transports[name]!() as any;
    const client = new gen.McpClient(transport, {
      clientInfo: { name: 'generated-client', version: '0.0.0' },
      capabilities: { roots: { listChanged: true } },
    });
    await exerciseGeneratedClient(client, name.startsWith('Streamable') ? transport : undefined);
  });

  it('a generated 2026-07-28 client: server/discover refused, initialize refused, then HTTP+SSE', async () => {
    const gen2026 = await importBuilt(await built('2026-07-28'), 'index.js');
    // Its own memory of HTTP+SSE URLs: the test before taught the process's one that this URL is one.
    const transport = new gen2026.StreamableHttpClientTransport(`${http.url}/sse`, {
      legacySse: sseFallback({ cache: new Set() }),
    });
    const client = gen2026.createClient(transport, {
      clientInfo: { name: 'generated-2026-client', version: '0.0.0' },
      capabilities: { roots: { listChanged: true } },
      eraCache: new Map(),
    });
    await exerciseGeneratedClient(client, transport);
    expect(client.era).toBe('legacy');
  });

  async function exerciseGeneratedClient(client: any, fellBack: any): Promise<void> {
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (params: unknown) => void logs.push(params));
    await client.connect();
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.serverInfo).toEqual({ name: 'sdk-sse-server', version: '1.2.3' });
    if (fellBack !== undefined) expect(fellBack.usesLegacySse).toBe(true);
    const result = await client.tools.call({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(result.content).toEqual([{ type: 'text', text: '5' }]);
    await eventually(() => logs.length === 1);
    expect(logs).toEqual([{ level: 'info', data: 'adding 2 and 3' }]);
    const before = received.length;
    await client.notify('notifications/roots/list_changed', {});
    await eventually(() => received.length === before + 1);
    expect(sdkSessions.size).toBe(1);
    await client.close();
    await eventually(() => sdkSessions.size === 0);
  }
});
