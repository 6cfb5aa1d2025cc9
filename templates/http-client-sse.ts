/**
 * Reading one `text/event-stream` response of the Streamable HTTP client (http-client.ts): a POST's answer, or,
 * with the opt-in session streams (`streams: sessionStreams()`, http-client-streams.ts), the standalone GET
 * stream and resumed streams. When a stream ends early, the session streams decide whether to reconnect;
 * without them a POST's stream is read once.
 *
 * Hand-written runtime copied unchanged into generated output (as `runtime/http-client-sse.ts`). Browser-safe.
 */
import { isResponse, key } from './http-common.js';
import { ErrorCode, LocalError } from './jsonrpc.js';
import { describe } from './peer-messages.js';
import type { RequestId } from './jsonrpc.js';
import { SseParser, type SseEvent } from './sse.js';

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
  /**
   * POST streams and their resumptions: called once the stream has delivered what it owed (no argument), or
   * when it never will (the error the waiting calls fail with).
   */
  settle?: (lost?: LocalError) => void;
}

/** What the calls of a stream that ended before their answers fail with, at once rather than at their timeout. */
export function streamLost(why: string): LocalError {
  return new LocalError(ErrorCode.ConnectionClosed, `The response stream ended before the answer: ${why}`);
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

/** The session streams as the reader reports to them (http-client-streams.ts). */
export interface StreamReconnects {
  /** The server's `retry:` field, in milliseconds. */
  retry(ms: number): void;
  /** A stream ended (not on purpose): reconnect when it is due. `answered`: it delivered everything it owed. */
  ended(state: StreamState, answered: boolean): void;
}

/** Reads an SSE response to its end (or until it has delivered every answer it owes), then reports how it ended. */
export async function readSse(
  response: Response,
  state: StreamState,
  owner: StreamOwner,
  streams: StreamReconnects | undefined,
): Promise<void> {
  const body = response.body;
  if (!body) return;
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
  if (owner.closed() || state.signal?.aborted || progress.answered) return state.settle?.();
  if (failure !== undefined)
    owner.error(new Error(`SSE stream disconnected: ${describe(failure)}`, { cause: failure }));
  if (streams) streams.ended(state, false);
  else state.settle?.(streamLost('not resumable'));
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
    else if (m.id !== undefined && m.id !== null) state.pending.delete(key(m.id));
  }
  if (state.pending && state.pending.size === 0) progress.answered = true;
}
