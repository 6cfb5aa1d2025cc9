/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * One session of the Streamable HTTP server (2025-03-26 … 2025-11-25) as a `Transport`: the response
 * channels of its POSTs and its standalone GET stream, routing each message to the stream of the request it
 * belongs to, storing SSE events for `Last-Event-ID` resumption, and ending itself when idle. Node only;
 * created by http-server.ts.
 */
import type { ServerResponse } from 'node:http';
import type { EventStore } from './event-store.js';
import { isPlainObject, type JsonRpcErrorResponse, type RequestId } from './jsonrpc.js';
import { formatSseEvent } from './sse.js';
import { isInitializeRequest, isRequest, isResponse, key, toError, type WireMessage } from './http-common.js';
import { sseHeaders, writeJsonError, writeJsonRpcError, type HttpMessageExtraInfo } from './http-replies.js';
import { invalidRequestResponse } from './frame.js';
import { HEADER } from './http-headers.js';
import type { JsonRpcFrame, Transport, TransportSendOptions } from './transport.js';

/** What a request without `MCP-Protocol-Version` is assumed to speak (spec: 2025-03-26). */
export const ASSUMED_PROTOCOL_VERSION = '2025-03-26';
/** Versions from which clients understand priming events (an id with empty data). */
const PRIMING_SINCE = '2025-11-25';

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

/** @internal What the server gives each session. */
export interface SessionConfig {
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

  /** @internal When a request of the session last arrived (the store reclaims the longest idle first). */
  lastActive = 0;

  /** @internal Nothing to interrupt: no request awaiting its answer, no stream open. */
  get idle(): boolean {
    if (this.requestChannel.size > 0) return false;
    for (const channel of this.channels.values()) if (channel.sink !== undefined) return false;
    return true;
  }

  /** @internal Restarts the idle clock (every request of the session calls it). */
  touch(): void {
    this.lastActive = Date.now();
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

  /** @internal Delivers one POST's messages: 202 for notifications and responses only, else a channel. */
  async handlePost(
    res: ServerResponse,
    messages: WireMessage[],
    batch: boolean,
    wantsSse: boolean,
    requestInfo: HttpMessageExtraInfo['requestInfo'],
    answered: JsonRpcErrorResponse[] = [],
  ): Promise<void> {
    this.touch();
    this.releaseCancelled(messages);
    const requests = messages.filter(isRequest);
    if (requests.length === 0) {
      // A batch's invalid members were answered already (`answered`): those answers are the response.
      if (answered.length > 0) writeJsonRpcError(res, 200, answered, { [HEADER.sessionId]: this.sessionId });
      else res.writeHead(202, { 'mcp-session-id': this.sessionId }).end();
      for (const m of messages) this.deliver(m, { requestInfo });
      return;
    }
    const reused = requests.find((r) => this.requestChannel.has(key(r.id)));
    if (reused !== undefined) {
      // The engine's answer to the same frame on every other transport (frame corpus): the id, not null.
      const answer = invalidRequestResponse(reused.id, 'id is in use by a request in progress');
      writeJsonRpcError(res, 400, answer, { [HEADER.sessionId]: this.sessionId });
      return;
    }
    const channel = this.openChannel(requests, batch, wantsSse);
    if (channel.mode === 'json') {
      channel.jsonRes = res;
      for (const [i, answer] of answered.entries()) {
        channel.answers.set(`answered:${i}`, answer);
        channel.order.push(`answered:${i}`);
      }
    } else {
      this.attachSse(channel, res);
      await this.writePriming(channel);
      for (const answer of answered) await this.emit(channel, answer);
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
  }

  /** A `notifications/cancelled` in the POST releases what its request holds, before anything else runs. */
  private releaseCancelled(messages: WireMessage[]): void {
    for (const m of messages) {
      if ('method' in m && m.method === 'notifications/cancelled' && !('id' in m)) {
        const params = (m as { params?: unknown }).params;
        if (isPlainObject(params)) this.release(params['requestId']);
      }
    }
  }

  /** The response channel of one POST's requests; an initialize among them fixes the session's version. */
  private openChannel(requests: Array<WireMessage & { id: RequestId }>, batch: boolean, wantsSse: boolean): Channel {
    const keys = requests.map((r) => key(r.id));
    const channel: Channel = {
      id: globalThis.crypto.randomUUID(),
      kind: 'post',
      mode: wantsSse ? 'sse' : 'json',
      open: new Set(keys),
      answers: new Map(),
      order: keys,
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
    return channel;
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
      const sink = channel.sink;
      if (!sink) return unknown(); // attachSse just gave the channel one
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
