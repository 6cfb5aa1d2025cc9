/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * Streamable HTTP, server side: a node:http request handler for one MCP endpoint, speaking both eras.
 *
 * Hand-written runtime copied unchanged into generated output (as `runtime/http-server.ts`). Node only
 * (`node:http` types, `node:crypto`).
 *
 * 2026-07-28 on (a request whose `MCP-Protocol-Version` header names such a version): no sessions. Every
 * POST carries one request or notification; `onSession` is called with a transport for that one POST, whose
 * engine answers it: as `application/json` when the answer is the only message, or as an SSE stream when
 * notifications come first. The request metadata headers are checked against the body (400, -32020), the
 * version against the supported ones (400, -32022), an unknown method is 404. Closing the response stream
 * cancels the request. GET and DELETE are 405; `Mcp-Session-Id` and `Last-Event-ID` are ignored.
 *
 * 2025-03-26 … 2025-11-25 (the header names such a version, or is absent): sessions. POST carries a message
 * (or, in 2025-03-26, a batch); requests are answered on an SSE stream or as JSON; GET opens the session's
 * standalone stream or resumes one with `Last-Event-ID`; DELETE ends the session. `Mcp-Session-Id` is
 * assigned at initialize and required afterwards (400 without, 404 when unknown); the header version must
 * equal the negotiated one. Sessions end after `sessionIdleTimeoutMs` without requests and are capped at
 * `maxSessions`.
 *
 * Every era: a frame the engine would refuse (not JSON, not JSON-RPC, an unsafe id) is answered 400 with the
 * engine's JSON-RPC error (frame.ts), never delivered; `Host` and `Origin` are checked against DNS rebinding
 * (403); the Origin allow-list is also the CORS allow-list.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InMemoryEventStore, type EventStore } from './event-store.js';
import { inspectMessage, invalidRequestResponse, parseErrorResponse } from './frame.js';
import { DEFAULT_NAME_SOURCES, HEADER, decodeHeaderValue, isHeaderEra, type NameSources } from './http-headers.js';
import { isPlainObject, type JsonRpcErrorResponse, type RequestId } from './jsonrpc.js';
import { accepts, readBody } from './http-request.js';
import { formatSseEvent } from './sse.js';
import {
  dnsRebindingGuard,
  isInitializeRequest,
  isRequest,
  isResponse,
  key,
  toError,
  type WireMessage,
} from './http-common.js';
import type { JsonRpcFrame, MessageExtraInfo, Transport, TransportSendOptions } from './transport.js';
import type { ProtocolDescription } from './client-base.js';

/** The protocol versions the server accepts in `MCP-Protocol-Version` by default. */
export const DEFAULT_SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  '2026-07-28',
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
/** JSON-RPC error codes the 2026-07-28 transport answers with an HTTP status of its own. */
const HEADER_MISMATCH = -32020;
const MISSING_CAPABILITY = -32021;
const UNSUPPORTED_VERSION = -32022;
/** Request headers a browser client may send (CORS); `Mcp-Param-*` are allowed by prefix. */
const CORS_ALLOWED_HEADERS = [
  'accept',
  'authorization',
  'content-type',
  'last-event-id',
  HEADER.protocolVersion,
  HEADER.sessionId,
  HEADER.method,
  HEADER.name,
];

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

export interface StreamableHttpServerOptions {
  /**
   * Called for every new connection before its first message is delivered: a session (at initialize, earlier
   * versions) or a single request (2026-07-28 on, `transport.sessionId` undefined). Connect the engine here
   * (`server.connect(transport)`, or install the callbacks and call `start()`). If it throws, the client gets
   * a 500 and nothing is kept.
   */
  onSession: (transport: StreamableHttpServerTransport | HttpRequestTransport) => void | Promise<void>;
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
  /**
   * The generated `PROTOCOL` of the server behind this endpoint: the versions accepted in
   * `MCP-Protocol-Version`, which of them allow batches and the `Mcp-Name` sources are then read from its
   * facts (the model), instead of the defaults below that cover every version this runtime knows.
   */
  protocol?: ProtocolDescription;
  /** Versions accepted in `MCP-Protocol-Version`. Default: `protocol`'s versions, else DEFAULT_SUPPORTED_PROTOCOL_VERSIONS. */
  supportedProtocolVersions?: readonly string[];
  /** Largest POST body accepted, in bytes (413 beyond). Default 4 MiB. */
  maxBodyBytes?: number;
  /** Sessions (earlier versions) end after this long without a request or open stream. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** Most live sessions; an initialize beyond is refused with 503. Default 1000. */
  maxSessions?: number;
  /** Which params member `Mcp-Name` mirrors, by method (2026-07-28 on). Default: `protocol`'s, else DEFAULT_NAME_SOURCES. */
  nameSources?: NameSources;
}

/** The node:http request handler, with the live sessions and a way to end them all. */
export interface StreamableHttpHandler {
  (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): void;
  /** Like calling the handler, but resolves when the request has been handled (not when an SSE stream ends). */
  handle(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void>;
  readonly sessions: ReadonlyMap<string, StreamableHttpServerTransport>;
  /** POSTs of the sessionless era still being answered. */
  readonly requests: ReadonlySet<HttpRequestTransport>;
  /** Ends every session and open request (their streams end, onclose fires). */
  close(): Promise<void>;
}

/** Extra information delivered with each message received over HTTP. */
export interface HttpMessageExtraInfo extends MessageExtraInfo {
  requestInfo: { headers: IncomingMessage['headers']; url?: URL };
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
  /** A finished channel kept for a resumption is forgotten when this fires. */
  expiry?: ReturnType<typeof setTimeout>;
}

interface SessionConfig {
  eventStore?: EventStore | undefined;
  retryMs?: number | undefined;
  keepAliveMs: number;
  idleTimeoutMs: number;
  /** How long a finished stream whose client went away stays resumable. */
  resumeWindowMs: number;
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
  private readonly config: SessionConfig;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  /** @internal Created by createStreamableHttpServer. */
  constructor(sessionId: string, config: SessionConfig) {
    this.sessionId = sessionId;
    this.config = config;
    this.touch();
  }

  /** What the session holds right now: open response channels and requests awaiting their answer. */
  get stats(): { channels: number; requests: number } {
    return { channels: this.channels.size, requests: this.requestChannel.size };
  }

  /** @internal Restarts the idle clock (every request of the session calls it). */
  touch(): void {
    const ms = this.config.idleTimeoutMs;
    if (this.closed || !(ms > 0 && ms < 2 ** 31)) return;
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(this.onIdle, ms);
    this.idleTimer.unref?.();
  }

  private readonly onIdle = (): void => {
    this.idleTimer = undefined;
    // A connected stream is activity too: check again later.
    for (const channel of this.channels.values()) if (channel.sink !== undefined) return this.touch();
    void this.close();
  };

  /**
   * @internal The client cancelled a request (`notifications/cancelled`): its answer will never come, so its
   * channel, stream and stored events are released now instead of when the session ends.
   */
  release(requestId: unknown): void {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const k = key(requestId);
    const channel = this.channels.get(this.requestChannel.get(k) ?? '');
    if (channel === undefined) return;
    this.requestChannel.delete(k);
    channel.open.delete(k);
    if (channel.open.size > 0) return;
    channel.done = true;
    if (channel.mode === 'json') return this.finishJson(channel);
    this.detach(channel);
    this.forget(channel);
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
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    for (const channel of this.channels.values()) {
      if (channel.expiry !== undefined) clearTimeout(channel.expiry);
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
    this.touch();
    for (const m of messages) {
      if ('method' in m && m.method === 'notifications/cancelled' && !('id' in m)) {
        const params = (m as { params?: unknown }).params;
        if (isPlainObject(params)) this.release(params['requestId']);
      }
    }
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
    } else if (channel.expiry === undefined) {
      // Kept for a resumption with Last-Event-ID, but not forever: a client that never comes back must not
      // pin the channel and its stored events for the rest of the session.
      channel.expiry = setTimeout(() => this.forget(channel), this.config.resumeWindowMs);
      channel.expiry.unref?.();
    }
  }

  private finishJson(channel: Channel): void {
    const res = channel.jsonRes;
    this.forget(channel);
    if (!res || res.writableEnded || res.destroyed) return;
    const answers = channel.order.map((k) => channel.answers.get(k)).filter((a) => a !== undefined);
    if (answers.length === 0) {
      res.writeHead(204, { 'mcp-session-id': this.sessionId }).end();
      return;
    }
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
    if (channel.expiry !== undefined) clearTimeout(channel.expiry);
    this.channels.delete(channel.id);
    for (const k of channel.open) this.requestChannel.delete(k);
    if (this.standalone === channel) this.standalone = undefined;
    void this.config.eventStore?.deleteStream?.(channel.id);
  }
}

/**
 * One POST of the sessionless era (2026-07-28 on) as a `Transport`: it carries exactly one request (or
 * notification) to the engine and its answer back. The answer goes out as `application/json` — with the
 * status the transport document gives its error — unless notifications about the request come first, which
 * switch the response to an SSE stream. The transport closes once answered, or when the client closes the
 * response (which cancels the request: the engine aborts the handler and sends nothing more).
 */
export class HttpRequestTransport implements Transport {
  onmessage?: (message: JsonRpcFrame, extra?: HttpMessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Always undefined: this era has no sessions. */
  readonly sessionId: undefined = undefined;
  readonly protocolVersion: string;
  private readonly res: ServerResponse;
  private readonly requestId: RequestId | undefined;
  private readonly sse: boolean;
  private readonly keepAliveMs: number;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private streaming = false;
  private closed = false;

  /** @internal Created by createStreamableHttpServer. */
  constructor(
    res: ServerResponse,
    requestId: RequestId | undefined,
    protocolVersion: string,
    sse: boolean,
    keepAliveMs: number,
  ) {
    this.res = res;
    this.requestId = requestId;
    this.protocolVersion = protocolVersion;
    this.sse = sse;
    this.keepAliveMs = keepAliveMs;
    res.once('close', this.onResponseClosed);
    // The client may have gone before this POST was read to the end: that is a cancellation too.
    if (res.destroyed) queueMicrotask(() => void this.close());
  }

  async start(): Promise<void> {}

  get isClosed(): boolean {
    return this.closed;
  }

  async send(message: JsonRpcFrame, _options?: TransportSendOptions): Promise<void> {
    if (this.closed) throw new Error('Not connected: the request is finished');
    if (Array.isArray(message)) throw new Error('Batches are not part of this protocol version');
    if (isResponse(message)) {
      if (message.id !== this.requestId && message.id !== null && message.id !== undefined) {
        throw new Error(`No open request with id ${JSON.stringify(message.id)} on this POST`);
      }
      return this.finish(message);
    }
    // The server must not send requests of its own on a response stream in this era (input requests ride in
    // results instead); notifications about the request are fine, on an SSE stream.
    if (isRequest(message)) throw new Error('A server cannot send requests over Streamable HTTP in this version');
    if (!this.sse || this.requestId === undefined) return; // JSON answer only: request-scoped notifications drop
    this.openStream();
    this.res.write(formatSseEvent({ event: 'message', data: JSON.stringify(message) }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.res.off('close', this.onResponseClosed);
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    if (!this.res.headersSent) this.res.writeHead(this.requestId === undefined ? 202 : 204).end();
    else if (!this.res.writableEnded) this.res.end();
    this.onclose?.();
  }

  /** @internal Hands the POST's message to the engine. */
  deliver(message: unknown, extra: HttpMessageExtraInfo): void {
    try {
      this.onmessage?.(message as JsonRpcFrame, extra);
    } catch (error) {
      this.onerror?.(toError(error));
    }
  }

  private openStream(): void {
    if (this.streaming) return;
    this.streaming = true;
    this.res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.res.flushHeaders?.();
    if (this.keepAliveMs > 0) {
      this.keepAlive = setInterval(() => void this.res.write(':\n\n'), this.keepAliveMs);
      this.keepAlive.unref?.();
    }
  }

  private finish(message: WireMessage): void {
    if (this.streaming) {
      this.res.write(formatSseEvent({ event: 'message', data: JSON.stringify(message) }));
    } else if (!this.res.headersSent) {
      const error = 'error' in message && isPlainObject(message.error) ? message.error : undefined;
      const status = error === undefined ? 200 : statusOfError(error['code']);
      this.res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(message));
    }
    void this.close();
  }

  /** The client closed the response before the answer: that cancels the request. */
  private readonly onResponseClosed = (): void => {
    if (!this.res.writableFinished) void this.close();
  };
}

/** The HTTP status of a JSON-RPC error answer in the sessionless era. */
function statusOfError(code: unknown): number {
  switch (code) {
    case -32601:
      return 404;
    case -32700:
    case -32600:
    case HEADER_MISMATCH:
    case MISSING_CAPABILITY:
    case UNSUPPORTED_VERSION:
      return 400;
    default:
      return 200;
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

/** Writes a JSON-RPC error as the whole HTTP answer (nothing if headers already went out). */
function writeJsonRpcError(
  res: ServerResponse,
  status: number,
  answer: JsonRpcErrorResponse | JsonRpcErrorResponse[],
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(answer));
}

function writeJsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  sessionId?: string,
  extraHeaders: Record<string, string> = {},
  id: RequestId | null = null,
  data?: unknown,
): void {
  const headers: Record<string, string> = { ...extraHeaders };
  if (sessionId !== undefined) headers[HEADER.sessionId] = sessionId;
  const error = data === undefined ? { code, message } : { code, message, data };
  writeJsonRpcError(res, status, { jsonrpc: '2.0', id, error }, headers);
}

/** One header's value (the first, when repeated). */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The answer to a parsed body that is not something the engine would accept, or undefined when it is. */
function refusal(value: unknown, batches: boolean): JsonRpcErrorResponse | JsonRpcErrorResponse[] | undefined {
  if (!Array.isArray(value)) {
    const verdict = inspectMessage(value);
    return verdict.kind === 'invalid' ? invalidRequestResponse(verdict.id, verdict.reason) : undefined;
  }
  if (value.length === 0) return invalidRequestResponse(null, 'empty batch');
  if (!batches) return invalidRequestResponse(null, 'batches are not supported');
  const answers: JsonRpcErrorResponse[] = [];
  for (const item of value) {
    const verdict = inspectMessage(item);
    if (verdict.kind === 'invalid') answers.push(invalidRequestResponse(verdict.id, verdict.reason));
  }
  return answers.length > 0 ? answers : undefined;
}

/**
 * Creates the request handler for one Streamable HTTP MCP endpoint: `http.createServer(handler)`, or mount it
 * in a framework (pass an already-parsed JSON body as the third argument).
 */
export function createStreamableHttpServer(options: StreamableHttpServerOptions): StreamableHttpHandler {
  const sessions = new Map<string, StreamableHttpServerTransport>();
  /** Live POSTs of the sessionless era (for close() and the leak checks). */
  const requests = new Set<HttpRequestTransport>();
  const path = options.path ?? '/mcp';
  const facts = options.protocol?.facts;
  const supported =
    options.supportedProtocolVersions ?? facts?.versions.map((v) => v.version) ?? DEFAULT_SUPPORTED_PROTOCOL_VERSIONS;
  /** Whether a session of this version may send batches: the model says, else versions up to 2025-03-26. */
  const batchesIn = (version: string): boolean =>
    facts !== undefined
      ? facts.versions.some((v) => v.version === version && v.batches === true)
      : version <= BATCH_UNTIL;
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const forbidden = dnsRebindingGuard(options);
  const sharedStore = typeof options.eventStore === 'object' ? options.eventStore : undefined;
  const resumable = options.eventStore !== false;
  const retryMs = options.retryMs === null ? undefined : (options.retryMs ?? 1000);
  const keepAliveMs = options.keepAliveMs ?? 25_000;
  const idleTimeoutMs = options.sessionIdleTimeoutMs ?? 30 * 60_000;
  const maxSessions = options.maxSessions ?? 1000;
  const nameSources = options.nameSources ?? facts?.transport.nameSources ?? DEFAULT_NAME_SOURCES;

  /** CORS for an allowed Origin: the same list that guards against DNS rebinding. */
  function corsHeaders(origin: string | undefined): Record<string, string> {
    if (origin === undefined) return {};
    return {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': 'mcp-session-id, www-authenticate',
      vary: 'origin',
    };
  }

  function preflight(req: IncomingMessage, res: ServerResponse, origin: string | undefined): void {
    const asked = (headerOf(req, 'access-control-request-headers') ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h !== '');
    const allowed = asked.filter((h) => CORS_ALLOWED_HEADERS.includes(h) || h.startsWith(HEADER.paramPrefix));
    res
      .writeHead(204, {
        ...corsHeaders(origin),
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers': [...new Set([...CORS_ALLOWED_HEADERS, ...allowed])].join(', '),
        'access-control-max-age': '600',
      })
      .end();
  }

  /** Finds the session of a non-initialize request, or answers 400/404. */
  function sessionFor(req: IncomingMessage, res: ServerResponse): StreamableHttpServerTransport | undefined {
    const id = headerOf(req, HEADER.sessionId);
    if (id === undefined || id === '') {
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

  /**
   * The session era's version check: the header must name a supported version. What the session may do
   * (batches, priming events) follows the version it negotiated, never the header: a header naming another
   * supported version is tolerated (the official conformance suite sends 2025-03-26 on 2025-11-25 sessions)
   * but cannot switch a 2025-11-25 session into 2025-03-26 batches.
   */
  function versionOk(req: IncomingMessage, res: ServerResponse, session: StreamableHttpServerTransport): boolean {
    const version = headerOf(req, HEADER.protocolVersion);
    if (version === undefined || supported.includes(version)) return true;
    writeJsonError(
      res,
      400,
      -32000,
      `Bad Request: Unsupported protocol version: ${version} (supported: ${supported.join(', ')})`,
      session.sessionId,
    );
    return false;
  }

  /** Reads and parses the POST body; answers (and returns undefined) when it cannot. */
  async function bodyOf(
    req: IncomingMessage,
    res: ServerResponse,
    parsedBody: unknown,
  ): Promise<{ value: unknown } | undefined> {
    if (parsedBody !== undefined) return { value: parsedBody };
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      writeJsonError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
      return undefined;
    }
    const body = await readBody(req, maxBody);
    if ('tooLarge' in body) {
      writeJsonError(res, 413, -32000, `Request body exceeds ${maxBody} bytes`);
      return undefined;
    }
    try {
      return { value: JSON.parse(body.text) };
    } catch {
      writeJsonRpcError(res, 400, parseErrorResponse());
      return undefined;
    }
  }

  async function handlePost(req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> {
    const accept = req.headers.accept;
    const acceptsJson = accepts(accept, 'application/json');
    const acceptsSse = accepts(accept, 'text/event-stream');
    if (!acceptsJson && !acceptsSse) {
      writeJsonError(res, 406, -32000, 'Not Acceptable: Accept must list application/json and text/event-stream');
      return;
    }
    const body = await bodyOf(req, res, parsedBody);
    if (body === undefined) return;
    const wantsSse = acceptsSse && !(options.enableJsonResponse && acceptsJson);
    const version = headerOf(req, HEADER.protocolVersion);
    if (isHeaderEra(version)) return handleSessionlessPost(req, res, body.value, version!, wantsSse);

    const raw = body.value;
    const batch = Array.isArray(raw);
    // Batches follow the session's negotiated version (the header only when there is no session yet).
    const known = sessions.get(headerOf(req, HEADER.sessionId) ?? '');
    const sessionVersion = known?.protocolVersion ?? version ?? ASSUMED_PROTOCOL_VERSION;
    const refused = refusal(raw, batchesIn(sessionVersion));
    if (refused !== undefined) {
      writeJsonRpcError(res, 400, refused, sessionHeader(req));
      return;
    }
    const messages = (batch ? raw : [raw]) as WireMessage[];

    if (messages.some(isInitializeRequest)) {
      if (messages.length > 1) {
        writeJsonError(res, 400, -32600, 'Invalid Request: initialize must be sent alone');
        return;
      }
      const existing = headerOf(req, HEADER.sessionId);
      if (existing !== undefined && existing !== '') {
        if (sessions.has(existing)) writeJsonError(res, 400, -32600, 'Invalid Request: session already initialized');
        else writeJsonError(res, 404, -32001, 'Session not found');
        return;
      }
      if (sessions.size >= maxSessions) {
        writeJsonError(
          res,
          503,
          -32000,
          `Service Unavailable: the server holds its maximum of ${maxSessions} sessions`,
        );
        return;
      }
      const sessionId = options.sessionIdGenerator?.() ?? globalThis.crypto.randomUUID();
      if (!/^[\x21-\x7e]+$/.test(sessionId)) throw new Error(`Invalid session id: ${JSON.stringify(sessionId)}`);
      const transport = new StreamableHttpServerTransport(sessionId, {
        eventStore: resumable ? (sharedStore ?? new InMemoryEventStore()) : undefined,
        retryMs,
        keepAliveMs,
        idleTimeoutMs,
        resumeWindowMs: Math.max(60_000, (retryMs ?? 1000) * 10),
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
        void transport.close();
        writeJsonError(res, 500, -32603, `Internal error: could not create the session (${toError(error).message})`);
        return;
      }
      await transport.handlePost(req, res, messages, false, wantsSse, requestInfoOf(req));
      return;
    }

    const session = sessionFor(req, res);
    if (!session || !versionOk(req, res, session)) return;
    if (batch) {
      const negotiated = session.protocolVersion ?? version ?? ASSUMED_PROTOCOL_VERSION;
      if (!batchesIn(negotiated)) {
        writeJsonRpcError(res, 400, invalidRequestResponse(null, 'batches are not supported'), sessionHeader(req));
        return;
      }
    }
    await session.handlePost(req, res, messages, batch, wantsSse, requestInfoOf(req));
  }

  /**
   * A POST of the sessionless era. Checks, in order: the JSON-RPC shape, the standard headers against the
   * body (-32020), the version (-32022); then one transport for this POST is connected and given the message.
   */
  async function handleSessionlessPost(
    req: IncomingMessage,
    res: ServerResponse,
    value: unknown,
    version: string,
    wantsSse: boolean,
  ): Promise<void> {
    const refused = refusal(value, false);
    if (refused !== undefined) return writeJsonRpcError(res, 400, refused);
    const verdict = inspectMessage(value);
    if (verdict.kind === 'response') {
      const id = verdict.message['id'];
      const answerId = typeof id === 'string' || typeof id === 'number' ? id : null;
      return writeJsonRpcError(
        res,
        400,
        invalidRequestResponse(answerId, 'clients do not send responses over HTTP in this version'),
      );
    }
    if (verdict.kind === 'invalid')
      return writeJsonRpcError(res, 400, invalidRequestResponse(verdict.id, verdict.reason));
    const id = verdict.kind === 'request' ? verdict.id : null;
    const mismatch = headerMismatch(req, verdict.method, verdict.params);
    if (mismatch !== undefined) {
      return writeJsonError(res, 400, HEADER_MISMATCH, `Header mismatch: ${mismatch}`, undefined, {}, id);
    }
    if (!supported.includes(version)) {
      return writeJsonError(res, 400, UNSUPPORTED_VERSION, 'Unsupported protocol version', undefined, {}, id, {
        supported,
        requested: version,
      });
    }
    const meta = verdict.params?.['_meta'];
    const bodyVersion = isPlainObject(meta) ? meta['io.modelcontextprotocol/protocolVersion'] : undefined;
    if (bodyVersion !== undefined && bodyVersion !== version) {
      const message = `Header mismatch: MCP-Protocol-Version header value '${version}' does not match body value '${String(bodyVersion)}'`;
      return writeJsonError(res, 400, HEADER_MISMATCH, message, undefined, {}, id);
    }
    const transport = new HttpRequestTransport(
      res,
      verdict.kind === 'request' ? verdict.id : undefined,
      version,
      wantsSse,
      keepAliveMs,
    );
    requests.add(transport);
    const previous = transport.onclose;
    const forget = (): void => void requests.delete(transport);
    try {
      await options.onSession(transport);
    } catch (error) {
      forget();
      void transport.close();
      writeJsonError(res, 500, -32603, `Internal error: could not serve the request (${toError(error).message})`);
      return;
    }
    const installed = transport.onclose ?? previous;
    transport.onclose = () => {
      forget();
      installed?.();
    };
    transport.deliver(value, { requestInfo: requestInfoOf(req) });
    if (verdict.kind === 'notification') void transport.close();
  }

  /** Why the standard request headers do not match the body, or undefined when they do. */
  function headerMismatch(
    req: IncomingMessage,
    method: string,
    params: { [key: string]: unknown } | undefined,
  ): string | undefined {
    const methodHeader = headerOf(req, HEADER.method);
    if (methodHeader === undefined) return 'Mcp-Method header is missing';
    const sentMethod = decodeHeaderValue(methodHeader);
    if (sentMethod !== method) {
      return `Mcp-Method header value '${methodHeader}' does not match body value '${method}'`;
    }
    const source = Object.hasOwn(nameSources, method) ? nameSources[method] : undefined;
    const nameHeader = headerOf(req, HEADER.name);
    if (source === undefined) return undefined;
    const bodyName = params?.[source];
    if (typeof bodyName !== 'string') {
      return nameHeader === undefined ? undefined : `Mcp-Name header is present but params.${source} is not a string`;
    }
    if (nameHeader === undefined) return 'Mcp-Name header is missing';
    const sentName = decodeHeaderValue(nameHeader);
    if (sentName === undefined) return 'Mcp-Name header value is not a valid header value';
    if (sentName !== bodyName) return `Mcp-Name header value '${sentName}' does not match body value '${bodyName}'`;
    return undefined;
  }

  async function handleGet(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (isHeaderEra(headerOf(req, HEADER.protocolVersion))) {
      writeJsonError(res, 405, -32000, 'Method Not Allowed: no GET stream in this protocol version', undefined, {
        allow: 'POST',
      });
      return;
    }
    if (!accepts(req.headers.accept, 'text/event-stream')) {
      writeJsonError(res, 406, -32000, 'Not Acceptable: Accept must list text/event-stream');
      return;
    }
    const session = sessionFor(req, res);
    if (!session || !versionOk(req, res, session)) return;
    session.touch();
    const lastEventId = headerOf(req, 'last-event-id');
    if (lastEventId !== undefined && lastEventId !== '' && session.resumable) {
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
    if (options.enableDelete === false || isHeaderEra(headerOf(req, HEADER.protocolVersion))) {
      writeJsonError(res, 405, -32000, 'Method Not Allowed: sessions cannot be ended by the client', undefined, {
        allow: 'GET, POST',
      });
      return;
    }
    const session = sessionFor(req, res);
    if (!session || !versionOk(req, res, session)) return;
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
      const origin = req.headers.origin;
      const refusal = forbidden(req.headers.host, origin);
      if (refusal !== undefined) {
        writeJsonError(res, 403, -32000, refusal);
        return;
      }
      for (const [name, value] of Object.entries(corsHeaders(origin))) res.setHeader(name, value);
      switch (req.method) {
        case 'POST':
          return await handlePost(req, res, parsedBody);
        case 'GET':
          return await handleGet(req, res);
        case 'DELETE':
          return await handleDelete(req, res);
        case 'OPTIONS':
          return preflight(req, res, origin);
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
    requests: { value: requests },
    close: {
      value: async () => {
        await Promise.all([...sessions.values(), ...requests].map((s) => s.close()));
      },
    },
  });
  return handler;
}

/** Echoes the request's session id on an error answer, when it named one. */
function sessionHeader(req: IncomingMessage): Record<string, string> {
  const id = headerOf(req, HEADER.sessionId);
  return id === undefined ? {} : { [HEADER.sessionId]: id };
}

function requestInfoOf(req: IncomingMessage): HttpMessageExtraInfo['requestInfo'] {
  let url: URL | undefined;
  try {
    url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  } catch {
    url = undefined;
  }
  return url === undefined ? { headers: req.headers } : { headers: req.headers, url };
}
