/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * The options of the Streamable HTTP endpoint (endpoint.ts), declared once, and the two that follow from
 * them alone: the default `onSession`'s facts and the cluster. Node only.
 */
import type { IncomingMessage } from 'node:http';
import type { MessageBus, SessionStore } from '../../../cluster/state.js';
import type { EventStore } from '../../../cluster/event-store.js';
import type { CorsOptions } from '../common.js';
import type { NameSources } from '../../../peer/http-headers.js';
import { Cluster } from './cluster.js';
import type { HttpRequestTransport } from './request-transport.js';
import { StreamableHttpServerTransport } from './session.js';
import type { ProtocolDescription } from '../../../peer/protocol.js';
import type { SessionInfo } from '../../../peer/server-base.js';
import type { Transport } from '../../../core/transport.js';
import type { ServerAuthOptions } from '../../../auth/server/options.js';

/** What the endpoint needs of a generated server (`createServer(…)`): its protocol facts and a way to connect. */
export interface HttpServedServer {
  /** The generated `PROTOCOL` the server was made from. */
  readonly protocol: ProtocolDescription;
  /** The versions the server speaks (its `supportedProtocolVersions`, or every version its facts list). */
  readonly supportedVersions: readonly string[];
  /** Whether `method` is one of the server's requests (a 2026-07-28 one must then carry its `_meta` version). */
  receives?(method: string): boolean;
  /** Serves a connection; `facts` is given for a session of a cluster (see `McpServerBase.connect`). */
  connect(transport: Transport, facts?: Partial<SessionInfo>): Promise<unknown>;
}

/** The methods a generated server receives (its handlers' names), for the `auth` option's `methodScopes`. */
export type MethodsOf<Server> = Server extends { readonly handlers: infer Handlers }
  ? Extract<keyof NonNullable<Handlers>, string>
  : string;

/** Every setting of the endpoint; StreamableHttpServerOptions says which of them are required together. */
export interface StreamableHttpServerSettings<Server extends HttpServedServer = HttpServedServer> {
  /**
   * The generated server behind this endpoint. Every connection is served by it (unless `onSession` says
   * otherwise), and what the transport checks — the versions accepted in `MCP-Protocol-Version`, which allow
   * batches, the `Mcp-Name` sources, the error codes — is read from its `PROTOCOL` facts and supported
   * versions: `createStreamableHttpServer({ server })` is all a generated server needs.
   */
  server?: Server;
  /**
   * Makes the endpoint an OAuth 2.1 protected resource (MCP's authorization chapter): it serves the
   * protected-resource metadata, refuses a request without a valid access token (401 with
   * `WWW-Authenticate`) or without the scopes its method or tool needs (403), binds each session to the
   * identity that opened it, and hands handlers the identity as `ctx.auth`. `methodScopes` is typed by the
   * generated server's methods. Default none: no token is asked for. See docs/authorization-server.md.
   */
  auth?: ServerAuthOptions<MethodsOf<Server>>;
  /**
   * Called for every new connection before its first message is delivered: a session (at initialize, earlier
   * versions) or a single request (2026-07-28 on, `transport.sessionId` undefined). Connect the engine here
   * (`server.connect(transport)`, or install the callbacks and call `start()`). If it throws, the client gets
   * a 500 and nothing is kept. Default: `server.connect(transport)`; one of the two is required.
   */
  onSession?: (transport: StreamableHttpServerTransport | HttpRequestTransport) => void | Promise<void>;
  /** Called when a session ends (DELETE, close(), or server close). */
  onSessionClosed?: (sessionId: string) => void;
  /** The endpoint path; other paths get 404. `'*'` accepts any path. Default `'/mcp'`. */
  path?: string;
  /** Session ids; must be visible ASCII (0x21–0x7E). Default `crypto.randomUUID`. */
  sessionIdGenerator?: () => string;
  /** Answer requests with `application/json` even when the client accepts SSE. Default false. */
  enableJsonResponse?: boolean;
  /** Offer the standalone GET SSE stream. Default true (false: GET → 405 unless resuming). */
  enableGetStream?: boolean;
  /** Allow DELETE to end sessions. Default true (false: 405). */
  enableDelete?: boolean;
  /**
   * Where SSE events are kept for `Last-Event-ID` resumption: a store, `true` (default: one
   * InMemoryEventStore per session), or `false` to disable resumability (no event ids are sent).
   */
  eventStore?: EventStore | boolean;
  /**
   * Where sessions live when several processes ("nodes") serve them behind a load balancer without affinity
   * (with `bus`; pass both or neither): a session opened on another node is restored from it, and served
   * without a second `initialize`. Each record holds the agreed version, the client's capabilities and
   * info, its log level and resource subscriptions, and expires `sessionIdleTimeoutMs` after its last
   * activity. Default none: sessions live in this process only. Give the nodes an `eventStore` they share
   * too, or a stream cannot be resumed on another node. See docs/scaling.md; `@mcp-typegen/runtime/redis`.
   */
  sessionStore?: SessionStore;
  /**
   * How the nodes sharing `sessionStore` reach each other: a client's answer to a request another node sent,
   * an event for a stream whose client is connected elsewhere, a cancellation, the end of a session.
   */
  bus?: MessageBus;
  /** This node's name on the bus (letters, digits, `_`, `-`), unique in the cluster. Default random. */
  nodeId?: string;
  /** The `retry:` value (ms) sent with priming events. Default 1000; undefined-able via `null`. */
  retryMs?: number | null;
  /** Interval of SSE `: keepalive` comments, in ms. Default 25000; 0 disables. */
  keepAliveMs?: number;
  /**
   * Allowed `Host` header values: a hostname (any port) or `host:port`. Default localhost, 127.0.0.1 and
   * [::1], any port.
   */
  allowedHosts?: string[];
  /**
   * Allowed `Origin` header values (exact, e.g. `http://localhost:5173`), checked when the header is present.
   * Default: any origin whose hostname is localhost, 127.0.0.1 or [::1].
   */
  allowedOrigins?: string[];
  /** Turns the Host/Origin checks off (e.g. behind a proxy that already does them); CORS stays as `cors` says. */
  dnsRebindingProtection?: boolean;
  /** Which browser origins may read the answers (CORS). Default none: no CORS headers. */
  cors?: CorsOptions;
  /**
   * Where the server says what a deployer must know: a Host or Origin it refused, an origin that gets no CORS
   * headers — once each, so a page that fails with "Failed to fetch" leaves its reason here. Default
   * `console.warn`.
   */
  log?: (message: string) => void;
  /**
   * The generated `PROTOCOL`, for an engine that is not a generated server (`server` brings its own). One of
   * the two is required: the versions accepted in `MCP-Protocol-Version`, which of them allow batches, the
   * `Mcp-Name` sources, the meta keys and the error codes are read from its facts (the model); the runtime
   * keeps no list of its own.
   */
  protocol?: ProtocolDescription;
  /** Versions accepted in `MCP-Protocol-Version`. Default: `server`'s supported versions, else `protocol`'s. */
  supportedProtocolVersions?: readonly string[];
  /** Largest POST body accepted, in bytes (413 beyond). Default 4 MiB. */
  maxBodyBytes?: number;
  /** Sessions (earlier versions) end after this long without a request or open stream. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /**
   * Most live sessions. At the cap an initialize reclaims the session idle the longest (no request in
   * progress, no stream open: its client gets 404 and opens a new one), or is refused with 503 when none is
   * idle. Default 1000.
   */
  maxSessions?: number;
  /**
   * Most live sessions one client holds (clients told apart by `clientKey`): at the cap its own longest idle
   * session is reclaimed, or the initialize is refused with 429. Default 100.
   */
  maxSessionsPerClient?: number;
  /**
   * Who a request comes from, for `maxSessionsPerClient`. Default the peer's IP address; behind a proxy every
   * client shares the proxy's, so read the address the proxy forwards (and trust only your proxy's header).
   */
  clientKey?: (req: IncomingMessage) => string;
  /** Which params member `Mcp-Name` mirrors, by method (2026-07-28 on). Default: the facts'. */
  nameSources?: NameSources;
}

/**
 * The endpoint's options: the generated server, or an engine of your own with `onSession` and the generated
 * `PROTOCOL`, so that what the transport checks always comes from the model.
 */
export type StreamableHttpServerOptions<Server extends HttpServedServer = HttpServedServer> =
  StreamableHttpServerSettings<Server> &
    (
      | { server: Server }
      | { protocol: ProtocolDescription; onSession: NonNullable<StreamableHttpServerSettings['onSession']> }
    );

export type Connection = StreamableHttpServerTransport | HttpRequestTransport;

/** What the server keeps a session's facts in, when the session is one of a cluster's. */
export function factsOf(transport: Connection): Partial<SessionInfo> | undefined {
  return transport instanceof StreamableHttpServerTransport ? transport.facts : undefined;
}

/** The cluster this endpoint is a node of, when the options name a shared session store and bus. */
export function clusterOf(
  options: StreamableHttpServerSettings,
  local: (id: string) => StreamableHttpServerTransport | undefined,
): Cluster | undefined {
  const { sessionStore, bus } = options;
  if (sessionStore === undefined && bus === undefined) return undefined;
  if (sessionStore === undefined || bus === undefined) {
    throw new Error('createStreamableHttpServer: a cluster needs both `sessionStore` and `bus`');
  }
  return new Cluster({
    sessionStore,
    bus,
    eventStore: typeof options.eventStore === 'object' ? options.eventStore : undefined,
    nodeId: options.nodeId ?? globalThis.crypto.randomUUID().slice(0, 8),
    idleTimeoutMs: options.sessionIdleTimeoutMs ?? 30 * 60_000,
    local,
    log: options.log ?? ((message) => console.warn(message)),
  });
}
