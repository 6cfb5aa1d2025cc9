/**
 * The priming events of a session's POST streams (an event id with empty data: what a client cut off before the
 * first event resumes from), written one turn of the event loop late: a call answered by then has its answer
 * as the stream's first and last event, so its priming event is never written nor stored. Anything sent
 * before the turn ends, or the stream closed for polling, writes it first. Nor is such a last event stored
 * (`unstored`). Node only, like the sessions.
 */
import { formatSseEvent } from '../sse.js';
import { storeEvent, type Channel, type SessionConfig } from './response-channel.js';

/** Versions from which clients understand priming events (an id with empty data). */
const PRIMING_SINCE = '2025-11-25';

/** Stores and writes a stream's priming event, where events are stored and the version has priming events. */
export async function writePrimingEvent(
  channel: Channel,
  config: Pick<SessionConfig, 'eventStore' | 'retryMs'>,
  version: string,
  onerror: Parameters<typeof storeEvent>[3],
): Promise<void> {
  if (!config.eventStore || version < PRIMING_SINCE || !channel.sink) return;
  const id = await storeEvent(config.eventStore, channel, null, onerror);
  if (id !== undefined) channel.sink?.res.write(formatSseEvent({ id, data: '', retry: config.retryMs }));
}

export class PrimingEvents {
  /** Streams whose priming event is due (not yet written) or being written. */
  readonly #state = new Map<Channel, 'due' | Promise<void>>();
  readonly #write: (channel: Channel) => Promise<void>;

  constructor(write: (channel: Channel) => Promise<void>) {
    this.#write = write;
  }

  /** The standalone stream's priming event, at once. */
  now(channel: Channel): Promise<void> {
    return this.#write(channel);
  }

  /** A new POST stream: its priming event is written at the end of this turn unless it is no longer needed. */
  soon(channel: Channel): void {
    this.#state.set(channel, 'due');
    setImmediate(() => {
      if (this.#state.get(channel) === 'due') this.#state.set(channel, this.#write(channel));
    });
  }

  /**
   * Before an event is written to `channel`: the priming event first, if due; none at all when this event is
   * the stream's `only` one (its last, to a client connected here, before the priming event was written).
   */
  async before(channel: Channel, only: boolean): Promise<void> {
    const state = this.#state.get(channel);
    if (state === 'due' && only) {
      this.#state.delete(channel);
      return;
    }
    if (state === 'due') this.#state.set(channel, this.#write(channel));
    await this.#state.get(channel);
  }

  /** `action` once the priming event is written (at once when none is pending): ending a stream for polling. */
  then(channel: Channel, action: () => void): void {
    const state = this.#state.get(channel);
    if (state === undefined) return action();
    const written = state === 'due' ? this.#write(channel) : state;
    this.#state.set(
      channel,
      written.then(() => action()),
    );
  }

  forget(channel: Channel): void {
    this.#state.delete(channel);
  }

  clear(): void {
    this.#state.clear();
  }
}

/**
 * The last event of a POST stream whose client is connected here is not stored: the stream ends and its events
 * are dropped as soon as it is written (`endIfDone`), so a stored copy would never be read.
 */
export function unstored(channel: Channel, last: boolean): boolean {
  return last && channel.kind === 'post' && channel.sink !== undefined && channel.sink.queue === undefined;
}
