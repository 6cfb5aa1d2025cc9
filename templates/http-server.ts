/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * Streamable HTTP transport, server side (MCP 2025-11-25, also serving 2025-06-18 and 2025-03-26 clients): a
 * node:http request handler that exposes every MCP session as a `Transport`. Node-only (`node:http` types);
 * the client side is http-client.ts.
 *
 *
 * Server, one endpoint (default `/mcp`):
 *   POST    JSON-RPC message (or, for 2025-03-26 sessions, a batch). Requests are answered on an SSE stream
 *           (`text/event-stream`) that also carries everything the server sends about them (progress, logs,
 *           server→client requests) before the response — or as `application/json` when the client does
 *           not accept SSE or `enableJsonResponse` is set. Notifications/responses only: 202, empty body.
 *   GET     The session's standalone SSE stream for server-initiated messages (405 if disabled), or, with
 *           `Last-Event-ID`, resumption of any stream of the session: missed events are replayed.
 *   DELETE  Ends the session.
 * `Mcp-Session-Id` is assigned by the initialize response and required afterwards (400 without, 404 when
 * unknown or ended). `MCP-Protocol-Version` must name a supported version when present (400 otherwise).
 * `Host` and `Origin` are checked against DNS rebinding (403); by default only localhost, 127.0.0.1 and
 * [::1] pass.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPlainObject, type RequestId } from './jsonrpc.js';
import type { JsonRpcFrame, MessageExtraInfo, Transport, TransportSendOptions } from './transport.js';
import { InMemoryEventStore, type EventStore } from './event-store.js';
import { formatSseEvent } from './sse.js';
import {
  isInitializeRequest,
  isRequest,
  isResponse,
  isWireMessage,
  key,
  toError,
  type WireMessage,
} from './http-common.js';

/** The protocol versions the server accepts in `MCP-Protocol-Version` by default. */
export const DEFAULT_SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
];
/** What a request without `MCP-Protocol-Version` is assumed to speak (spec: 2025-03-26). */
const ASSUMED_PROTOCOL_VERSION = '2025-03-26';
/** Versions from which clients understand priming events (an id with empty data). */
const PRIMING_SINCE = '2025-11-25';
/** Versions up to which JSON-RPC batches are allowed. */
const BATCH_UNTIL = '2025-03-26';
const LOCAL_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'];

export interface StreamableHttpServerOptions {
  /**
   * Called once per new session (at initialize), before the initialize request is delivered: connect the
   * engine here (`peer.connect(transport)` or install the callbacks and call `start()`). If it throws, the
   * client gets a 500 and no session is created.
   */
  onSession: (transport: StreamableHttpServerTransport) => void | Promise<void>;
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
  /** Turns the Host/Origin checks off (e.g. behind a proxy that already does them). Default true. */
  dnsRebindingProtection?: boolean;
  /** Versions accepted in `MCP-Protocol-Version`. Default DEFAULT_SUPPORTED_PROTOCOL_VERSIONS. */
  supportedProtocolVersions?: readonly string[];
  /** Largest POST body accepted, in bytes (413 beyond). Default 4 MiB. */
  maxBodyBytes?: number;
}

/** The node:http request handler, with the live sessions and a way to end them all. */
export interface StreamableHttpHandler {
  (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): void;
  /** Like calling the handler, but resolves when the request has been handled (not when an SSE stream ends). */
  handle(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void>;
  readonly sessions: ReadonlyMap<string, StreamableHttpServerTransport>;
  /** Ends every session (their SSE streams end, onclose fires). */
  close(): Promise<void>;
}

/** Extra information delivered with each message received over HTTP. */
export interface HttpMessageExtraInfo extends MessageExtraInfo {
  requestInfo: { headers: IncomingMessage['headers']; url?: URL | undefined };
  /**
   * Ends the SSE stream of the request this message is (only for requests on SSE streams with resumability):
   * the client reconnects after `retry` with `Last-Event-ID` and receives what was sent meanwhile (SSE polling).
   */
  closeSSEStream?: () => void;
  /** Ends the standalone GET stream the same way. */
  closeStandaloneSSEStream?: () => void;
}

interface SseSink {
  res: ServerResponse;
  keepAlive?: ReturnType<typeof setInterval>;
  /** While a resumption replays stored events, live events wait here (deduplicated by id afterwards). */
  queue?: Array<{ id: string | undefined; text: string }> | undefined;
}

/** One SSE/JSON response channel: the answer to one POST, or the standalone GET stream. */
interface Channel {
  id: string;
  kind: 'post' | 'standalone';
  mode: 'sse' | 'json';
  /** The live HTTP response, when connected. */
  sink?: SseSink | undefined;
  /** JSON mode: the response to write once all answers are in. */
  jsonRes?: ServerResponse;
  /** Requests of this POST still awaiting their response. */
  open: Set<string>;
  /** JSON mode: the answers, in request order. */
  answers: Map<string, WireMessage>;
  order: string[];
  batch: boolean;
  /** All responses sent: the channel ends once its sink has them. */
  done: boolean;
  resumable: boolean;
}

interface SessionTransportConfig {
  eventStore?: EventStore | undefined;
  retryMs?: number | undefined;
  keepAliveMs: number;
  onClosed: (transport: StreamableHttpServerTransport) => void;
}

/**
 * One MCP session on the Streamable HTTP endpoint, as a `Transport`. Created by the handler at initialize and
 * given to `onSession`; `send` routes each message to the stream of the request it belongs to.
 */
export class StreamableHttpServerTransport implements Transport {
  onmessage?: (message: JsonRpcFrame, extra?: HttpMessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly sessionId: string;
  /** The version negotiated at initialize (read from the initialize response), when known. */
  protocolVersion?: string;

  private readonly channels = new Map<string, Channel>();
  /** Request key → channel id, for requests not yet answered. */
  private readonly requestChannel = new Map<string, string>();
  private standalone?: Channel | undefined;
  private initializeKey?: string;
  private closed = false;
  private started = false;

  private readonly config: SessionTransportConfig;

  /** @internal Created by createStreamableHttpServer. */
  constructor(sessionId: string, config: SessionTransportConfig) {
    this.sessionId = sessionId;
    this.config = config;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('StreamableHttpServerTransport already started');
    this.started = true;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Sends a message. A response goes to the stream of its request; a message with `relatedRequestId` goes to
   * that request's stream while the request is open (or, for a JSON-mode request, to the standalone stream);
   * anything else goes to the standalone GET stream — stored for replay if it is not connected.
   */
  async send(message: JsonRpcFrame, options?: TransportSendOptions): Promise<void> {
    if (this.closed) throw new Error('Not connected: session closed');
    const messages = Array.isArray(message) ? message : [message];
    for (const m of messages) await this.sendOne(m, options);
  }

  private async sendOne(message: WireMessage, options?: TransportSendOptions): Promise<void> {
    if (isResponse(message)) {
      const id = message.id;
      if (id === undefined || id === null) {
        // Only a parse error can lack an id, and those are answered by the handler itself.
        throw new Error('Cannot route a response without an id');
      }
      const k = key(id);
      if (k === this.initializeKey && 'result' in message && isPlainObject(message.result)) {
        const version = message.result['protocolVersion'];
        if (typeof version === 'string') this.protocolVersion = version;
      }
      const channel = this.channels.get(this.requestChannel.get(k) ?? '');
      if (!channel) throw new Error(`No open request with id ${JSON.stringify(id)} on this session`);
      this.requestChannel.delete(k);
      channel.open.delete(k);
      if (channel.mode === 'json') {
        channel.answers.set(k, message);
        if (channel.open.size === 0) this.finishJson(channel);
        return;
      }
      await this.emit(channel, message);
      if (channel.open.size === 0) {
        channel.done = true;
        this.endIfDone(channel);
      }
      return;
    }

    const related = options?.relatedRequestId;
    if (related !== undefined) {
      const channel = this.channels.get(this.requestChannel.get(key(related)) ?? '');
      if (channel && channel.mode === 'sse') {
        await this.emit(channel, message);
        return;
      }
    }
    const standalone = this.ensureStandalone();
    await this.emit(standalone, message);
  }

  /** Closes the session: every stream ends, pending JSON responses get 404, onclose fires once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const channel of this.channels.values()) {
      this.detach(channel);
      if (channel.jsonRes && !channel.jsonRes.headersSent) {
        writeJsonError(channel.jsonRes, 404, -32001, 'Session closed', this.sessionId);
      }
      void this.config.eventStore?.deleteStream?.(channel.id);
    }
    this.channels.clear();
    this.requestChannel.clear();
    this.config.onClosed(this);
    this.onclose?.();
  }

  /** Ends the SSE stream of a request (the client resumes it with Last-Event-ID; see HttpMessageExtraInfo). */
  closeSSEStream(requestId: RequestId): void {
    const channel = this.channels.get(this.requestChannel.get(key(requestId)) ?? '');
    if (channel) this.detach(channel);
  }

  /** Ends the standalone GET stream (the client reconnects to it). */
  closeStandaloneSSEStream(): void {
    if (this.standalone) this.detach(this.standalone);
  }

  // --- used by the handler --------------------------------------------------------------------

  /** @internal */
  get resumable(): boolean {
    return this.config.eventStore !== undefined;
  }

  /** @internal Delivers one POST's messages. */
  async handlePost(
    req: IncomingMessage,
    res: ServerResponse,
    messages: WireMessage[],
    batch: boolean,
    wantsSse: boolean,
    requestInfo: HttpMessageExtraInfo['requestInfo'],
  ): Promise<void> {
    const requests = messages.filter(isRequest);
    if (requests.length === 0) {
      res.writeHead(202, { 'mcp-session-id': this.sessionId }).end();
      for (const m of messages) this.deliver(m, { requestInfo });
      return;
    }
    for (const r of requests) {
      if (this.requestChannel.has(key(r.id))) {
        writeJsonError(res, 400, -32600, `Request id ${JSON.stringify(r.id)} is already in use`, this.sessionId);
        return;
      }
    }
    const channel: Channel = {
      id: globalThis.crypto.randomUUID(),
      kind: 'post',
      mode: wantsSse ? 'sse' : 'json',
      open: new Set(requests.map((r) => key(r.id))),
      answers: new Map(),
      order: requests.map((r) => key(r.id)),
      batch,
      done: false,
      resumable: false,
    };
    this.channels.set(channel.id, channel);
    for (const r of requests) {
      this.requestChannel.set(key(r.id), channel.id);
      if (isInitializeRequest(r)) {
        this.initializeKey = key(r.id);
        const params = (r as { params?: unknown }).params;
        const asked = isPlainObject(params) ? params['protocolVersion'] : undefined;
        if (typeof asked === 'string' && this.protocolVersion === undefined) this.protocolVersion = asked;
      }
    }
    if (channel.mode === 'json') {
      channel.jsonRes = res;
    } else {
      this.attachSse(channel, res);
      await this.writePriming(channel);
    }
    for (const m of messages) {
      const extra: HttpMessageExtraInfo = { requestInfo };
      if (isRequest(m) && channel.mode === 'sse' && this.resumable) {
        const id = m.id;
        extra.closeSSEStream = () => this.closeSSEStream(id);
        extra.closeStandaloneSSEStream = () => this.closeStandaloneSSEStream();
      }
      this.deliver(m, extra);
    }
    void req;
  }

  /** @internal Opens the standalone stream (GET without Last-Event-ID). */
  async handleGet(res: ServerResponse): Promise<void> {
    const standalone = this.ensureStandalone();
    if (standalone.sink) {
      writeJsonError(res, 409, -32000, 'Conflict: the standalone SSE stream is already open', this.sessionId);
      return;
    }
    this.attachSse(standalone, res);
    await this.writePriming(standalone);
  }

  /** @internal Resumes a stream (GET with Last-Event-ID). */
  async handleResume(res: ServerResponse, lastEventId: string): Promise<void> {
    const store = this.config.eventStore;
    if (!store) {
      writeJsonError(res, 400, -32000, 'Resumption is not supported', this.sessionId);
      return;
    }
    let streamId = store.getStreamIdForEventId ? await store.getStreamIdForEventId(lastEventId) : undefined;
    const unknown = () =>
      writeJsonError(res, 404, -32000, `Unknown or expired Last-Event-ID: ${lastEventId}`, this.sessionId);
    let channel: Channel | undefined;
    const replayed = new Set<string>();
    const write = (id: string, message: JsonRpcFrame) => {
      replayed.add(id);
      res.write(formatSseEvent({ event: 'message', id, data: JSON.stringify(message) }));
    };
    if (store.getStreamIdForEventId) {
      channel = streamId === undefined ? undefined : this.channels.get(streamId);
      if (!channel) return unknown();
      this.detach(channel); // the client says it lost that connection; the new one wins
      this.attachSse(channel, res);
      const sink = channel.sink!;
      sink.queue = [];
      await store.replayEventsAfter(lastEventId, write);
      const queued = sink.queue;
      sink.queue = undefined;
      for (const { id, text } of queued) if (id === undefined || !replayed.has(id)) res.write(text);
    } else {
      // No cheap lookup: replay into a buffer first, then attach (an event stored in between may be missed).
      const buffered: Array<{ id: string; message: JsonRpcFrame }> = [];
      streamId = await store.replayEventsAfter(lastEventId, (id, message) => void buffered.push({ id, message }));
      channel = streamId === undefined ? undefined : this.channels.get(streamId);
      if (!channel) return unknown();
      this.detach(channel);
      this.attachSse(channel, res);
      for (const { id, message } of buffered) write(id, message);
    }
    if (channel.done) {
      this.detach(channel);
      this.forget(channel);
    }
  }

  // --- internals ------------------------------------------------------------------------------

  private deliver(message: WireMessage, extra: HttpMessageExtraInfo): void {
    try {
      this.onmessage?.(message, extra);
    } catch (error) {
      this.onerror?.(toError(error));
    }
  }

  private ensureStandalone(): Channel {
    this.standalone ??= {
      id: globalThis.crypto.randomUUID(),
      kind: 'standalone',
      mode: 'sse',
      open: new Set(),
      answers: new Map(),
      order: [],
      batch: false,
      done: false,
      resumable: false,
    };
    this.channels.set(this.standalone.id, this.standalone);
    return this.standalone;
  }

  private attachSse(channel: Channel, res: ServerResponse, headersSent = false): void {
    if (!headersSent) res.writeHead(200, sseHeaders(this.sessionId));
    res.flushHeaders();
    const sink: SseSink = { res };
    if (this.config.keepAliveMs > 0) {
      sink.keepAlive = setInterval(() => {
        if (!res.writableEnded) res.write(': keepalive\n\n');
      }, this.config.keepAliveMs);
      sink.keepAlive.unref?.();
    }
    channel.sink = sink;
    res.on('close', () => {
      if (sink.keepAlive) clearInterval(sink.keepAlive);
      // The client went away. A request's channel stays until its responses are sent (they are stored
      // for a resumption, or dropped without resumability).
      if (channel.sink === sink) channel.sink = undefined;
    });
  }

  private async writePriming(channel: Channel): Promise<void> {
    const store = this.config.eventStore;
    const version = this.protocolVersion ?? ASSUMED_PROTOCOL_VERSION;
    if (!store || version < PRIMING_SINCE || !channel.sink) return;
    const id = await store.storeEvent(channel.id, null);
    channel.resumable = true;
    channel.sink?.res.write(formatSseEvent({ id, data: '', retry: this.config.retryMs }));
  }

  /** Writes a message to a channel's stream, storing it for replay first. */
  private async emit(channel: Channel, message: WireMessage): Promise<void> {
    let id: string | undefined;
    if (this.config.eventStore) {
      id = await this.config.eventStore.storeEvent(channel.id, message);
      channel.resumable = true;
    }
    const sink = channel.sink;
    if (!sink) return;
    const text = formatSseEvent({ event: 'message', id, data: JSON.stringify(message) });
    if (sink.queue) sink.queue.push({ id, text });
    else if (!sink.res.writableEnded) sink.res.write(text);
  }

  private endIfDone(channel: Channel): void {
    if (!channel.done) return;
    if (channel.sink) {
      this.detach(channel);
      this.forget(channel);
    } else if (!this.resumable || !channel.resumable) {
      this.forget(channel);
    }
    // else: kept until the client resumes and receives the stored response (or the session ends).
  }

  private finishJson(channel: Channel): void {
    const res = channel.jsonRes;
    this.forget(channel);
    if (!res || res.writableEnded || res.destroyed) return;
    const answers = channel.order.map((k) => channel.answers.get(k)).filter((a) => a !== undefined);
    const body = JSON.stringify(channel.batch ? answers : answers[0]);
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': this.sessionId }).end(body);
  }

  private detach(channel: Channel): void {
    const sink = channel.sink;
    if (!sink) return;
    channel.sink = undefined;
    if (sink.keepAlive) clearInterval(sink.keepAlive);
    if (!sink.res.writableEnded) sink.res.end();
  }

  private forget(channel: Channel): void {
    this.channels.delete(channel.id);
    for (const k of channel.open) this.requestChannel.delete(k);
    if (this.standalone === channel) this.standalone = undefined;
    void this.config.eventStore?.deleteStream?.(channel.id);
  }
}

function sseHeaders(sessionId: string): Record<string, string> {
  return {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'mcp-session-id': sessionId,
  };
}

function writeJsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  sessionId?: string,
  extraHeaders: Record<string, string> = {},
): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extraHeaders };
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  res.writeHead(status, headers).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/** Whether an Accept header admits a media type (exact, `type/*`, or `*\/*`; q=0 excludes). */
function accepts(header: string | undefined, mediaType: string): boolean {
  if (!header) return false;
  const [type] = mediaType.split('/');
  return header.split(',').some((part) => {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) return false;
    return range === mediaType || range === `${type}/*` || range === '*/*';
  });
}

function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1).toLowerCase();
  const colon = host.indexOf(':');
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
}

function readBody(req: IncomingMessage, limit: number): Promise<{ text: string } | { tooLarge: true }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? { tooLarge: true } : { text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', reject);
  });
}

/**
 * Creates the request handler for one Streamable HTTP MCP endpoint: `http.createServer(handler)`, or mount it
 * in a framework (pass an already-parsed JSON body as the third argument).
 */
export function createStreamableHttpServer(options: StreamableHttpServerOptions): StreamableHttpHandler {
  const sessions = new Map<string, StreamableHttpServerTransport>();
  const path = options.path ?? '/mcp';
  const supported = options.supportedProtocolVersions ?? DEFAULT_SUPPORTED_PROTOCOL_VERSIONS;
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const protect = options.dnsRebindingProtection ?? true;
  const allowedHosts = options.allowedHosts?.map((h) => h.toLowerCase());
  const allowedOrigins = options.allowedOrigins?.map((o) => o.toLowerCase());
  const sharedStore = typeof options.eventStore === 'object' ? options.eventStore : undefined;
  const resumable = options.eventStore !== false;
  const retryMs = options.retryMs === null ? undefined : (options.retryMs ?? 1000);
  const keepAliveMs = options.keepAliveMs ?? 25_000;

  function hostAllowed(host: string | undefined): boolean {
    if (!host) return false;
    const h = host.toLowerCase();
    if (allowedHosts) return allowedHosts.includes(h) || allowedHosts.includes(hostnameOf(h));
    return LOCAL_HOSTNAMES.includes(hostnameOf(h));
  }

  function originAllowed(origin: string): boolean {
    const o = origin.toLowerCase();
    if (allowedOrigins) return allowedOrigins.includes(o);
    let url: URL;
    try {
      url = new URL(o);
    } catch {
      return false;
    }
    return LOCAL_HOSTNAMES.includes(url.hostname);
  }

  /** Finds the session of a non-initialize request, or answers 400/404. */
  function sessionFor(req: IncomingMessage, res: ServerResponse): StreamableHttpServerTransport | undefined {
    const id = req.headers['mcp-session-id'];
    if (typeof id !== 'string' || id === '') {
      writeJsonError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      return undefined;
    }
    const session = sessions.get(id);
    if (!session) {
      writeJsonError(res, 404, -32001, 'Session not found');
      return undefined;
    }
    return session;
  }

  function versionOk(req: IncomingMessage, res: ServerResponse, sessionId?: string): boolean {
    const version = req.headers['mcp-protocol-version'];
    if (version === undefined || (typeof version === 'string' && supported.includes(version))) return true;
    writeJsonError(
      res,
      400,
      -32000,
      `Bad Request: Unsupported protocol version: ${String(version)} (supported: ${supported.join(', ')})`,
      sessionId,
    );
    return false;
  }

  async function handlePost(req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> {
    const accept = req.headers.accept;
    const acceptsJson = accepts(accept, 'application/json');
    const acceptsSse = accepts(accept, 'text/event-stream');
    if (!acceptsJson && !acceptsSse) {
      writeJsonError(res, 406, -32000, 'Not Acceptable: Accept must list application/json and text/event-stream');
      return;
    }
    let raw = parsedBody;
    if (raw === undefined) {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') {
        writeJsonError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
        return;
      }
      const body = await readBody(req, maxBody);
      if ('tooLarge' in body) {
        writeJsonError(res, 413, -32000, `Request body exceeds ${maxBody} bytes`);
        return;
      }
      try {
        raw = JSON.parse(body.text);
      } catch {
        writeJsonError(res, 400, -32700, 'Parse error: invalid JSON');
        return;
      }
    }
    const batch = Array.isArray(raw);
    const items: unknown[] = batch ? (raw as unknown[]) : [raw];
    if (items.length === 0 || !items.every(isWireMessage)) {
      writeJsonError(res, 400, -32600, 'Invalid Request: not a JSON-RPC 2.0 message');
      return;
    }
    const messages = items as WireMessage[];
    const wantsSse = acceptsSse && !(options.enableJsonResponse && acceptsJson);

    if (messages.some(isInitializeRequest)) {
      if (messages.length > 1) {
        writeJsonError(res, 400, -32600, 'Invalid Request: initialize must be sent alone');
        return;
      }
      const existing = req.headers['mcp-session-id'];
      if (typeof existing === 'string' && existing !== '') {
        if (sessions.has(existing)) writeJsonError(res, 400, -32600, 'Invalid Request: session already initialized');
        else writeJsonError(res, 404, -32001, 'Session not found');
        return;
      }
      const sessionId = (options.sessionIdGenerator ?? newSessionId)();
      if (!/^[\x21-\x7e]+$/.test(sessionId)) throw new Error(`Invalid session id: ${JSON.stringify(sessionId)}`);
      const transport = new StreamableHttpServerTransport(sessionId, {
        eventStore: resumable ? (sharedStore ?? new InMemoryEventStore()) : undefined,
        retryMs,
        keepAliveMs,
        onClosed: (t) => {
          if (sessions.get(t.sessionId) === t) {
            sessions.delete(t.sessionId);
            options.onSessionClosed?.(t.sessionId);
          }
        },
      });
      sessions.set(sessionId, transport);
      try {
        await options.onSession(transport);
      } catch (error) {
        sessions.delete(sessionId);
        writeJsonError(res, 500, -32603, `Internal error: could not create the session (${toError(error).message})`);
        return;
      }
      await transport.handlePost(req, res, messages, false, wantsSse, requestInfoOf(req));
      return;
    }

    const session = sessionFor(req, res);
    if (!session || !versionOk(req, res, session.sessionId)) return;
    if (batch) {
      const version =
        (req.headers['mcp-protocol-version'] as string | undefined) ??
        session.protocolVersion ??
        ASSUMED_PROTOCOL_VERSION;
      if (version > BATCH_UNTIL) {
        writeJsonError(
          res,
          400,
          -32600,
          `Invalid Request: batches are not allowed in protocol ${version}`,
          session.sessionId,
        );
        return;
      }
    }
    await session.handlePost(req, res, messages, batch, wantsSse, requestInfoOf(req));
  }

  async function handleGet(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!accepts(req.headers.accept, 'text/event-stream')) {
      writeJsonError(res, 406, -32000, 'Not Acceptable: Accept must list text/event-stream');
      return;
    }
    const session = sessionFor(req, res);
    if (!session || !versionOk(req, res, session.sessionId)) return;
    const lastEventId = req.headers['last-event-id'];
    if (typeof lastEventId === 'string' && lastEventId !== '' && session.resumable) {
      await session.handleResume(res, lastEventId);
      return;
    }
    if (options.enableGetStream === false) {
      writeJsonError(res, 405, -32000, 'Method Not Allowed: no standalone SSE stream', session.sessionId, {
        allow: 'POST, DELETE',
      });
      return;
    }
    await session.handleGet(res);
  }

  async function handleDelete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (options.enableDelete === false) {
      writeJsonError(res, 405, -32000, 'Method Not Allowed: sessions cannot be ended by the client', undefined, {
        allow: 'GET, POST',
      });
      return;
    }
    const session = sessionFor(req, res);
    if (!session || !versionOk(req, res, session.sessionId)) return;
    await session.close();
    res.writeHead(200).end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (path !== '*' && url.pathname !== path) {
        writeJsonError(res, 404, -32000, 'Not Found');
        return;
      }
      if (protect) {
        if (!hostAllowed(req.headers.host)) {
          writeJsonError(res, 403, -32000, `Forbidden: Host ${JSON.stringify(req.headers.host ?? '')} is not allowed`);
          return;
        }
        const origin = req.headers.origin;
        if (origin !== undefined && !originAllowed(origin)) {
          writeJsonError(res, 403, -32000, `Forbidden: Origin ${JSON.stringify(origin)} is not allowed`);
          return;
        }
      }
      switch (req.method) {
        case 'POST':
          return await handlePost(req, res, parsedBody);
        case 'GET':
          return await handleGet(req, res);
        case 'DELETE':
          return await handleDelete(req, res);
        default:
          writeJsonError(res, 405, -32000, 'Method Not Allowed', undefined, { allow: 'GET, POST, DELETE' });
      }
    } catch (error) {
      writeJsonError(res, 500, -32603, `Internal error: ${toError(error).message}`);
    }
  }

  const handler = ((req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => {
    void handle(req, res, parsedBody);
  }) as StreamableHttpHandler;
  Object.defineProperties(handler, {
    handle: { value: handle },
    sessions: { value: sessions },
    close: {
      value: async () => {
        await Promise.all([...sessions.values()].map((s) => s.close()));
      },
    },
  });
  return handler;
}

function requestInfoOf(req: IncomingMessage): HttpMessageExtraInfo['requestInfo'] {
  let url: URL | undefined;
  try {
    url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  } catch {
    url = undefined;
  }
  return { headers: req.headers, url };
}

/** A fresh session id: Web Crypto's UUID, global in Node 20+, Deno, Bun and browsers (no `node:crypto`). */
function newSessionId(): string {
  return globalThis.crypto.randomUUID();
}
