/**
 * The Node-only runtime (`@mcp-typegen/runtime/node`): stdio on both sides and the Streamable HTTP and
 * HTTP+SSE servers (`node:http` request handlers). Runs in Node, Deno and Bun; never imported by browser-safe
 * modules. The WebSocket server, which needs the `ws` package, has its own entry (`/ws`, websocket-server.ts).
 */
export * from './stdio.js';
export * from './http-server.js';
export * from './sse-legacy-server.js';
