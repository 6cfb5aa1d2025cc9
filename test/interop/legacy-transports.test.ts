/**
 * The WebSocket and HTTP+SSE transports against the official SDK (@modelcontextprotocol/sdk) on loopback:
 * the SDK's WebSocketClientTransport and SSEClientTransport against a generated 2025-11-25 server, and a
 * generated client against the SDK's SSEServerTransport. Each pair initializes, calls a tool with progress,
 * sends a notification each way, and ends with no session left on either side.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocketClientTransport as SdkWebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { WebSocket as UndiciWebSocket } from 'undici';
import { built, importBuilt } from '../client/helpers/build.js';
import { listen } from '../transports/helpers/http.js';

type Json = Record<string, any>;

const SERVER_INFO = { name: 'legacy-transports-server', version: '1.0.0' };
const SDK_CLIENT_INFO = { name: 'sdk-client', version: '1.0.0' };

let gen: any;
let ws: any;
const rootsChanged: unknown[] = [];
let server: any;

beforeAll(async () => {
  const b = await built('2025-11-25');
  gen = await importBuilt(b, 'index.js');
  ws = await importBuilt(b, 'runtime/websocket-server.js');
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

describe('SDK WebSocketClientTransport ↔ generated 2025-11-25 server (createWebSocketServer)', () => {
  let endpoint: any;
  let http: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    endpoint = await ws.createWebSocketServer({ keepAliveMs: 0, onSession: (t: unknown) => server.connect(t) });
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
});

/** Waits for a condition that network I/O will make true. */
async function eventually(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
