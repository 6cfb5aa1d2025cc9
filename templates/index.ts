/**
 * The browser-safe runtime (`@mcp-typegen/runtime`): the JSON-RPC engine, client and server lifecycle
 * bases, the in-memory pair, and the Streamable HTTP, HTTP+SSE and WebSocket clients. No `node:` imports, no `process`:
 * it runs in browsers, workers, Node, Deno and Bun. The Node-only transports are in node.ts.
 *
 * The public API, name by name: what is not listed here is internal and may change in any release
 * (packages/runtime/api-report.md shows every name with its declaration; the suite keeps it current).
 */
export {
  ErrorCode,
  type ErrorCodeValue,
  type JsonRpcErrorObject,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcSuccess,
  LocalError,
  type NotificationSpec,
  type NotificationTable,
  type ParamsArgs,
  ProtocolError,
  type RequestId,
  type RequestSpec,
  type RequestTable,
} from './core/jsonrpc.js';
export {
  createInMemoryPair,
  type InMemoryPairOptions,
  InMemoryTransport,
  type JsonRpcFrame,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from './core/transport.js';
export { RpcPeer } from './core/peer.js';
export { RpcEngine } from './core/engine.js';
export {
  type AnyNotificationTable,
  type AnyRequestTable,
  type DiagnosticKind,
  type EngineOptions,
  type HandlerContext,
  type HandlerParams,
  type JsonObject,
  type NotificationContext,
  type NotificationHandler,
  type NotifyOptions,
  type ParamsIssue,
  type PeerDiagnostic,
  type PeerHooks,
  type PeerOptions,
  type Progress,
  type RequestHandler,
  type RequestOptions,
} from './core/peer-types.js';
export { type CallerParams, type EraCache, type McpClientOptions, type SessionRenewal } from './peer/client-options.js';
export { McpClientBase } from './peer/client-base.js';
export {
  type Era,
  type Implementation,
  type ProtocolDescription,
  type ProtocolFacts,
  type ServerProtocolDescription,
  type ServerProtocolFacts,
  type VersionFact,
} from './peer/protocol.js';
export { type InputAsk, type InputResponsesOf, type InputRound, type InputsHelper } from './peer/input-round.js';
export {
  McpServerBase,
  type McpServerOptions,
  type ServerTables,
  type SessionInfo,
  type WithDefaults,
} from './peer/server-base.js';
export { type AuthInfo } from './peer/auth-info.js';
export { NestedRequestError } from './peer/nested-requests.js';
export {
  checkVendorParams,
  checkWith,
  type CompiledValidator,
  type MessageChecker,
  type Validators,
} from './peer/validation.js';
export {
  checkStructuredContentWith,
  type OutputSchemaValidator,
  type StructuredContentCheck,
} from './peer/structured-content.js';
export {
  type DriftListener,
  DriftWatch,
  type ListedSurface,
  promptCallers,
  type SurfaceChecks,
  surfaceHandlers,
  type SurfaceImplementation,
  type SurfaceSend,
  templateMatcher,
  templateReaders,
  templateReadHandler,
  type TemplateVariableNames,
  type ToolCheck,
  toolCallers,
  type ToolDrift,
  toolDrift,
} from './peer/typed-surface.js';
export { ChannelClient, type ChannelDescription, ChannelPeer, ChannelServer } from './peer/channel.js';
export { checkExtensionSettings, unofferedMethod, type SettingsCheck } from './peer/capabilities.js';
export {
  type MessageEventSourceLike,
  type PortTransportOptions,
  type PostMessageEvent,
  type PostMessageTarget,
  PostMessageTransport,
  type PostMessageTransportOptions,
  type WindowTransportOptions,
} from './transports/post-message/post-message.js';
export { StreamableHttpError } from './transports/http/common.js';
export { type HttpClientAuth } from './auth/client/hook.js';
export { METADATA_HEADERS, type MetadataFacts, type MetadataHeaders } from './peer/http-headers.js';
export {
  type ReconnectionOptions,
  sessionStreams,
  SessionStreams,
  type SessionStreamsOption,
  type SessionStreamsSettings,
} from './transports/http/client/session-streams.js';
export {
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from './transports/http/client/transport.js';
export { SseLegacyClientTransport, type SseLegacyClientTransportOptions } from './transports/sse/client.js';
export { type LegacySseFallback, sseFallback, type SseFallbackOptions } from './transports/http/client/sse-fallback.js';
export {
  WEBSOCKET_SUBPROTOCOL,
  WebSocketClientTransport,
  type WebSocketClientTransportOptions,
  WebSocketCloseCode,
  type WebSocketConstructor,
  type WebSocketLike,
} from './transports/websocket/client.js';
export { type EventStore, InMemoryEventStore } from './cluster/event-store.js';
export { checkRuntimeVersion, RUNTIME_VERSION } from './core/version.js';
