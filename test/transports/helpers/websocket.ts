/**
 * A loopback HTTP server whose `upgrade` events go to a WebSocket MCP endpoint
 * (templates/transports/websocket/server.ts), and the client-side WebSocket class the tests inject: undici's,
 * the implementation behind Node 22's global WebSocket (Node 20 has no global one without a flag).
 */
import { WebSocket as UndiciWebSocket } from 'undici';
import * as wsPackage from 'ws';
import {
  createWebSocketServer,
  type WebSocketServerOptions,
  type WebSocketUpgradeHandler,
  type WsModule,
} from '../../../templates/transports/websocket/server.js';
import type { WebSocketConstructor } from '../../../templates/transports/websocket/client.js';
import { listen } from './http.js';

/** Type checks (tsc compiles this file): the WebSocket classes users pass must fit the runtime's interfaces. */
export const TestWebSocket: WebSocketConstructor = UndiciWebSocket;
export const wsModule: WsModule = wsPackage;

export interface WebSocketEndpoint {
  handler: WebSocketUpgradeHandler;
  /** `ws://127.0.0.1:<port>` (no path). */
  url: string;
  close: () => Promise<void>;
}

/** Listens on 127.0.0.1 with a WebSocket endpoint; close() ends every session, then the server. */
export async function listenWebSocket(options: WebSocketServerOptions): Promise<WebSocketEndpoint> {
  const handler = await createWebSocketServer({ keepAliveMs: 0, ...options });
  const http = await listen((_req, res) => void res.writeHead(426).end());
  http.server.on('upgrade', handler);
  return {
    handler,
    url: `ws://127.0.0.1:${http.port}`,
    close: async () => {
      await handler.close();
      await http.close();
    },
  };
}

/** A raw WebSocket (undici) with subprotocol mcp: resolves once open, collecting every text frame received. */
export async function rawSocket(
  url: string,
  protocols: string[] = ['mcp'],
): Promise<{ socket: UndiciWebSocket; frames: string[]; closed: Promise<{ code: number; reason: string }> }> {
  const socket = new UndiciWebSocket(url, protocols);
  const frames: string[] = [];
  socket.addEventListener('message', (event) => void frames.push(String(event.data)));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.addEventListener('close', (event) => resolve({ code: event.code, reason: event.reason })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve());
    socket.addEventListener('error', () => reject(new Error(`WebSocket ${url} failed to open`)));
  });
  return { socket, frames, closed };
}
