/**
 * The WebSocket server (`@mcp-typegen/runtime/ws`): an `upgrade` handler for a node:http server. An entry of its
 * own because it needs the `ws` package, an optional peer dependency; nothing else in the runtime does.
 *
 * The public API, name by name (see index.ts and packages/runtime/api-report.md).
 */
export {
  createWebSocketServer,
  type DnsRebindingOptions,
  type WebSocketServerOptions,
  WebSocketServerTransport,
  type WebSocketUpgradeHandler,
  type WsModule,
  type WsSocket,
} from './transports/websocket/server.js';
