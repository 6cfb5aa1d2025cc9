/**
 * The session streams of the Streamable HTTP client (transport.ts), for servers with sessions (up to
 * 2025-11-25): the standalone GET stream a server sends its own messages on, and resuming a dropped stream with
 * `Last-Event-ID`, with backoff (or the server's `retry:`) between attempts.
 *
 * Opt-in, so that a client that does not need them bundles none of it:
 * `new StreamableHttpClientTransport(url, { streams: sessionStreams() })`. Without them the transport reads each
 * POST's answer, and nothing else.
 *
 * Hand-written runtime copied unchanged into generated output.
 * Browser-safe: no `node:` imports.
 */
import { StreamableHttpError, toError } from '../common.js';
import { readSse, streamLost, type StreamOwner, type StreamReconnects, type StreamState } from './read-sse.js';
import type { LocalError, RequestId } from '../../../core/jsonrpc.js';
import type { WireMessage } from '../common.js';

export type { StreamOwner, StreamState };

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

/** The transport options the streams read. */
export interface SessionStreamsSettings {
  /** Open the standalone GET SSE stream after initialization. Default true. */
  openSseStream?: boolean | undefined;
  reconnection?: Partial<ReconnectionOptions> | undefined;
}

/** What StreamableHttpClientTransport's `streams` option takes: made by `sessionStreams()`. */
export interface SessionStreamsOption {
  /** The streams of one transport (its `openSseStream` and `reconnection` options apply). */
  create(owner: StreamOwner, settings: SessionStreamsSettings): SessionStreams;
}

/** The standalone GET stream and stream resumption for `StreamableHttpClientTransport` (its `streams` option). */
export function sessionStreams(): SessionStreamsOption {
  return { create: (owner, settings) => new SessionStreams(owner, settings) };
}

export class SessionStreams implements StreamReconnects {
  readonly #owner: StreamOwner;
  readonly #reconnection: ReconnectionOptions;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #serverRetryMs: number | undefined;
  #standaloneOpen = false;
  readonly #standaloneWanted: boolean;

  constructor(owner: StreamOwner, settings: SessionStreamsSettings) {
    this.#owner = owner;
    this.#reconnection = { ...DEFAULT_RECONNECTION, ...settings.reconnection };
    this.#standaloneWanted = settings.openSseStream !== false;
  }

  /** Opens the session's standalone GET stream, unless it is open already (or not wanted). */
  openStandalone(): void {
    if (!this.#standaloneWanted || this.#standaloneOpen || this.#owner.closed()) return;
    this.#standaloneOpen = true;
    void this.#openGet({ attempt: 0, kind: 'standalone' });
  }

  /** Re-opens a stream from an event id (GET with Last-Event-ID). */
  resume(lastEventId: string, onresumptiontoken?: (token: string) => void, replayId?: RequestId): void {
    void this.#openGet({ lastEventId, attempt: 0, onresumptiontoken, replayId, kind: 'resume' });
  }

  /** A POST was accepted: once it carried `notifications/initialized`, the session's stream opens. */
  posted(messages: WireMessage[]): void {
    if (messages.some((m) => 'method' in m && m.method === 'notifications/initialized')) this.openStandalone();
  }

  /** Stops pending reconnections (the transport aborts the streams themselves). */
  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  retry(ms: number): void {
    this.#serverRetryMs = ms;
  }

  /**
   * A stream ended early. Reconnect: the standalone stream always; a request's stream only if the server gave
   * it an event id to resume from. Resolves when the request's answers arrived on a resumed stream, or to the
   * error its calls fail with when they never will.
   */
  ended(state: StreamState): Promise<LocalError | undefined> {
    if (state.kind === 'standalone') {
      this.#scheduleReconnect(state, state.attempt ?? 0);
      return Promise.resolve(undefined); // nobody waits on it: no chain of promises across reconnections
    }
    if (state.lastEventId === undefined)
      return Promise.resolve(streamLost('the server gave no event id to resume from'));
    return new Promise((settle) => {
      const kind = state.kind === 'post' ? 'resume' : state.kind;
      this.#scheduleReconnect({ ...state, kind, settle }, state.attempt ?? 0);
    });
  }

  /** GET: the standalone stream, or resumption of any stream with Last-Event-ID. */
  async #openGet(state: StreamState & { attempt: number }): Promise<void> {
    const owner = this.#owner;
    const signal = owner.signal();
    if (owner.closed() || signal === undefined) return state.settle?.(undefined);
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
        return state.settle?.(streamLost(`resuming it was refused with HTTP ${response.status}`));
      }
      this.#scheduleReconnect(state, state.attempt + 1);
      return;
    }
    void readSse(response, { ...state }, owner, this).then(state.settle);
  }

  #scheduleReconnect(state: StreamState, attempt: number): void {
    if (this.#owner.closed()) return;
    if (attempt >= this.#reconnection.maxRetries) {
      if (state.kind === 'standalone') this.#standaloneOpen = false;
      this.#owner.error(new Error(`Giving up reconnecting the SSE stream after ${attempt} attempts`));
      return state.settle?.(streamLost(`not resumed after ${attempt} attempts`));
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
