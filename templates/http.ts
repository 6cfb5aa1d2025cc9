/**
 * Streamable HTTP transport (MCP 2025-11-25, also serving 2025-06-18 and 2025-03-26 clients): a node:http
 * request handler that exposes every MCP session as a `Transport`, and a client transport built on `fetch`.
 *
 * This file is hand-written runtime that mcp-typegen copies, unchanged, into every generated output
 * (as `runtime/http.ts`). It depends only on the other runtime files, `node:` built-ins and the `fetch`,
 * `Headers`, `ReadableStream` and `TextDecoder` globals of Node 18+.
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
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPlainObject, type RequestId } from './jsonrpc.js';
import type { JsonRpcFrame, MessageExtraInfo, Transport, TransportSendOptions } from './transport.js';

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

type WireMessage = Exclude<JsonRpcFrame, unknown[]>;

// ---------------------------------------------------------------------------------------------
// Message helpers
// ---------------------------------------------------------------------------------------------

function isWireMessage(value: unknown): value is WireMessage {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0') return false;
  if ('method' in value) {
    if (typeof value.method !== 'string') return false;
    if ('id' in value && typeof value.id !== 'string' && typeof value.id !== 'number') return false;
    return value.params === undefined || isPlainObject(value.params) || Array.isArray(value.params);
  }
  if ('id' in value && value.id !== null && typeof value.id !== 'string' && typeof value.id !== 'number') {
    return false;
  }
  return ('result' in value && 'id' in value) !== 'error' in value;
}

function isRequest(m: WireMessage): m is WireMessage & { id: RequestId; method: string } {
  return 'method' in m && 'id' in m && m.id !== undefined;
}

function isResponse(m: WireMessage): m is WireMessage & { id?: RequestId | null } {
  return !('method' in m) && ('result' in m || 'error' in m);
}

function isInitializeRequest(m: WireMessage): boolean {
  return isRequest(m) && m.method === 'initialize';
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** Formats one SSE event. `data` may be empty (priming event). */
export function formatSseEvent(event: { id?: string; event?: string; data: string; retry?: number }): string {
  let text = '';
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.retry !== undefined) text += `retry: ${Math.max(0, Math.floor(event.retry))}\n`;
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return text + '\n';
}

// ---------------------------------------------------------------------------------------------
// Event store (resumability)
// ---------------------------------------------------------------------------------------------

/**
 * Stores SSE events so a client that lost a stream can resume it with `Last-Event-ID`. Event ids must be
 * unique across all streams given to one store; `message` is null for priming events (nothing to replay).
 */
export interface EventStore {
  storeEvent(streamId: string, message: JsonRpcFrame | null): string | Promise<string>;
  /**
   * Replays, in order, the messages stored on the stream of `lastEventId` after that event; returns that
   * stream's id, or undefined when the event id is unknown.
   */
  replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcFrame) => void | Promise<void>,
  ): Promise<string | undefined>;
  /** The stream an event id belongs to. Optional; lets resumption attach before replaying (no race). */
  getStreamIdForEventId?(eventId: string): string | undefined | Promise<string | undefined>;
  /** Forgets every event of a stream (called when a stream is finished or its session ends). Optional. */
  deleteStream?(streamId: string): void | Promise<void>;
}

/** An in-memory EventStore keeping at most `maxEventsPerStream` events per stream (default 1000). */
export class InMemoryEventStore implements EventStore {
  private readonly streams = new Map<string, Array<{ id: string; message: JsonRpcFrame | null }>>();
  private readonly streamOfEvent = new Map<string, string>();
  private counter = 0;

  constructor(private readonly maxEventsPerStream = 1000) {}

  storeEvent(streamId: string, message: JsonRpcFrame | null): string {
    const id = `${streamId}.${++this.counter}`;
    let events = this.streams.get(streamId);
    if (!events) this.streams.set(streamId, (events = []));
    events.push({ id, message });
    this.streamOfEvent.set(id, streamId);
    while (events.length > this.maxEventsPerStream) this.streamOfEvent.delete(events.shift()!.id);
    return id;
  }

  async replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcFrame) => void | Promise<void>,
  ): Promise<string | undefined> {
    const streamId = this.streamOfEvent.get(lastEventId);
    if (streamId === undefined) return undefined;
    const events = this.streams.get(streamId) ?? [];
    const index = events.findIndex((e) => e.id === lastEventId);
    for (const event of events.slice(index + 1)) {
      if (event.message !== null) await send(event.id, event.message);
    }
    return streamId;
  }

  getStreamIdForEventId(eventId: string): string | undefined {
    return this.streamOfEvent.get(eventId);
  }

  deleteStream(streamId: string): void {
    for (const event of this.streams.get(streamId) ?? []) this.streamOfEvent.delete(event.id);
    this.streams.delete(streamId);
  }
}

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

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
  queue?: Array<{ id: string | undefined; text: string }>;
}

/** One SSE/JSON response channel: the answer to one POST, or the standalone GET stream. */
interface Channel {
  id: string;
  kind: 'post' | 'standalone';
  mode: 'sse' | 'json';
  /** The live HTTP response, when connected. */
  sink?: SseSink;
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

function key(id: RequestId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
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
  private standalone?: Channel;
  private initializeKey?: string;
  private closed = false;
  private started = false;

  /** @internal Created by createStreamableHttpServer. */
  constructor(
    sessionId: string,
    private readonly config: {
      eventStore?: EventStore;
      retryMs?: number;
      keepAliveMs: number;
      onClosed: (transport: StreamableHttpServerTransport) => void;
    },
  ) {
    this.sessionId = sessionId;
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
        const version = message.result.protocolVersion;
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
      id: randomUUID(),
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
        const asked = isPlainObject(params) ? params.protocolVersion : undefined;
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
      id: randomUUID(),
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
      const sessionId = (options.sessionIdGenerator ?? randomUUID)();
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

// ---------------------------------------------------------------------------------------------
// Client
// ---------------------------------------------------------------------------------------------

/** An HTTP error from the server (status and body text). */
export class StreamableHttpError extends Error {
  override readonly name = 'StreamableHttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly body?: string,
  ) {
    super(message);
  }
}

export interface ReconnectionOptions {
  /** First delay when the server sent no `retry:`. Default 1000 ms. */
  initialDelayMs: number;
  /** Cap on the backoff. Default 30000 ms. */
  maxDelayMs: number;
  /** Backoff factor per failed attempt. Default 1.5. */
  growFactor: number;
  /** Attempts per dropped stream before giving up (onerror). Default 2. */
  maxRetries: number;
}

export interface StreamableHttpClientTransportOptions {
  /** Extra headers on every request (e.g. Authorization), or a function producing them per request. */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** The fetch to use. Default the global fetch. */
  fetch?: typeof fetch;
  /** Resume an existing session instead of starting one. */
  sessionId?: string;
  /** Open the standalone GET SSE stream after initialization. Default true. */
  openSseStream?: boolean;
  /** Reconnection of dropped SSE streams. The server's `retry:` value, when sent, replaces the backoff delay. */
  reconnection?: Partial<ReconnectionOptions>;
  /** Send DELETE to end the session on close(). Default true. */
  terminateOnClose?: boolean;
}

const DEFAULT_RECONNECTION: ReconnectionOptions = {
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  growFactor: 1.5,
  maxRetries: 2,
};

/** One parsed SSE event. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * An incremental SSE parser (WHATWG "event stream interpretation"): feed it text, it calls back per event and
 * per `retry:` field. Comments and unknown fields are ignored; CR, LF and CRLF all end lines.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private eventType = '';
  private eventId?: string;
  private sawId = false;
  private pendingCr = false;

  constructor(
    private readonly onEvent: (event: SseEvent) => void,
    private readonly onRetry?: (ms: number) => void,
  ) {}

  /** The last event id seen (persists across events, as in EventSource). */
  lastEventId?: string;

  push(text: string): void {
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(this.buffer.slice(start, i));
      if (c === 13) {
        if (i + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) {
          this.eventId = value;
          this.sawId = true;
        }
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.onRetry?.(Number(value));
        break;
    }
  }

  private dispatch(): void {
    if (this.sawId) this.lastEventId = this.eventId;
    const hadId = this.sawId;
    const event: SseEvent = { event: this.eventType || 'message', data: this.data.join('\n') };
    if (hadId) event.id = this.eventId;
    const hasData = this.data.length > 0;
    this.data = [];
    this.eventType = '';
    this.sawId = false;
    // Events with an id but no data (priming events) are surfaced so the id can be tracked.
    if (hasData || hadId) this.onEvent(event);
  }
}

/** Client side of Streamable HTTP: POSTs each message and reads JSON or SSE answers. */
export class StreamableHttpClientTransport implements Transport {
  onmessage?: (message: JsonRpcFrame, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private readonly url: URL;
  private readonly fetchImpl: typeof fetch;
  private readonly reconnection: ReconnectionOptions;
  private abort?: AbortController;
  private closed = false;
  private closing?: Promise<void>;
  private protocolVersionValue?: string;
  private sessionIdValue?: string;
  private serverRetryMs?: number;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private initializeId?: RequestId;
  private standaloneOpen = false;

  constructor(
    url: string | URL,
    private readonly options: StreamableHttpClientTransportOptions = {},
  ) {
    this.url = new URL(url);
    this.fetchImpl = options.fetch ?? fetch;
    this.reconnection = { ...DEFAULT_RECONNECTION, ...options.reconnection };
    this.sessionIdValue = options.sessionId;
  }

  get sessionId(): string | undefined {
    return this.sessionIdValue;
  }

  get protocolVersion(): string | undefined {
    return this.protocolVersionValue;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersionValue = version;
  }

  async start(): Promise<void> {
    if (this.abort) throw new Error('StreamableHttpClientTransport already started');
    this.abort = new AbortController();
    // Reconnecting to a known session: listen for server messages right away.
    if (this.sessionIdValue !== undefined) this.openStandalone();
  }

  async send(message: JsonRpcFrame, options?: TransportSendOptions): Promise<void> {
    if (!this.abort || this.closed) throw new Error('Not connected');
    const messages = Array.isArray(message) ? message : [message];
    if (options?.resumptionToken) {
      // Continue a request whose stream was lost: the answer arrives on the resumed stream.
      const request = messages.find(isRequest);
      this.resumeStream(options.resumptionToken, {
        onresumptiontoken: options.onresumptiontoken,
        replayId: request?.id,
      });
      return;
    }
    for (const m of messages) if (isInitializeRequest(m) && isRequest(m)) this.initializeId = m.id;

    const headers = await this.headers();
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json, text/event-stream');
    let response: Response;
    try {
      response = await this.fetchImpl(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(message),
        signal: this.abort.signal,
      });
    } catch (error) {
      const wrapped = new Error(`POST ${this.url.href} failed: ${toError(error).message}`, { cause: error });
      this.onerror?.(wrapped);
      throw wrapped;
    }
    const sessionId = response.headers.get('mcp-session-id');
    if (sessionId) this.sessionIdValue = sessionId;

    if (!response.ok) {
      const text = await response.text().catch(() => '');
      if (response.status === 404 && this.sessionIdValue !== undefined && !messages.some(isInitializeRequest)) {
        // The session is gone: a new one must be started with initialize.
        this.sessionIdValue = undefined;
      }
      const error = new StreamableHttpError(
        response.status,
        `POST ${this.url.href} answered HTTP ${response.status}${text ? `: ${text}` : ''}`,
        text,
      );
      this.onerror?.(error);
      throw error;
    }

    const hasRequests = messages.some(isRequest);
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (response.status === 202 || !hasRequests) {
      await response.body?.cancel().catch(() => undefined);
      if (messages.some((m) => 'method' in m && m.method === 'notifications/initialized')) this.openStandalone();
      return;
    }
    if (type === 'text/event-stream') {
      const pending = new Set(messages.filter(isRequest).map((m) => key(m.id)));
      void this.readSse(response, { kind: 'post', pending, onresumptiontoken: options?.onresumptiontoken });
      return;
    }
    if (type === 'application/json') {
      let data: unknown;
      try {
        data = await response.json();
      } catch (error) {
        const wrapped = new Error(`Invalid JSON in the response to POST: ${toError(error).message}`);
        this.onerror?.(wrapped);
        throw wrapped;
      }
      for (const item of Array.isArray(data) ? data : [data]) this.receive(item);
      return;
    }
    await response.body?.cancel().catch(() => undefined);
    const error = new StreamableHttpError(response.status, `Unexpected content type: ${type || '(none)'}`);
    this.onerror?.(error);
    throw error;
  }

  /** Re-opens a stream from an event id (GET with Last-Event-ID). */
  resumeStream(
    lastEventId: string,
    options: { onresumptiontoken?: (token: string) => void; replayId?: RequestId } = {},
  ): void {
    void this.openGet({
      lastEventId,
      attempt: 0,
      onresumptiontoken: options.onresumptiontoken,
      replayId: options.replayId,
      kind: 'resume',
    });
  }

  /** Ends the session on the server (DELETE; a 405 answer is accepted). */
  async terminateSession(): Promise<void> {
    if (this.sessionIdValue === undefined) return;
    const headers = await this.headers();
    const response = await this.fetchImpl(this.url, {
      method: 'DELETE',
      headers,
      signal: AbortSignal.timeout(5000),
    });
    await response.body?.cancel().catch(() => undefined);
    if (!response.ok && response.status !== 405 && response.status !== 404) {
      throw new StreamableHttpError(response.status, `DELETE ${this.url.href} answered HTTP ${response.status}`);
    }
    this.sessionIdValue = undefined;
  }

  /** Stops all streams and timers, ends the session (DELETE, unless disabled), then fires onclose once. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      for (const timer of this.timers) clearTimeout(timer);
      this.timers.clear();
      this.abort?.abort();
      if (this.options.terminateOnClose !== false && this.abort) {
        await this.terminateSession().catch((error) => this.onerror?.(toError(error)));
      }
      this.onclose?.();
    })();
    return this.closing;
  }

  // --- internals ------------------------------------------------------------------------------

  private async headers(): Promise<Headers> {
    const extra = typeof this.options.headers === 'function' ? await this.options.headers() : this.options.headers;
    const headers = new Headers(extra);
    if (this.sessionIdValue !== undefined) headers.set('mcp-session-id', this.sessionIdValue);
    if (this.protocolVersionValue !== undefined) headers.set('mcp-protocol-version', this.protocolVersionValue);
    return headers;
  }

  private receive(value: unknown, replayId?: RequestId): boolean {
    const items = Array.isArray(value) ? value : [value];
    if (!items.every(isWireMessage)) {
      this.onerror?.(new Error(`Received something that is not a JSON-RPC message: ${JSON.stringify(value)}`));
      return false;
    }
    for (const m of items as WireMessage[]) {
      if (isResponse(m)) {
        if (replayId !== undefined) (m as { id?: RequestId | null }).id = replayId;
        if (m.id !== undefined && m.id === this.initializeId && 'result' in m && isPlainObject(m.result)) {
          const version = m.result.protocolVersion;
          if (typeof version === 'string' && this.protocolVersionValue === undefined)
            this.protocolVersionValue = version;
        }
      }
    }
    this.onmessage?.(value as JsonRpcFrame);
    return true;
  }

  private openStandalone(): void {
    if (this.options.openSseStream === false || this.standaloneOpen || this.closed) return;
    this.standaloneOpen = true;
    void this.openGet({ attempt: 0, kind: 'standalone' });
  }

  /** GET: the standalone stream, or resumption of any stream with Last-Event-ID. */
  private async openGet(state: StreamState & { attempt: number }): Promise<void> {
    if (this.closed || !this.abort) return;
    let response: Response;
    try {
      const headers = await this.headers();
      headers.set('accept', 'text/event-stream');
      if (state.lastEventId !== undefined) headers.set('last-event-id', state.lastEventId);
      response = await this.fetchImpl(this.url, { method: 'GET', headers, signal: this.abort.signal });
    } catch (error) {
      if (this.closed) return;
      this.onerror?.(new Error(`GET ${this.url.href} failed: ${toError(error).message}`, { cause: error }));
      this.scheduleReconnect(state, state.attempt + 1);
      return;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      if (state.kind === 'standalone' && response.status === 405) {
        this.standaloneOpen = false; // the server offers no standalone stream: fine
        return;
      }
      this.onerror?.(new StreamableHttpError(response.status, `GET ${this.url.href} answered HTTP ${response.status}`));
      if (response.status === 404 || response.status === 400) {
        if (state.kind === 'standalone') this.standaloneOpen = false;
        return;
      }
      this.scheduleReconnect(state, state.attempt + 1);
      return;
    }
    void this.readSse(response, { ...state });
  }

  private async readSse(response: Response, state: StreamState): Promise<void> {
    const body = response.body;
    if (!body) return;
    let progressed = false;
    let answered = false;
    const parser = new SseParser(
      (event) => {
        if (event.id !== undefined) {
          state.lastEventId = event.id;
          progressed = true; // a stream that delivers resets the attempt count
          state.onresumptiontoken?.(event.id);
        }
        if (event.data === '' || event.event !== 'message') return;
        let value: unknown;
        try {
          value = JSON.parse(event.data);
        } catch {
          this.onerror?.(new Error(`Invalid JSON in SSE event: ${event.data.slice(0, 200)}`));
          return;
        }
        if (!this.receive(value, state.replayId)) return;
        for (const m of (Array.isArray(value) ? value : [value]) as WireMessage[]) {
          if (!isResponse(m)) continue;
          if (!state.pending) answered = true;
          else if (m.id !== undefined && m.id !== null) state.pending.delete(key(m.id));
        }
        if (state.pending && state.pending.size === 0) answered = true;
      },
      (ms) => {
        this.serverRetryMs = ms;
      },
    );
    const decoder = new TextDecoder();
    const reader = body.getReader();
    let failure: unknown;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, { stream: true }));
        if (progressed) state.attempt = 0;
      }
      parser.push(decoder.decode());
    } catch (error) {
      failure = error;
    }
    if (this.closed) return;
    if (failure !== undefined)
      this.onerror?.(new Error(`SSE stream disconnected: ${toError(failure).message}`, { cause: failure }));
    // Reconnect: the standalone stream always; a request's stream only if answers are missing and the server
    // gave it an event id to resume from.
    const reconnect = state.kind === 'standalone' || (!answered && state.lastEventId !== undefined);
    if (!reconnect) return;
    this.scheduleReconnect({ ...state, kind: state.kind === 'post' ? 'resume' : state.kind }, state.attempt ?? 0);
  }

  private scheduleReconnect(state: StreamState, attempt: number): void {
    if (this.closed) return;
    if (attempt >= this.reconnection.maxRetries) {
      if (state.kind === 'standalone') this.standaloneOpen = false;
      this.onerror?.(new Error(`Giving up reconnecting the SSE stream after ${attempt} attempts`));
      return;
    }
    const { initialDelayMs, growFactor, maxDelayMs } = this.reconnection;
    const delay = this.serverRetryMs ?? Math.min(initialDelayMs * Math.pow(growFactor, attempt), maxDelayMs);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.openGet({ ...state, attempt });
    }, delay);
    this.timers.add(timer);
  }
}

interface StreamState {
  kind: 'post' | 'standalone' | 'resume';
  lastEventId?: string;
  /** Ids of the requests whose answers this stream still owes (POST streams). */
  pending?: Set<string>;
  replayId?: RequestId;
  onresumptiontoken?: (token: string) => void;
  attempt?: number;
}
