/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * One session of the Streamable HTTP server (2025-03-26 … 2025-11-25) as a `Transport`: the response
 * channels of its POSTs and its standalone GET stream, routing each message to the stream of the request it
 * belongs to, storing SSE events for `Last-Event-ID` resumption, and ending itself when idle. Node only;
 * created by endpoint.ts.
 */
import type { ServerResponse } from 'node:http';
import { isPlainObject, type JsonRpcErrorResponse, type RequestId } from '../../../core/jsonrpc.js';
import { formatSseEvent } from '../sse.js';
import { isInitializeRequest, isRequest, isResponse, key, toError, type WireMessage } from '../common.js';
import { writeJsonError, writeJsonRpcError, type HttpMessageExtraInfo, type MessageInfo } from './replies.js';
import { invalidRequestResponse } from '../../../core/frame.js';
import { HEADER } from '../../../peer/http-headers.js';
import type { JsonRpcFrame, Transport, TransportSendOptions } from '../../../core/transport.js';
import { attachSink, detachSink, dropStream, newChannel, storeEvent, writeJsonAnswers } from './response-channel.js';
import { abandonSink, flushQueue, openSink, writeToSink } from './response-channel.js';
import type { Channel, SessionConfig, SseSink } from './response-channel.js';
import type { SessionLink } from './session-link.js';
import type { SessionInfo } from '../../../peer/server-base.js';
import { IdleClock } from './session-idle.js';
import { PrimingEvents, unstored, writePrimingEvent } from './priming.js';

/** What a request without `MCP-Protocol-Version` is assumed to speak (spec: 2025-03-26). */
export const ASSUMED_PROTOCOL_VERSION = '2025-03-26';

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
  /**
   * In a cluster: the object the server keeps this session's facts in (`server.connect(transport, facts)`),
   * restored from the shared store when the session was opened on another node. Undefined in one process.
   */
  facts?: Partial<SessionInfo> | undefined;

  private readonly channels = new Map<string, Channel>();
  /** Request key → channel id, for requests not yet answered. */
  private readonly requestChannel = new Map<string, string>();
  private standalone?: Channel | undefined;
  /** The POST streams' priming events, written a turn late (priming.ts). */
  private readonly priming = new PrimingEvents((channel) =>
    writePrimingEvent(channel, this.config, this.protocolVersion ?? ASSUMED_PROTOCOL_VERSION, this.onerror),
  );
  private initializeKey?: string;
  private closed = false;
  private started = false;
  private readonly config: SessionConfig;
  private readonly clock: IdleClock;

  /** @internal Created by createStreamableHttpServer. */
  constructor(sessionId: string, config: SessionConfig) {
    this.sessionId = sessionId;
    this.config = config;
    this.clock = new IdleClock(config.idleTimeoutMs, config.link !== undefined, {
      busy: () => !this.idle,
      active: () => this.config.link?.touched(),
      expire: () => void this.close(),
    });
    this.touch();
  }

  /** What the session holds right now: open response channels and requests awaiting their answer. */
  get stats(): { channels: number; requests: number } {
    return { channels: this.channels.size, requests: this.requestChannel.size };
  }

  /** @internal When a request of the session last arrived (the store reclaims the longest idle first). */
  get lastActive(): number {
    return this.clock.lastActive;
  }

  /** @internal Nothing to interrupt: no request awaiting its answer, no stream open. */
  get idle(): boolean {
    if (this.requestChannel.size > 0) return false;
    for (const channel of this.channels.values()) if (channel.sink !== undefined) return false;
    return true;
  }

  /** @internal Restarts the idle clock (every request of the session calls it). */
  touch(): void {
    this.clock.touch();
  }

  /** @internal In a cluster: the store lost this live session's record; it is written back (see cluster.ts). */
  writeBack(): Promise<boolean> {
    return this.config.link?.keep() ?? Promise.resolve(false);
  }

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
    detachSink(channel);
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
      // In a cluster, what the answer changed of the session is stored before the client can act on it.
      const stored = this.config.link?.answering(k, message);
      if (stored !== undefined) message = await stored;
      const channel = this.channels.get(this.requestChannel.get(k) ?? '');
      if (!channel) throw new Error(`No open request with id ${JSON.stringify(id)} on this session`);
      this.requestChannel.delete(k);
      channel.open.delete(k);
      if (channel.mode === 'json') {
        channel.answers.set(k, message);
        if (channel.open.size === 0) this.finishJson(channel);
        return;
      }
      await this.emit(channel, message, channel.open.size === 0);
      if (channel.open.size === 0) {
        channel.done = true;
        this.endIfDone(channel);
      }
      return;
    }

    if (this.config.link !== undefined) message = this.config.link.outgoing(message);
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
    this.clock.stop();
    for (const channel of this.channels.values()) {
      if (channel.expiry !== undefined) clearTimeout(channel.expiry);
      detachSink(channel);
      if (channel.jsonRes && !channel.jsonRes.headersSent) {
        writeJsonError(channel.jsonRes, 404, -32001, 'Session closed', this.sessionId);
      }
      dropStream(this.config.eventStore, channel.id, this.onerror);
    }
    this.channels.clear();
    this.requestChannel.clear();
    this.priming.clear();
    this.config.onClosed(this);
    this.config.link?.forgotten();
    this.onclose?.();
  }

  /** Ends the SSE stream of a request (the client resumes it with Last-Event-ID; see HttpMessageExtraInfo). */
  closeSSEStream(requestId: RequestId): void {
    const channel = this.channels.get(this.requestChannel.get(key(requestId)) ?? '');
    // The client resumes from the priming event: it is written (if still due) before the stream ends.
    if (channel !== undefined) this.priming.then(channel, () => detachSink(channel));
  }

  /** Ends the standalone GET stream (the client reconnects to it). */
  closeStandaloneSSEStream(): void {
    if (this.standalone) detachSink(this.standalone);
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
    info: MessageInfo,
    answered: JsonRpcErrorResponse[] = [],
  ): Promise<void> {
    this.touch();
    if (this.config.link !== undefined) messages = this.routed(this.config.link, messages);
    this.releaseCancelled(messages);
    const requests = messages.filter(isRequest);
    if (requests.length === 0) {
      // A batch's invalid members were answered already (`answered`): those answers are the response.
      if (answered.length > 0) writeJsonRpcError(res, 200, answered, { [HEADER.sessionId]: this.sessionId });
      else res.writeHead(202, { 'mcp-session-id': this.sessionId }).end();
      for (const m of messages) this.deliver(m, { ...info });
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
      attachSink(channel, res, this.sessionId, this.config.keepAliveMs);
      if (this.config.eventStore) this.priming.soon(channel); // without a store there is nothing to prime
      for (const answer of answered) await this.emit(channel, answer);
    }
    for (const m of messages) {
      const extra: HttpMessageExtraInfo = { ...info };
      if (isRequest(m) && channel.mode === 'sse' && this.resumable) {
        const id = m.id;
        extra.closeSSEStream = () => this.closeSSEStream(id);
        extra.closeStandaloneSSEStream = () => this.closeStandaloneSSEStream();
      }
      this.deliver(m, extra);
    }
  }

  /** In a cluster: what of a POST is this node's (the rest went to the nodes it belongs to). */
  private routed(link: SessionLink, messages: WireMessage[]): WireMessage[] {
    const runsHere = (id: unknown): boolean =>
      (typeof id === 'string' || typeof id === 'number') && this.requestChannel.has(key(id));
    const mine: WireMessage[] = [];
    for (const m of messages) {
      const routed = link.incoming(m, runsHere);
      if (routed !== undefined) mine.push(routed);
    }
    return mine;
  }

  /** @internal A message of the client's that reached this session through another node (cluster). */
  deliverForwarded(message: WireMessage): void {
    const routed = this.config.link?.incoming(message, () => true);
    if (routed === undefined || this.closed) return;
    this.releaseCancelled([routed]);
    this.deliver(routed, { requestInfo: { headers: {} } });
  }

  /**
   * @internal Another node took over a stream's client (cluster): the stream ends here. True while its
   * requests still run here (their events then go to that node).
   */
  yieldStream(channelId: string): boolean {
    const channel = this.channels.get(channelId);
    if (channel === undefined) return false;
    detachSink(channel);
    return !channel.done;
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
    const link = this.config.link;
    const id = link?.channelId(requests.map((r) => r.id)) ?? globalThis.crypto.randomUUID();
    const channel = newChannel(id, 'post', wantsSse, keys, batch);
    this.channels.set(channel.id, channel);
    for (const r of requests) {
      this.requestChannel.set(key(r.id), channel.id);
      link?.watch(r as WireMessage & { id: RequestId; method: string }, key(r.id));
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
    const sink = await this.attachStandalone(standalone, res);
    if (sink === undefined) return;
    await this.priming.now(standalone);
    flushQueue(sink, new Set());
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
      const link = this.config.link;
      if (link !== undefined && streamId === link.standaloneId) channel = this.ensureStandalone();
      else if (link !== undefined && streamId !== undefined && !this.channels.has(streamId)) {
        return link.resumeElsewhere(res, lastEventId, streamId);
      } else channel = streamId === undefined ? undefined : this.channels.get(streamId);
      if (!channel) return unknown();
      detachSink(channel); // the client says it lost that connection; the new one wins
      // The 200 waits for the replay: an id the store no longer has (trimmed, expired) is answered 404 instead.
      const standalone = channel === this.standalone;
      const sink = standalone ? await this.attachStandalone(channel, res, false) : this.attach(channel, res, false);
      if (sink === undefined) return;
      if (standalone) await link?.takeOver(channel.id); // live events now wait in the sink's queue
      const buffered: Array<{ id: string; message: JsonRpcFrame }> = [];
      const known = await store.replayEventsAfter(lastEventId, (id, message) => void buffered.push({ id, message }));
      if (known === undefined) {
        abandonSink(channel, sink);
        return unknown();
      }
      openSink(res, this.sessionId);
      for (const { id, message } of buffered) write(id, message);
      flushQueue(sink, replayed);
    } else {
      // No cheap lookup: replay into a buffer first, then attach (an event stored in between may be missed).
      const buffered: Array<{ id: string; message: JsonRpcFrame }> = [];
      streamId = await store.replayEventsAfter(lastEventId, (id, message) => void buffered.push({ id, message }));
      channel = streamId === undefined ? undefined : this.channels.get(streamId);
      if (!channel) return unknown();
      detachSink(channel);
      this.attach(channel, res);
      for (const { id, message } of buffered) write(id, message);
    }
    if (channel.done) {
      detachSink(channel);
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
    this.standalone ??= newChannel(
      this.config.link?.standaloneId ?? globalThis.crypto.randomUUID(),
      'standalone',
      true,
      [],
      false,
    );
    this.channels.set(this.standalone.id, this.standalone);
    return this.standalone;
  }

  private attach(channel: Channel, res: ServerResponse, head = true): SseSink {
    return attachSink(channel, res, this.sessionId, this.config.keepAliveMs, head);
  }

  /**
   * The standalone stream's sink; in a cluster, what other nodes send the session comes to it too, and the
   * stream answers only once this node listens: from the 200 on, nothing another node sends is missed. What
   * arrived before the sink existed waits in its queue. Undefined when the client left, or another GET won.
   */
  private async attachStandalone(channel: Channel, res: ServerResponse, head = true): Promise<SseSink | undefined> {
    const link = this.config.link;
    if (link === undefined) return this.attach(channel, res, head);
    let sink: SseSink | undefined = undefined; // set once this node listens
    const early: NonNullable<SseSink['queue']> = [];
    const { stop, ready } = link.listen(channel.id, (id, text) => {
      if (sink === undefined) early.push({ id, text });
      else if (channel.sink === sink) writeToSink(channel, id, text);
    });
    res.on('close', stop);
    await ready;
    if (res.destroyed || res.writableEnded) return undefined;
    if (channel.sink !== undefined) {
      writeJsonError(res, 409, -32000, 'Conflict: the standalone SSE stream is already open', this.sessionId);
      return undefined;
    }
    sink = this.attach(channel, res, head);
    sink.queue = [...early, ...(sink.queue ?? [])];
    return sink;
  }

  /** Writes a message to a channel's stream, stored for replay first (not the `last` one: see `unstored`). */
  private async emit(channel: Channel, message: WireMessage, last = false): Promise<void> {
    const store = this.config.eventStore;
    await this.priming.before(channel, unstored(channel, last));
    const id = store && !unstored(channel, last) ? await storeEvent(store, channel, message, this.onerror) : undefined;
    const link = this.config.link;
    if (!channel.sink && link === undefined) return;
    const text = formatSseEvent({ event: 'message', id, data: JSON.stringify(message) });
    if (!writeToSink(channel, id, text)) link?.relay(channel.id, id, text);
  }

  private endIfDone(channel: Channel): void {
    if (!channel.done) return;
    if (channel.sink) {
      detachSink(channel);
      this.forget(channel);
      return;
    }
    this.config.link?.finished(channel.id);
    if (!this.resumable || !channel.resumable) {
      this.forget(channel);
    } else if (channel.expiry === undefined) {
      // Kept for a resumption with Last-Event-ID, but not forever: a client that never comes back must not
      // pin the channel and its stored events for the rest of the session.
      channel.expiry = setTimeout(() => this.forget(channel), this.config.resumeWindowMs);
      channel.expiry.unref?.();
    }
  }

  private finishJson(channel: Channel): void {
    this.forget(channel);
    writeJsonAnswers(channel, this.sessionId);
  }

  private forget(channel: Channel): void {
    if (channel.expiry !== undefined) clearTimeout(channel.expiry);
    this.channels.delete(channel.id);
    for (const k of channel.open) this.requestChannel.delete(k);
    if (this.standalone === channel) this.standalone = undefined;
    this.priming.forget(channel);
    // A POST stream that stored nothing has nothing to drop (other nodes store on the standalone stream too).
    if (channel.kind === 'standalone' || channel.resumable)
      dropStream(this.config.eventStore, channel.id, this.onerror);
  }
}
