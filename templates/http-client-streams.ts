/**
 * The SSE streams of the Streamable HTTP client (http-client.ts): reading a POST's `text/event-stream` answer,
 * the standalone GET stream of a session, and resuming a dropped stream with `Last-Event-ID`, with backoff
 * (or the server's `retry:`) between attempts.
 *
 * Hand-written runtime copied unchanged into generated output (as `runtime/http-client-streams.ts`).
 * Browser-safe: no `node:` imports.
 */
import { StreamableHttpError, isResponse, key, toError, type WireMessage } from './http-common.js';
import type { RequestId } from './jsonrpc.js';
import { SseParser, type SseEvent } from './sse.js';

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

const DEFAULT_RECONNECTION: ReconnectionOptions = {
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  growFactor: 1.5,
  maxRetries: 2,
};

/** One stream being read: what it is, where it stands, and what it still owes. */
export interface StreamState {
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

/** What the streams need from their transport. */
export interface StreamOwner {
  readonly url: URL;
  readonly fetch: typeof fetch;
  /** Aborted when the transport closes; undefined before it starts. */
  signal(): AbortSignal | undefined;
  closed(): boolean;
  /** The headers of every request (session, protocol version, the caller's). */
  headers(): Promise<Headers>;
  /** Hands received messages on; false when they were not JSON-RPC. */
  receive(value: unknown, replayId: RequestId | undefined): boolean;
  error(error: Error): void;
}

export class SseStreams {
  readonly #owner: StreamOwner;
  readonly #reconnection: ReconnectionOptions;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #serverRetryMs: number | undefined;
  #standaloneOpen = false;

  constructor(owner: StreamOwner, reconnection: Partial<ReconnectionOptions> | undefined) {
    this.#owner = owner;
    this.#reconnection = { ...DEFAULT_RECONNECTION, ...reconnection };
  }

  /** Opens the session's standalone GET stream, unless it is open already. */
  openStandalone(): void {
    if (this.#standaloneOpen || this.#owner.closed()) return;
    this.#standaloneOpen = true;
    void this.#openGet({ attempt: 0, kind: 'standalone' });
  }

  /** Re-opens a stream from an event id (GET with Last-Event-ID). */
  resume(lastEventId: string, onresumptiontoken?: (token: string) => void, replayId?: RequestId): void {
    void this.#openGet({ lastEventId, attempt: 0, onresumptiontoken, replayId, kind: 'resume' });
  }

  /** Stops pending reconnections (the transport aborts the streams themselves). */
  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  /** GET: the standalone stream, or resumption of any stream with Last-Event-ID. */
  async #openGet(state: StreamState & { attempt: number }): Promise<void> {
    const owner = this.#owner;
    const signal = owner.signal();
    if (owner.closed() || signal === undefined) return;
    let response: Response;
    try {
      const headers = await owner.headers();
      headers.set('accept', 'text/event-stream');
      if (state.lastEventId !== undefined) headers.set('last-event-id', state.lastEventId);
      response = await owner.fetch(owner.url, { method: 'GET', headers, signal });
    } catch (error) {
      if (owner.closed()) return;
      owner.error(new Error(`GET ${owner.url.href} failed: ${toError(error).message}`, { cause: error }));
      this.#scheduleReconnect(state, state.attempt + 1);
      return;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      if (state.kind === 'standalone' && response.status === 405) {
        this.#standaloneOpen = false; // the server offers no standalone stream: fine
        return;
      }
      owner.error(new StreamableHttpError(response.status, `GET ${owner.url.href} answered HTTP ${response.status}`));
      if (response.status === 404 || response.status === 400) {
        if (state.kind === 'standalone') this.#standaloneOpen = false;
        return;
      }
      this.#scheduleReconnect(state, state.attempt + 1);
      return;
    }
    void this.read(response, { ...state });
  }

  /** Reads an SSE response to its end (or until it has delivered every answer it owes), then reconnects if due. */
  async read(response: Response, state: StreamState): Promise<void> {
    const body = response.body;
    if (!body) return;
    const progress = { made: false, answered: false };
    const parser = new SseParser(
      (event) => this.#onEvent(event, state, progress),
      (ms) => {
        this.#serverRetryMs = ms;
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
        if (progress.made) state.attempt = 0;
        if (progress.answered && state.kind !== 'standalone') {
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
    if (this.#owner.closed() || state.signal?.aborted) return;
    if (failure !== undefined)
      this.#owner.error(new Error(`SSE stream disconnected: ${toError(failure).message}`, { cause: failure }));
    // Reconnect: the standalone stream always; a request's stream only if answers are missing and the server
    // gave it an event id to resume from.
    const reconnect = state.kind === 'standalone' || (!progress.answered && state.lastEventId !== undefined);
    if (!reconnect) return;
    this.#scheduleReconnect({ ...state, kind: state.kind === 'post' ? 'resume' : state.kind }, state.attempt ?? 0);
  }

  #onEvent(event: SseEvent, state: StreamState, progress: { made: boolean; answered: boolean }): void {
    if (event.id !== undefined) {
      state.lastEventId = event.id;
      progress.made = true; // a stream that delivers resets the attempt count
      state.onresumptiontoken?.(event.id);
    }
    if (event.data === '' || event.event !== 'message') return;
    let value: unknown;
    try {
      value = JSON.parse(event.data);
    } catch {
      this.#owner.error(new Error(`Invalid JSON in SSE event: ${event.data.slice(0, 200)}`));
      return;
    }
    if (!this.#owner.receive(value, state.replayId)) return;
    for (const m of (Array.isArray(value) ? value : [value]) as WireMessage[]) {
      if (!isResponse(m)) continue;
      if (!state.pending) progress.answered = true;
      else if (m.id !== undefined && m.id !== null) state.pending.delete(key(m.id));
    }
    if (state.pending && state.pending.size === 0) progress.answered = true;
  }

  #scheduleReconnect(state: StreamState, attempt: number): void {
    if (this.#owner.closed()) return;
    if (attempt >= this.#reconnection.maxRetries) {
      if (state.kind === 'standalone') this.#standaloneOpen = false;
      this.#owner.error(new Error(`Giving up reconnecting the SSE stream after ${attempt} attempts`));
      return;
    }
    const { initialDelayMs, growFactor, maxDelayMs } = this.#reconnection;
    const delay = this.#serverRetryMs ?? Math.min(initialDelayMs * Math.pow(growFactor, attempt), maxDelayMs);
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#openGet({ ...state, attempt });
    }, delay);
    this.#timers.add(timer);
  }
}
