/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * WebSocket transport, server side: an `upgrade` handler for a node:http server that makes every connection
 * with subprotocol `mcp` a `Transport` (one JSON-RPC message per text frame).
 *
 * Hand-written runtime copied unchanged into generated output. Node only,
 * and the one runtime module with a dependency: the WebSocket protocol itself (handshake, framing, masking,
 * close handshake, UTF-8 checks) comes from the `ws` package, an optional peer dependency loaded when
 * `createWebSocketServer` is called, so nothing else in the runtime needs it installed.
 *
 * Checks, in order, before the handshake is accepted: the path (404), Host and Origin against DNS rebinding
 * (403, the same rules as the Streamable HTTP server), the `mcp` subprotocol (400), `maxSessions` (503),
 * `maxSessionsPerClient` (429).
 * After it: a text frame goes to the engine's single framing path (`ontext`, see core/frame.ts) with the same
 * limits and answers as stdio; a binary frame closes the connection with 1003; a frame over `maxMessageBytes`
 * with 1009 (ws). A client that stops answering pings, or stops reading while `maxBufferedBytes` wait for it,
 * is dropped, and its session with it.
 */
import type { IncomingMessage } from 'node:http';
import { ClientCounts, RETRY_AFTER, type ClientCapOptions } from '../http/server/client-caps.js';
import type { Duplex } from 'node:stream';
import { dnsRebindingGuard, toError, type DnsRebindingOptions } from '../http/common.js';

export type { DnsRebindingOptions };
import { readFrame, type FrameReader } from '../../core/frame.js';
import type { JsonRpcFrame, MessageExtraInfo, Transport } from '../../core/transport.js';
import { WEBSOCKET_SUBPROTOCOL, WebSocketCloseCode } from './client.js';

/** What this module uses of a `ws` WebSocket (typed here so the runtime compiles without `ws` installed). */
export interface WsSocket {
  readonly readyState: number;
  /** Bytes queued for a client that has not read them yet. */
  readonly bufferedAmount: number;
  send(data: string, callback?: (error?: Error) => void): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): void;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: (code: number, reason: unknown) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'pong', listener: () => void): unknown;
}

/** What this module uses of the `ws` package. */
export interface WsModule {
  WebSocketServer: new (options: {
    noServer: true;
    maxPayload: number;
    perMessageDeflate: boolean;
    handleProtocols: (protocols: Set<string>) => string | false;
  }) => {
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, callback: (socket: WsSocket) => void): void;
    close(): void;
  };
}

export interface WebSocketServerOptions extends DnsRebindingOptions, ClientCapOptions {
  /**
   * Called for every accepted connection before its first message is delivered: connect the engine here
   * (`server.connect(transport)`). If it throws, the connection is closed with 1011.
   */
  onSession: (transport: WebSocketServerTransport) => void | Promise<void>;
  /** Called when a connection's session ends. */
  onSessionClosed?: (sessionId: string) => void;
  /** The endpoint path; upgrades on other paths get 404. `'*'` accepts any path. Default `'/mcp'`. */
  path?: string;
  /**
   * Largest WebSocket message accepted, in bytes; a larger one closes the connection with 1009. Default
   * 10 MiB, above the engine's 4 MiB `maxFrameSize`, so a frame between the two is answered with -32600 as on
   * stdio rather than cutting the connection.
   */
  maxMessageBytes?: number;
  /** Most live connections; an upgrade beyond is refused with 503. Default 1000. */
  maxSessions?: number;
  /** Interval of WebSocket pings, in ms; a client that has not answered the previous one is dropped. Default 25000; 0 disables. */
  keepAliveMs?: number;
  /** Bytes waiting for a client that does not read before its connection is cut. Default 16 MiB. */
  maxBufferedBytes?: number;
  /** Sessions ids. Default `crypto.randomUUID`. */
  sessionIdGenerator?: () => string;
  /** The `ws` module to use. Default: `import('ws')` (install `ws`, an optional peer dependency). */
  ws?: WsModule;
}

/** The node:http `upgrade` listener, with the live sessions and a way to end them all. */
export interface WebSocketUpgradeHandler {
  (req: IncomingMessage, socket: Duplex, head: Buffer): void;
  readonly sessions: ReadonlyMap<string, WebSocketServerTransport>;
  /** Closes every connection (1001) and resolves when their sessions have ended. */
  close(): Promise<void>;
}

const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** How long close() waits for the client's half of the closing handshake before cutting the connection. */
const CLOSE_GRACE_MS = 2000;

/** One WebSocket connection as a `Transport`. Created by the upgrade handler and given to `onSession`. */
export class WebSocketServerTransport implements Transport {
  onmessage?: (message: JsonRpcFrame, extra?: MessageExtraInfo) => void;
  ontext?: ((text: string, extra?: MessageExtraInfo) => void) | undefined;
  readonly readFrame: FrameReader = readFrame;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  readonly sessionId: string;

  private readonly socket: WsSocket;
  private readonly extra: MessageExtraInfo;
  private readonly maxBufferedBytes: number;
  private started = false;
  private closed = false;
  /** Frames that arrived before `start()` (the engine connects asynchronously). */
  private backlog: string[] = [];
  private closeWaiters: Array<() => void> = [];
  private graceTimer: ReturnType<typeof setTimeout> | undefined;

  /** @internal Created by createWebSocketServer. */
  constructor(sessionId: string, socket: WsSocket, extra: MessageExtraInfo, maxBufferedBytes: number) {
    this.sessionId = sessionId;
    this.socket = socket;
    this.extra = extra;
    this.maxBufferedBytes = maxBufferedBytes;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('WebSocketServerTransport already started');
    this.started = true;
    const backlog = this.backlog;
    this.backlog = [];
    for (const text of backlog) this.deliver(text);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async send(message: JsonRpcFrame): Promise<void> {
    if (this.closed || this.socket.readyState !== OPEN) throw new Error('Not connected: WebSocket closed');
    const text = JSON.stringify(message);
    if (this.socket.bufferedAmount + text.length > this.maxBufferedBytes) {
      // A client that stops reading must not make the server hold its messages without bound.
      this.onerror?.(new Error(`The client of session ${this.sessionId} stopped reading; closing the connection`));
      this.socket.terminate();
      throw new Error('Not connected: the client stopped reading');
    }
    this.socket.send(text, (error) => {
      if (error !== undefined && error !== null && !this.closed) this.onerror?.(error);
    });
  }

  /** Closes the connection (1000 unless given) and resolves once the session has ended; onclose fires once. */
  close(code: number = WebSocketCloseCode.Normal, reason = ''): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.closeWaiters.push(resolve);
      if (this.graceTimer !== undefined) return;
      this.graceTimer = setTimeout(() => this.socket.terminate(), CLOSE_GRACE_MS);
      this.graceTimer.unref?.();
      this.socket.close(code, reason);
    });
  }

  /** @internal A text frame arrived. */
  receive(text: string): void {
    if (this.closed) return;
    if (this.started) this.deliver(text);
    else this.backlog.push(text);
  }

  /** @internal The connection is gone (either side closed it, or it broke). */
  ended(): void {
    if (this.closed) return;
    this.closed = true;
    this.backlog = [];
    if (this.graceTimer !== undefined) clearTimeout(this.graceTimer);
    try {
      this.onclose?.();
    } finally {
      for (const resolve of this.closeWaiters.splice(0)) resolve();
    }
  }

  private deliver(text: string): void {
    try {
      const ontext = this.ontext;
      if (ontext !== undefined) return ontext(text, this.extra);
      let frame: JsonRpcFrame;
      try {
        frame = JSON.parse(text) as JsonRpcFrame;
      } catch {
        this.onerror?.(new Error(`Invalid JSON in a WebSocket frame: ${text.slice(0, 200)}`));
        return;
      }
      this.onmessage?.(frame, this.extra);
    } catch (error) {
      this.onerror?.(toError(error));
    }
  }
}

const OPEN = 1;

/**
 * Creates the `upgrade` listener for one WebSocket MCP endpoint: `httpServer.on('upgrade', handler)`. Loads
 * `ws` (or uses `options.ws`); rejects with an explanation when it is not installed.
 */
export async function createWebSocketServer(options: WebSocketServerOptions): Promise<WebSocketUpgradeHandler> {
  const ws = options.ws ?? (await loadWs());
  const path = options.path ?? '/mcp';
  const maxSessions = options.maxSessions ?? 1000;
  const forbidden = dnsRebindingGuard(options);
  const sessions = new Map<string, WebSocketServerTransport>();
  const perClient = new ClientCounts(options);
  const server = new ws.WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has(WEBSOCKET_SUBPROTOCOL) ? WEBSOCKET_SUBPROTOCOL : false),
  });

  const handler = ((req: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (path !== '*' && url.pathname !== path) return refuse(socket, 404, 'Not Found');
      const refusal = forbidden(req.headers.host, req.headers.origin);
      if (refusal !== undefined) return refuse(socket, 403, refusal);
      const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
      if (!offered.includes(WEBSOCKET_SUBPROTOCOL)) {
        return refuse(socket, 400, 'Bad Request: the WebSocket subprotocol "mcp" is required');
      }
      if (sessions.size >= maxSessions) {
        return refuse(socket, 503, `Service Unavailable: the server holds its maximum of ${maxSessions} sessions`);
      }
      const admitted = perClient.admit(req);
      if ('refused' in admitted) return refuse(socket, 429, admitted.refused);
      server.handleUpgrade(req, socket, head, (connection) => {
        perClient.add(admitted.client);
        connection.on('close', () => perClient.remove(admitted.client));
        acceptSession(req, connection, sessions, options);
      });
    } catch (error) {
      refuse(socket, 500, `Internal error: ${toError(error).message}`);
    }
  }) as WebSocketUpgradeHandler;
  Object.defineProperties(handler, {
    sessions: { value: sessions },
    close: {
      value: async () => {
        await Promise.all([...sessions.values()].map((s) => s.close(WebSocketCloseCode.GoingAway, 'server closing')));
        server.close();
      },
    },
  });
  return handler;
}

/** A new session on an upgraded socket: its transport, keep-alive pings, and the user's onSession. */
function acceptSession(
  req: IncomingMessage,
  socket: WsSocket,
  sessions: Map<string, WebSocketServerTransport>,
  options: WebSocketServerOptions,
): void {
  const sessionId = options.sessionIdGenerator?.() ?? globalThis.crypto.randomUUID();
  const transport = new WebSocketServerTransport(
    sessionId,
    socket,
    { requestInfo: requestInfoOf(req) },
    options.maxBufferedBytes ?? 16 * 1024 * 1024,
  );
  sessions.set(sessionId, transport);
  const stopPinging = keepAlive(socket, options.keepAliveMs ?? 25_000);
  socket.on('message', (data, isBinary) => {
    if (isBinary) {
      transport.onerror?.(new Error('Received a binary WebSocket frame; MCP messages are text frames'));
      socket.close(WebSocketCloseCode.UnsupportedData, 'MCP messages are text frames');
      return;
    }
    transport.receive(textOf(data));
  });
  socket.on('error', (error) => transport.onerror?.(error));
  socket.on('close', () => {
    stopPinging();
    if (sessions.get(sessionId) === transport) {
      sessions.delete(sessionId);
      options.onSessionClosed?.(sessionId);
    }
    transport.ended();
  });
  void (async () => {
    try {
      await options.onSession(transport);
    } catch (error) {
      transport.onerror?.(toError(error));
      await transport.close(WebSocketCloseCode.InternalError, 'could not create the session');
    }
  })();
}

/** Pings every `ms`; a socket that answered nothing (no pong, no message) since the last ping is dropped. */
function keepAlive(socket: WsSocket, ms: number): () => void {
  if (ms <= 0) return () => undefined;
  let alive = true;
  const pinger = setInterval(() => {
    if (!alive) return socket.terminate();
    alive = false;
    socket.ping();
  }, ms);
  pinger.unref?.();
  socket.on('pong', () => (alive = true));
  socket.on('message', () => (alive = true));
  return () => clearInterval(pinger);
}

/** Answers an upgrade request with a plain HTTP error and drops the connection. */
function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } });
  if (!socket.writable) return void socket.destroy();
  socket.once('finish', () => socket.destroy());
  // Refused for want of room (429, 503): say when to try again.
  const retry = status === 429 || status === 503 ? `Retry-After: ${RETRY_AFTER['retry-after']}\r\n` : '';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n` +
      'Content-Type: application/json\r\n' +
      retry +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

const STATUS_TEXT: { [status: number]: string } = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

function textOf(data: unknown): string {
  if (typeof data === 'string') return data;
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
}

async function loadWs(): Promise<WsModule> {
  // A variable specifier: the runtime compiles (and bundles) without `ws`, which only this module needs.
  const specifier = 'ws';
  try {
    const module = (await import(specifier)) as Partial<WsModule> & { default?: Partial<WsModule> };
    const WebSocketServer = module.WebSocketServer ?? module.default?.WebSocketServer;
    if (WebSocketServer === undefined) throw new Error('it has no WebSocketServer export');
    return { WebSocketServer };
  } catch (error) {
    throw new Error(
      `createWebSocketServer needs the "ws" package (an optional peer dependency): npm install ws (${toError(error).message})`,
      { cause: error },
    );
  }
}

function requestInfoOf(req: IncomingMessage): NonNullable<MessageExtraInfo['requestInfo']> {
  try {
    return { headers: req.headers, url: new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`) };
  } catch {
    return { headers: req.headers };
  }
}
