/**
 * Streamable HTTP, client side, on the global `fetch` (browsers, Node 18+, Deno, Bun). Speaks both eras:
 *
 * - 2026-07-28 on (the message's `_meta` or `setProtocolVersion` names such a version): no session; every POST
 *   carries `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` where the name-source table says, and the
 *   `Mcp-Param-*` headers the caller passes in `TransportSendOptions.headers`. Cancelling a request closes its
 *   response stream (no `notifications/cancelled` is posted). No GET stream, no DELETE.
 * - earlier versions: the session from initialize (`Mcp-Session-Id`), the standalone GET stream, resumption
 *   with `Last-Event-ID`, DELETE on close.
 *
 * An error answer that carries a JSON-RPC error for the request (400/404 from a modern server) is delivered
 * to the engine like any answer; other HTTP failures reject the send with StreamableHttpError (a local error,
 * not something the peer said), which carries the status and, for 401, `WWW-Authenticate`.
 *
 * Hand-written runtime copied unchanged into generated output (as `runtime/http-client.ts`). Browser-safe: no
 * `node:` imports.
 */
import { DEFAULT_NAME_SOURCES, HEADER, isHeaderEra, standardHeaders, type NameSources } from './http-headers.js';
import { isPlainObject, type RequestId } from './jsonrpc.js';
import { SseParser } from './sse.js';
import { SseLegacyClientTransport } from './sse-legacy-client.js';
import {
  StreamableHttpError,
  isInitializeRequest,
  isRequest,
  isResponse,
  isWireMessage,
  key,
  toError,
  type WireMessage,
} from './http-common.js';
import type { JsonRpcFrame, MessageExtraInfo, Transport, TransportSendOptions } from './transport.js';

/** The protocol version a message declares in its `_meta` (2026-07-28 on), if any. */
function declaredVersion(message: WireMessage): string | undefined {
  const params = (message as { params?: unknown }).params;
  const meta = isPlainObject(params) ? params['_meta'] : undefined;
  const version = isPlainObject(meta) ? meta['io.modelcontextprotocol/protocolVersion'] : undefined;
  return typeof version === 'string' ? version : undefined;
}

export { StreamableHttpError };

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
  /**
   * Extra headers on every request, or a function producing them per request: the token provider (e.g.
   * `async () => ({ authorization: `Bearer ${await tokens.get()}` })`).
   */
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
  /** Which params member `Mcp-Name` mirrors, by method (2026-07-28 on). Default DEFAULT_NAME_SOURCES. */
  nameSources?: NameSources;
  /**
   * When the first POST, an `initialize`, fails with 400, 404 or 405 and its body is no recognised modern
   * JSON-RPC error, try the deprecated HTTP+SSE transport at the same URL (a GET expecting an `endpoint`
   * event) and, when it answers, speak it from then on, as the transport documents describe. Default true.
   */
  legacySseFallback?: boolean;
  /**
   * URLs found to speak only HTTP+SSE: a later transport to one of them skips the failing POST and GETs the
   * stream at once (and probes again with a POST if that GET fails). Default one set shared by the process.
   */
  legacySseCache?: Set<string>;
}

/** The process's memory of HTTP+SSE-only URLs (see legacySseCache). */
const LEGACY_SSE_URLS = new Set<string>();

const DEFAULT_RECONNECTION: ReconnectionOptions = {
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  growFactor: 1.5,
  maxRetries: 2,
};

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
  private sessionIdValue?: string | undefined;
  private serverRetryMs?: number;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private initializeId?: RequestId;
  private standaloneOpen = false;
  private readonly options: StreamableHttpClientTransportOptions;
  /** Tells the MCP client to mirror tool arguments into `Mcp-Param-*` headers (2026-07-28 on). */
  readonly mirrorsToolParams = true;
  /** One controller per request in flight: aborting it closes that request's response stream only. */
  private readonly inFlight = new Map<string, Flight>();
  /** Set once the server turned out to speak HTTP+SSE only: every message goes through it. */
  private legacy: SseLegacyClientTransport | undefined;
  /** Some POST succeeded: this is a Streamable HTTP server, no fallback any more. */
  private answeredOnce = false;

  constructor(url: string | URL, options: StreamableHttpClientTransportOptions = {}) {
    this.options = options;
    this.url = new URL(url);
    const fetchImpl = options.fetch ?? fetch;
    // Called as a plain function: a browser's fetch throws 'Illegal invocation' when called as a method of
    // another object (this transport, or the options).
    this.fetchImpl = (input, init) => fetchImpl(input, init);
    this.reconnection = { ...DEFAULT_RECONNECTION, ...options.reconnection };
    this.sessionIdValue = options.sessionId;
  }

  get sessionId(): string | undefined {
    return this.sessionIdValue;
  }

  /** The `Mcp-Name` sources of the generated protocol (extension methods included), set by the client. */
  private protocolNameSources?: NameSources;

  /** Called by the MCP client with its PROTOCOL's `Mcp-Name` sources (the `nameSources` option wins). */
  setNameSources(sources: NameSources): void {
    this.protocolNameSources = sources;
  }

  /** Identifies the server for the client's era cache: the endpoint URL. */
  get serverKey(): string {
    return this.url.href;
  }

  /** Requests whose response is still being awaited or read (for leak checks). */
  get requestsInFlight(): number {
    return this.inFlight.size;
  }

  get protocolVersion(): string | undefined {
    return this.protocolVersionValue;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersionValue = version;
    this.legacy?.setProtocolVersion(version);
  }

  /** Whether the server turned out to speak only the deprecated HTTP+SSE transport (see legacySseFallback). */
  get usesLegacySse(): boolean {
    return this.legacy !== undefined;
  }

  async start(): Promise<void> {
    if (this.abort) throw new Error('StreamableHttpClientTransport already started');
    this.abort = new AbortController();
    // Reconnecting to a known session: listen for server messages right away.
    if (this.sessionIdValue !== undefined) this.openStandalone();
  }

  async send(message: JsonRpcFrame, options?: TransportSendOptions): Promise<void> {
    if (!this.abort || this.closed) throw new Error('Not connected');
    if (this.legacy !== undefined) return this.legacy.send(message);
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
    const first = messages[0];
    const version = first === undefined ? undefined : (declaredVersion(first) ?? this.protocolVersionValue);
    const sessionless = isHeaderEra(version);
    // A cancelled request: its response stream is closed. In the sessionless era that is the cancellation
    // itself; earlier, the notification is posted too (the server releases the request on it) — but only once
    // the server has answered the request's POST, so it cannot overtake the request it cancels.
    const overtaken: Promise<void>[] = [];
    for (const m of messages) {
      if ('method' in m && m.method === 'notifications/cancelled' && !('id' in m)) {
        const params = (m as { params?: unknown }).params;
        const requestId = isPlainObject(params) ? params['requestId'] : undefined;
        if (typeof requestId === 'string' || typeof requestId === 'number') {
          const flight = this.stopReading(requestId, sessionless);
          if (flight !== undefined) overtaken.push(flight.headers);
        }
      }
    }
    if (sessionless && messages.every((m) => 'method' in m && m.method === 'notifications/cancelled')) return;
    if (overtaken.length > 0) await Promise.all(overtaken);
    if (this.closed) return;
    for (const m of messages) if (isInitializeRequest(m) && isRequest(m)) this.initializeId = m.id;
    let sseTried: string | undefined;
    if (this.knownLegacy() && this.opensSession(messages, sessionless)) {
      // This URL spoke HTTP+SSE before: go there at once; if it no longer does, probe with the POST below.
      const legacy = await this.fallBackToSse();
      if (typeof legacy !== 'string') return legacy.send(message);
      this.legacyCache.delete(this.url.href);
      sseTried = legacy;
    }

    const headers = await this.headers(sessionless);
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json, text/event-stream');
    if (sessionless && first !== undefined && 'method' in first && typeof first.method === 'string') {
      const body = first as { method: string; params?: { [key: string]: unknown } };
      const sources = this.options.nameSources ?? this.protocolNameSources ?? DEFAULT_NAME_SOURCES;
      const standard = standardHeaders(body, version!, sources);
      for (const [name, value] of Object.entries(standard)) headers.set(name, value);
    }
    for (const [name, value] of Object.entries(options?.headers ?? {})) headers.set(name, value);

    const requests = messages.filter(isRequest);
    const flight = new Flight();
    const controller = flight.controller;
    for (const r of requests) this.inFlight.set(key(r.id), flight);
    const release = (): void => {
      for (const r of requests) if (this.inFlight.get(key(r.id)) === flight) this.inFlight.delete(key(r.id));
    };
    let response: Response;
    try {
      response = await this.fetchImpl(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(message),
        signal: requests.length > 0 ? controller.signal : this.abort.signal,
      });
    } catch (error) {
      flight.answered();
      release();
      if (controller.signal.aborted && !this.closed) return; // cancelled by us: nothing to report
      const wrapped = new Error(`POST ${this.url.href} failed: ${toError(error).message}`, { cause: error });
      this.onerror?.(wrapped);
      throw wrapped;
    }
    flight.answered();
    if (flight.cancelled) {
      // Cancelled while the POST was on its way: now that the server has it, stop reading the answer.
      release();
      controller.abort();
      await response.body?.cancel().catch(() => undefined);
      return;
    }
    const sessionId = response.headers.get(HEADER.sessionId);
    if (sessionId && !sessionless) this.sessionIdValue = sessionId;
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

    if (!response.ok) {
      const text = await response.text().catch(() => '');
      release();
      // A JSON-RPC error answer for the request (a modern server's 400/404): the engine settles the call.
      if (type === 'application/json' && requests.length > 0 && this.deliverErrorAnswer(text, requests)) return;
      let fallback = '';
      if (sseTried !== undefined) fallback = `; no HTTP+SSE endpoint either (${sseTried})`;
      else if (this.mayFallBack(response.status, messages, sessionless, text)) {
        const legacy = await this.fallBackToSse();
        if (typeof legacy !== 'string') return legacy.send(message);
        fallback = `; no HTTP+SSE endpoint either (${legacy})`;
      }
      if (response.status === 404 && this.sessionIdValue !== undefined && !messages.some(isInitializeRequest)) {
        // The session is gone: a new one must be started with initialize.
        this.sessionIdValue = undefined;
      }
      const error = new StreamableHttpError(
        response.status,
        `POST ${this.url.href} answered HTTP ${response.status}${text ? `: ${text}` : ''}${fallback}`,
        text,
        response.headers.get('www-authenticate') ?? undefined,
      );
      this.onerror?.(error);
      throw error;
    }
    this.answeredOnce = true;
    if (this.knownLegacy()) this.legacyCache.delete(this.url.href);

    if (response.status === 202 || response.status === 204 || requests.length === 0) {
      release();
      await response.body?.cancel().catch(() => undefined);
      if (messages.some((m) => 'method' in m && m.method === 'notifications/initialized')) this.openStandalone();
      return;
    }
    if (type === 'text/event-stream') {
      const pending = new Set(requests.map((m) => key(m.id)));
      const state: StreamState = { kind: 'post', pending, signal: controller.signal };
      state.onresumptiontoken = options?.onresumptiontoken;
      void this.readSse(response, state).finally(release);
      return;
    }
    if (type === 'application/json') {
      let data: unknown;
      try {
        data = await response.json();
      } catch (error) {
        release();
        if (controller.signal.aborted) return;
        const wrapped = new Error(`Invalid JSON in the response to POST: ${toError(error).message}`);
        this.onerror?.(wrapped);
        throw wrapped;
      }
      release();
      for (const item of Array.isArray(data) ? data : [data]) this.receive(item);
      return;
    }
    release();
    await response.body?.cancel().catch(() => undefined);
    const error = new StreamableHttpError(response.status, `Unexpected content type: ${type || '(none)'}`);
    this.onerror?.(error);
    throw error;
  }

  /**
   * Stops reading the response of a cancelled request: its stream is closed now if the server has answered
   * the POST (or `now` is set: in the sessionless era closing is the cancellation), else as soon as it does.
   */
  private stopReading(requestId: RequestId, now: boolean): Flight | undefined {
    const flight = this.inFlight.get(key(requestId));
    if (flight === undefined) return undefined;
    this.inFlight.delete(key(requestId));
    // Another request of the same POST (a batch) may still be waiting: only close when none is.
    for (const other of this.inFlight.values()) if (other === flight) return flight;
    flight.cancelled = true;
    if (now || flight.hasAnswer) flight.controller.abort();
    return flight;
  }

  /**
   * Whether a failed POST is the one the transport documents fall back on: the session's first message (an
   * `initialize`, nothing answered yet), refused with 400, 404 or 405 without a modern JSON-RPC error.
   */
  private mayFallBack(status: number, messages: WireMessage[], sessionless: boolean, body: string): boolean {
    if (this.options.legacySseFallback === false || !this.opensSession(messages, sessionless)) return false;
    return (status === 400 || status === 404 || status === 405) && !isModernError(body);
  }

  /** Whether these messages open the first session of this transport (an `initialize`, nothing answered yet). */
  private opensSession(messages: WireMessage[], sessionless: boolean): boolean {
    if (this.answeredOnce || sessionless || this.sessionIdValue !== undefined) return false;
    return messages.some(isInitializeRequest);
  }

  /** GETs the URL as an HTTP+SSE stream; on its endpoint event, routes everything through it. */
  private async fallBackToSse(): Promise<SseLegacyClientTransport | string> {
    const headers = this.options.headers;
    const legacy = new SseLegacyClientTransport(this.url, {
      fetch: this.fetchImpl,
      ...(headers === undefined ? {} : { headers }),
    });
    try {
      await legacy.start();
    } catch (error) {
      return toError(error).message;
    }
    if (this.closed) {
      await legacy.close();
      return 'the transport was closed meanwhile';
    }
    legacy.onmessage = (frame) => void this.receive(frame);
    legacy.onerror = (error) => this.onerror?.(error);
    legacy.onclose = () => void this.close();
    if (this.protocolVersionValue !== undefined) legacy.setProtocolVersion(this.protocolVersionValue);
    this.legacy = legacy;
    this.legacyCache.add(this.url.href);
    return legacy;
  }

  private get legacyCache(): Set<string> {
    return this.options.legacySseCache ?? LEGACY_SSE_URLS;
  }

  private knownLegacy(): boolean {
    return this.options.legacySseFallback !== false && this.legacyCache.has(this.url.href);
  }

  /** Delivers an error body that is a JSON-RPC error for one of `requests`; false when it is not. */
  private deliverErrorAnswer(text: string, requests: Array<WireMessage & { id: RequestId }>): boolean {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return false;
    }
    const items = Array.isArray(data) ? data : [data];
    const answers = items.filter(
      (item): item is { id: RequestId; error: unknown } =>
        isPlainObject(item) && isPlainObject(item['error']) && requests.some((r) => r.id === item['id']),
    );
    if (answers.length === 0) return false;
    for (const answer of answers) this.receive(answer);
    return true;
  }

  /** Re-opens a stream from an event id (GET with Last-Event-ID). */
  resumeStream(
    lastEventId: string,
    options: { onresumptiontoken?: ((token: string) => void) | undefined; replayId?: RequestId | undefined } = {},
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
      for (const flight of this.inFlight.values()) flight.controller.abort();
      this.inFlight.clear();
      const legacy = this.legacy;
      if (legacy !== undefined) {
        legacy.onclose = undefined;
        await legacy.close();
      } else if (this.options.terminateOnClose !== false && this.abort) {
        await this.terminateSession().catch((error) => this.onerror?.(toError(error)));
      }
      this.onclose?.();
    })();
    return this.closing;
  }

  // --- internals ------------------------------------------------------------------------------

  private async headers(sessionless = false): Promise<Headers> {
    const extra = typeof this.options.headers === 'function' ? await this.options.headers() : this.options.headers;
    const headers = new Headers(extra);
    if (sessionless) return headers;
    if (this.sessionIdValue !== undefined) headers.set(HEADER.sessionId, this.sessionIdValue);
    if (this.protocolVersionValue !== undefined) headers.set(HEADER.protocolVersion, this.protocolVersionValue);
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
          const version = m.result['protocolVersion'];
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
        if (answered && state.kind !== 'standalone') {
          // Everything this stream owed has arrived: stop reading (and release the connection) now.
          await reader.cancel().catch(() => undefined);
          break;
        }
      }
      parser.push(decoder.decode());
    } catch (error) {
      failure = error;
    }
    // Closed, or the request was cancelled here: the stream ended on purpose.
    if (this.closed || state.signal?.aborted) return;
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

/** JSON-RPC error codes only a modern (2026-07-28 on) server answers a refused request with. */
const MODERN_ERROR_CODES: readonly number[] = [-32020, -32021, -32022, -32601];

/** Whether a response body is a recognised modern JSON-RPC error (then the server is no HTTP+SSE one). */
function isModernError(body: string): boolean {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return false;
  }
  return (Array.isArray(data) ? data : [data]).some((item) => {
    const error = isPlainObject(item) ? item['error'] : undefined;
    return isPlainObject(error) && MODERN_ERROR_CODES.includes(error['code'] as number);
  });
}

/** One POST carrying requests: how to close it, and whether the server has answered it yet. */
class Flight {
  readonly controller: AbortController = new AbortController();
  cancelled = false;
  hasAnswer = false;
  /** Settles when the POST's response headers arrive (or the POST fails). */
  readonly headers: Promise<void>;
  private resolveHeaders: () => void = () => {};

  constructor() {
    this.headers = new Promise<void>((resolve) => (this.resolveHeaders = resolve));
  }

  answered(): void {
    this.hasAnswer = true;
    this.resolveHeaders();
  }
}

interface StreamState {
  kind: 'post' | 'standalone' | 'resume';
  lastEventId?: string;
  /** Ids of the requests whose answers this stream still owes (POST streams). */
  pending?: Set<string>;
  replayId?: RequestId | undefined;
  onresumptiontoken?: ((token: string) => void) | undefined;
  attempt?: number;
  /** POST streams: aborted when the request is cancelled here. */
  signal?: AbortSignal;
}
