/**
 * The browser-safe runtime (`@mcp-typegen/runtime`): the JSON-RPC engine, client and server lifecycle
 * bases, the in-memory pair, and the Streamable HTTP, HTTP+SSE and WebSocket clients. No `node:` imports, no `process`:
 * it runs in browsers, workers, Node, Deno and Bun. The Node-only transports are in node.ts.
 */
export * from './jsonrpc.js';
export * from './transport.js';
export * from './peer.js';
export * from './client-base.js';
export * from './server-base.js';
export * from './validation.js';
export * from './structured-content.js';
export * from './capabilities.js';
export * from './channel.js';
export * from './http-client.js';
export * from './http-client-streams.js';
export * from './sse-legacy-client.js';
export * from './sse-fallback.js';
export * from './websocket.js';
export * from './sse.js';
export * from './event-store.js';
export * from './version.js';
