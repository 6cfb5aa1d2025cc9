/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * HTTP+SSE, server side: the 2024-11-05 transport (deprecated since 2025-03-26, still deployed), as a
 * node:http request handler for its two endpoints, so older clients can reach a server that also serves
 * Streamable HTTP (route the paths to the two handlers).
 *
 * Hand-written runtime copied unchanged into generated output. Node only.
 *
 * - GET `ssePath` (default `/sse`) opens a session: an SSE stream whose first event, `endpoint`, names where
 *   the client POSTs (`postPath?sessionId=…`, a path on the same origin). The server's messages follow as
 *   `message` events. The session lasts as long as the stream: it ends when either side closes it.
 * - POST `postPath?sessionId=…` carries one client frame. It is accepted (202) and goes to the engine's single
 *   framing path (`ontext`, see core/frame.ts): its answers, errors for invalid frames included, come on the
 *   stream, as they would on stdio. Refused at the HTTP level: no session id (400), unknown session (404),
 *   a content type other than JSON (415), a body over `maxBodyBytes` (413, without reading the rest).
 * - Both: Host and Origin are checked against DNS rebinding (403) with the Streamable HTTP server's rules;
 *   CORS is its own allow-list (`cors`, none by default), as there.
 *
 * Limits: `maxSessions` (503 beyond), `maxSessionsPerClient` (429 beyond); a session whose client has not POSTed within `handshakeTimeoutMs` of
 * its endpoint event is closed (an idle stream holds no slot); a client that stops reading its stream is cut
 * off once `maxBufferedBytes` wait for it; keep-alive comments surface vanished clients.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  checkCors,
  corsAllowed,
  dnsRebindingGuard,
  mediaType,
  toError,
  type CorsOptions,
  type DnsRebindingOptions,
} from '../http/common.js';
import { TOO_LARGE_HEADERS, accepts, outlastClientReuse, readBody } from '../http/server/request.js';
import { ClientCounts, RETRY_AFTER, type ClientCapOptions } from '../http/server/client-caps.js';
import { formatSseEvent } from '../http/sse.js';
import { readFrame, type FrameReader } from '../../core/frame.js';
import type { JsonRpcFrame, MessageExtraInfo, Transport } from '../../core/transport.js';
import { AuthGate } from '../../auth/server/gate.js';
import type { ServerAuthOptions } from '../../auth/server/options.js';
import type { AuthInfo } from '../../peer/auth-info.js';

export interface SseLegacyServerOptions extends DnsRebindingOptions, ClientCapOptions {
  /** Which browser origins may read the answers (CORS), apart from the rebinding checks. Default none. */
  cors?: CorsOptions;
  /**
   * Called for every new stream before its endpoint event is sent: connect the engine here
   * (`server.connect(transport)`). If it throws, the client gets a 500 and nothing is kept.
   */
  onSession: (transport: SseLegacyServerTransport) => void | Promise<void>;
  /** Called when a session ends. */
  onSessionClosed?: (sessionId: string) => void;
  /** Path of the SSE stream (GET). Default `/sse`. */
  ssePath?: string;
  /** Path the client POSTs its messages to (named by the endpoint event). Default `/messages`. */
  postPath?: string;
  /**
   * Largest POST body accepted, in bytes (413 beyond). Default 10 MiB, above the engine's 4 MiB
   * `maxFrameSize`, so a frame between the two is answered with -32600 on the stream as on stdio.
   */
  maxBodyBytes?: number;
  /** Most live sessions; a GET beyond is refused with 503. Default 1000. */
  maxSessions?: number;
  /** A session whose client sends nothing this long after the endpoint event is closed. Default 30000 ms. */
  handshakeTimeoutMs?: number;
  /** Bytes waiting for a client that does not read its stream before its session is closed. Default 16 MiB. */
  maxBufferedBytes?: number;
  /** Interval of SSE `: keepalive` comments, in ms. Default 25000; 0 disables. */
  keepAliveMs?: number;
  /** Session ids; must be URL-safe. Default `crypto.randomUUID`. */
  sessionIdGenerator?: () => string;
  /**
   * Makes both endpoints an OAuth 2.1 protected resource, as the Streamable HTTP server's `auth` option does:
   * metadata, 401/403 challenges, a session usable only by the identity that opened it (404 to any other),
   * `ctx.auth` in handlers. Default none. See docs/authorization-server.md.
   */
  auth?: ServerAuthOptions;
  /** Where the server says what a deployer must know (a token that could not be verified). Default `console.warn`. */
  log?: (message: string) => void;
}

/** The node:http request handler, with the live sessions and a way to end them all. */
export interface SseLegacyHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Like calling the handler, but resolves when the request has been handled (for a GET: the stream opened). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  readonly sessions: ReadonlyMap<string, SseLegacyServerTransport>;
  /** Ends every session (their streams end, onclose fires). */
  close(): Promise<void>;
}

/** What comes with each POSTed frame: the HTTP request, and who sent it (with `auth`; handlers read `ctx.auth`). */
export interface SseMessageExtraInfo extends MessageExtraInfo {
  auth?: AuthInfo | undefined;
}

interface SessionLimits {
  maxBufferedBytes: number;
  keepAliveMs: number;
  handshakeTimeoutMs: number;
  onClosed: (transport: SseLegacyServerTransport) => void;
}

/** One HTTP+SSE session as a `Transport`: messages go out on its stream, POSTed frames come in. */
export class SseLegacyServerTransport implements Transport {
  onmessage?: (message: JsonRpcFrame, extra?: SseMessageExtraInfo) => void;
  ontext?: ((text: string, extra?: SseMessageExtraInfo) => void) | undefined;
  readonly readFrame: FrameReader = readFrame;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  readonly sessionId: string;

  private readonly res: ServerResponse;
  private readonly limits: SessionLimits;
  private started = false;
  private closed = false;
  private heardFrom = false;
  private backlog: Array<{ text: string; extra: SseMessageExtraInfo }> = [];
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private handshakeTimer: ReturnType<typeof setTimeout> | undefined;

  /** @internal Created by createSseLegacyServer. */
  constructor(sessionId: string, res: ServerResponse, limits: SessionLimits) {
    this.sessionId = sessionId;
    this.res = res;
    this.limits = limits;
    res.once('close', () => void this.close());
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('SseLegacyServerTransport already started');
    this.started = true;
    const backlog = this.backlog;
    this.backlog = [];
    for (const { text, extra } of backlog) this.deliver(text, extra);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async send(message: JsonRpcFrame): Promise<void> {
    if (this.closed || this.res.writableEnded) throw new Error('Not connected: the SSE stream is closed');
    this.res.write(formatSseEvent({ event: 'message', data: JSON.stringify(message) }));
    if (this.res.writableLength > this.limits.maxBufferedBytes) {
      this.onerror?.(
        new Error(`The client of session ${this.sessionId} stopped reading its stream; closing the session`),
      );
      void this.close();
    }
  }

  /** Ends the stream and the session; onclose fires once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.backlog = [];
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    if (this.handshakeTimer !== undefined) clearTimeout(this.handshakeTimer);
    if (!this.res.writableEnded) this.res.end();
    this.limits.onClosed(this);
    this.onclose?.();
  }

  /** @internal Writes the stream's headers and its endpoint event, then keeps it alive. */
  open(endpoint: string): void {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.res.write(formatSseEvent({ event: 'endpoint', data: endpoint }));
    const { keepAliveMs, handshakeTimeoutMs } = this.limits;
    if (keepAliveMs > 0) {
      this.keepAlive = setInterval(() => void this.res.write(': keepalive\n\n'), keepAliveMs);
      this.keepAlive.unref?.();
    }
    if (handshakeTimeoutMs > 0 && handshakeTimeoutMs < 2 ** 31) {
      this.handshakeTimer = setTimeout(() => {
        if (!this.heardFrom) void this.close();
      }, handshakeTimeoutMs);
      this.handshakeTimer.unref?.();
    }
  }

  /** @internal One POSTed frame. */
  receive(text: string, extra: SseMessageExtraInfo): void {
    if (this.closed) return;
    this.heardFrom = true;
    if (this.started) this.deliver(text, extra);
    else this.backlog.push({ text, extra });
  }

  private deliver(text: string, extra: SseMessageExtraInfo): void {
    try {
      const ontext = this.ontext;
      if (ontext !== undefined) return ontext(text, extra);
      let frame: JsonRpcFrame;
      try {
        frame = JSON.parse(text) as JsonRpcFrame;
      } catch {
        this.onerror?.(new Error(`Invalid JSON in a POSTed message: ${text.slice(0, 200)}`));
        return;
      }
      this.onmessage?.(frame, extra);
    } catch (error) {
      this.onerror?.(toError(error));
    }
  }
}

/**
 * Creates the request handler for the two HTTP+SSE endpoints: `http.createServer(handler)`, or route
 * `ssePath` and `postPath` to it next to a Streamable HTTP endpoint. Other paths get 404.
 */
export function createSseLegacyServer(options: SseLegacyServerOptions): SseLegacyHandler {
  const endpoint = new SseLegacyEndpoint(options);
  const handle = (req: IncomingMessage, res: ServerResponse) => endpoint.handle(req, res);
  const handler = ((req: IncomingMessage, res: ServerResponse) => void handle(req, res)) as SseLegacyHandler;
  Object.defineProperties(handler, {
    handle: { value: handle },
    sessions: { value: endpoint.sessions },
    close: { value: async () => void (await Promise.all([...endpoint.sessions.values()].map((s) => s.close()))) },
  });
  return handler;
}

/** The two endpoints' state (options, limits, open sessions) and their request handling. */
class SseLegacyEndpoint {
  readonly sessions = new Map<string, SseLegacyServerTransport>();
  private readonly options: SseLegacyServerOptions;
  private readonly ssePath: string;
  private readonly postPath: string;
  private readonly maxBody: number;
  private readonly maxSessions: number;
  private readonly perClient: ClientCounts;
  private readonly forbidden: ReturnType<typeof dnsRebindingGuard>;
  private readonly limits: SessionLimits;
  private readonly gate: AuthGate | undefined;
  /** The identity that opened each session (with `auth`): only it may POST to it. */
  private readonly owners = new WeakMap<SseLegacyServerTransport, string>();

  constructor(options: SseLegacyServerOptions) {
    this.options = options;
    this.ssePath = options.ssePath ?? '/sse';
    this.postPath = options.postPath ?? '/messages';
    this.maxBody = options.maxBodyBytes ?? 10 * 1024 * 1024;
    this.maxSessions = options.maxSessions ?? 1000;
    this.perClient = new ClientCounts(options);
    this.forbidden = dnsRebindingGuard(options);
    checkCors(options.cors);
    const log = options.log ?? ((message: string) => console.warn(message));
    this.gate = options.auth === undefined ? undefined : new AuthGate(options.auth, 'createSseLegacyServer', log);
    this.limits = {
      maxBufferedBytes: options.maxBufferedBytes ?? 16 * 1024 * 1024,
      keepAliveMs: options.keepAliveMs ?? 25_000,
      handshakeTimeoutMs: options.handshakeTimeoutMs ?? 30_000,
      onClosed: (t) => {
        if (this.sessions.get(t.sessionId) !== t) return;
        this.sessions.delete(t.sessionId);
        options.onSessionClosed?.(t.sessionId);
      },
    };
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    outlastClientReuse(req, res);
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      // The metadata is public and read cross-origin: served before the Host and Origin checks.
      if (this.gate?.metadata(req, res, url.pathname) === true) return;
      const endpoint = url.pathname === this.ssePath ? 'sse' : url.pathname === this.postPath ? 'post' : undefined;
      if (endpoint === undefined) return writeError(res, 404, 'Not Found');
      const origin = req.headers.origin;
      const refusal = this.forbidden(req.headers.host, origin);
      if (refusal !== undefined) return writeError(res, 403, refusal);
      for (const [name, value] of Object.entries(corsAllowed(this.options.cors, origin))) res.setHeader(name, value);
      const allowed = endpoint === 'sse' ? 'GET' : 'POST';
      if (req.method === 'OPTIONS') {
        res
          .writeHead(204, {
            'access-control-allow-methods': `${allowed}, OPTIONS`,
            'access-control-allow-headers': 'accept, authorization, content-type, last-event-id, mcp-protocol-version',
            'access-control-max-age': '600',
          })
          .end();
        return;
      }
      if (req.method !== allowed) return writeError(res, 405, 'Method Not Allowed', { allow: allowed });
      if (this.gate !== undefined && (await this.gate.authenticate(req, res)) === undefined) return;
      return endpoint === 'sse' ? await this.get(req, res) : await this.post(req, res, url);
    } catch (error) {
      writeError(res, 500, `Internal error: ${toError(error).message}`);
    }
  }

  private async get(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const accept = req.headers.accept;
    if (accept !== undefined && !accepts(accept, 'text/event-stream')) {
      return writeError(res, 406, 'Not Acceptable: Accept must list text/event-stream');
    }
    if (this.sessions.size >= this.maxSessions) {
      const message = `Service Unavailable: the server holds its maximum of ${this.maxSessions} sessions`;
      return writeError(res, 503, message, RETRY_AFTER);
    }
    const admitted = this.perClient.admit(req);
    if ('refused' in admitted) return writeError(res, 429, admitted.refused, RETRY_AFTER);
    this.perClient.add(admitted.client);
    res.once('close', () => this.perClient.remove(admitted.client));
    const sessionId = this.options.sessionIdGenerator?.() ?? globalThis.crypto.randomUUID();
    if (!/^[\w.~-]+$/.test(sessionId)) throw new Error(`Invalid session id: ${JSON.stringify(sessionId)}`);
    const transport = new SseLegacyServerTransport(sessionId, res, this.limits);
    this.sessions.set(sessionId, transport);
    const owner = this.gate?.owner(req);
    if (owner !== undefined) this.owners.set(transport, owner);
    try {
      await this.options.onSession(transport);
    } catch (error) {
      this.sessions.delete(sessionId);
      writeError(res, 500, `Internal error: could not create the session (${toError(error).message})`);
      void transport.close();
      return;
    }
    if (transport.isClosed) return;
    req.socket.setKeepAlive?.(true, this.limits.keepAliveMs || 25_000);
    transport.open(`${this.postPath}?sessionId=${encodeURIComponent(sessionId)}`);
  }

  private async post(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const sessionId = url.searchParams.get('sessionId');
    if (sessionId === null || sessionId === '') {
      return writeError(res, 400, 'Bad Request: the sessionId query parameter is required');
    }
    const session = this.sessions.get(sessionId);
    // A session another identity opened does not exist for this one.
    if (session === undefined || this.owners.get(session) !== this.gate?.owner(req)) {
      return writeError(res, 404, 'Session not found');
    }
    const type = mediaType(req.headers['content-type']);
    if (type !== 'application/json') {
      return writeError(res, 415, 'Unsupported Media Type: Content-Type must be application/json');
    }
    const body = await readBody(req, this.maxBody);
    if ('tooLarge' in body)
      return writeError(res, 413, `Request body exceeds ${this.maxBody} bytes`, TOO_LARGE_HEADERS);
    if (this.gate !== undefined && !this.gate.permits(req, res, parsedOrNothing(body.text))) return;
    res.writeHead(202, { 'content-type': 'text/plain' }).end('Accepted');
    const auth = this.gate?.identity(req);
    session.receive(
      body.text,
      auth === undefined ? { requestInfo: requestInfoOf(req) } : { requestInfo: requestInfoOf(req), auth },
    );
  }
}

/** An HTTP-level refusal: a JSON-RPC error without id as the body (nothing if the headers went out). */
function writeError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } });
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
}

/** A POSTed body as JSON, for the scopes its methods need; nothing when it is not JSON (the engine answers that). */
function parsedOrNothing(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function requestInfoOf(req: IncomingMessage): NonNullable<MessageExtraInfo['requestInfo']> {
  try {
    return { headers: req.headers, url: new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`) };
  } catch {
    return { headers: req.headers };
  }
}
