/**
 * The Node-only runtime (`@mcp-typegen/runtime/node`): stdio on both sides and the Streamable HTTP and
 * HTTP+SSE servers (`node:http` request handlers), with their OAuth resource-server gate (`auth`; the ready
 * verifiers are in `/auth/server`, auth-server.ts). Runs in Node, Deno and Bun; never imported by browser-safe
 * modules. The WebSocket server, which needs the `ws` package, has its own entry (`/ws`, ws.ts).
 *
 * The public API, name by name (see index.ts and packages/runtime/api-report.md).
 */
export {
  DEFAULT_INHERITED_ENV_VARS,
  defaultServerEnvironment,
  StdioClientTransport,
  type StdioClientTransportOptions,
  StdioServerTransport,
  type StdioServerTransportOptions,
} from './transports/stdio/stdio.js';
export {
  createStreamableHttpServer,
  type HttpServedServer,
  type MethodsOf,
  type StreamableHttpHandler,
  type StreamableHttpServerOptions,
  type StreamableHttpServerSettings,
} from './transports/http/server/endpoint.js';
export {
  InMemoryMessageBus,
  InMemorySessionStore,
  type MessageBus,
  type SessionRecord,
  type SessionStore,
} from './cluster/state.js';
export { HttpRequestTransport } from './transports/http/server/request-transport.js';
export { StreamableHttpServerTransport } from './transports/http/server/session.js';
export { type HttpMessageExtraInfo } from './transports/http/server/replies.js';
export {
  createSseLegacyServer,
  type SseLegacyHandler,
  type SseLegacyServerOptions,
  SseLegacyServerTransport,
  type SseMessageExtraInfo,
} from './transports/sse/server.js';
export { type CorsOptions, type DnsRebindingOptions } from './transports/http/common.js';
export { InvalidDpopProofError, InvalidTokenError, UseDpopNonceError } from './auth/server/errors.js';
export {
  type DpopProofChecker,
  type ServerAuthOptions,
  type TokenRequest,
  type TokenVerifier,
} from './auth/server/options.js';
