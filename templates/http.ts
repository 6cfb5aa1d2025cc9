/**
 * Streamable HTTP, both sides: the server (http-server.ts, Node only), the client (http-client.ts, any
 * runtime with fetch), the request metadata headers (http-headers.ts) and SSE (sse.ts), re-exported here.
 *
 * Hand-written runtime copied unchanged into generated output (as `runtime/http.ts`). Import the client
 * module directly in a browser bundle: this one pulls in the Node server.
 */
export * from './http-server.js';
export * from './http-client.js';
export * from './http-headers.js';
export * from './sse.js';
