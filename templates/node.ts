/**
 * The Node-only runtime (`@mcp-typegen/runtime/node`): stdio on both sides and the Streamable HTTP server
 * (a `node:http` request handler). Runs in Node, Deno and Bun; never imported by browser-safe modules.
 */
export * from './stdio.js';
export * from './http-server.js';
