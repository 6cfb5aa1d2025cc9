/**
 * Reading one `text/event-stream` response of the Streamable HTTP client (transport.ts): a POST's answer, or,
 * with the opt-in session streams (`streams: sessionStreams()`, session-streams.ts), the standalone GET
 * stream and resumed streams. When a stream ends early, the session streams decide whether to reconnect;
 * without them a POST's stream is read once.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */
import { isResponse } from '../common.js';
import { ErrorCode, LocalError } from '../../../core/jsonrpc.js';
import { describe } from '../../../core/peer-messages.js';
import type { RequestId } from '../../../core/jsonrpc.js';
import { SseParser, type SseEvent } from '../sse.js';

/** One stream being read: what it is, where it stands, and what it still owes. */
export interface StreamState {
  kind: 'post' | 'standalone' | 'resume';
  lastEventId?: string;
  /** Ids of the requests whose answers this stream still owes (POST streams). */
  pending?: Set<RequestId>;
  replayId?: RequestId | undefined;
  onresumptiontoken?: ((token: string) => void) | undefined;
  attempt?: number;
  /** POST streams: aborted when the request is cancelled here. */
  signal?: AbortSignal;
  /** A resumed POST stream (session-streams.ts): told how it ended, as `readSse` returns it. */
  settle?: (lost: LocalError | undefined) => void;
}

/** What the calls of a stream that ended before their answers fail with, at once rather than at their timeout. */
export function streamLost(why: string): LocalError {
  return new LocalError(ErrorCode.ConnectionClosed, `Stream cut before the answer (${why})`);
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
  /** Hands a received value on (the engine checks that it is JSON-RPC). */
  receive(value: unknown, replayId: RequestId | undefined): void;
  error(error: Error): void;
}

/** The session streams as the reader reports to them (session-streams.ts). */
export interface StreamReconnects {
  /** The server's `retry:` field, in milliseconds. */
  retry(ms: number): void;
  /**
   * A stream ended before delivering what it owed (not on purpose): reconnect when it is due. For a POST's
   * stream, resolves as `readSse` does, once resumed streams delivered its answers or never will.
   */
  ended(state: StreamState): Promise<LocalError | undefined>;
}

/**
 * Reads an SSE response to its end (or until it has delivered every answer it owes). Resolves to the error the
 * calls still waiting for answers fail with when the stream was cut and not resumed (at once, not at their
 * timeout); to undefined when it delivered them, or ended on purpose.
 */
export async function readSse(
  response: Response,
  state: StreamState,
  owner: StreamOwner,
  streams: StreamReconnects | undefined,
): Promise<LocalError | undefined> {
  const body = response.body;
  if (!body) return undefined;
  const progress = { made: false, answered: false };
  const parser = new SseParser(
    (event) => onEvent(event, state, progress, owner),
    streams && ((ms) => streams.retry(ms)),
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
  // Closed, or the request was cancelled here: the stream ended on purpose. Or it delivered what it owed.
  if (owner.closed() || state.signal?.aborted || progress.answered) return undefined;
  if (failure !== undefined)
    owner.error(new Error(`SSE stream disconnected: ${describe(failure)}`, { cause: failure }));
  return streams ? streams.ended(state) : streamLost('not resumable');
}

function onEvent(
  event: SseEvent,
  state: StreamState,
  progress: { made: boolean; answered: boolean },
  owner: StreamOwner,
): void {
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
    owner.error(new Error(`Invalid JSON in SSE event: ${event.data.slice(0, 200)}`));
    return;
  }
  owner.receive(value, state.replayId);
  for (const m of Array.isArray(value) ? value : [value]) {
    if (!isResponse(m)) continue;
    if (!state.pending) progress.answered = true;
    else if (m.id !== undefined && m.id !== null) state.pending.delete(m.id);
  }
  if (state.pending && state.pending.size === 0) progress.answered = true;
}
