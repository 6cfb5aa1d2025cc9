/**
 * Event stores for Streamable HTTP resumability. Browser-safe (no `node:` imports), though only the server
 * uses them.
 */
import type { JsonRpcFrame } from '../core/transport.js';

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

  private readonly maxEventsPerStream: number;

  /** Streams currently held (for leak checks). */
  get streamCount(): number {
    return this.streams.size;
  }

  constructor(maxEventsPerStream: number = 1000) {
    this.maxEventsPerStream = maxEventsPerStream;
  }

  storeEvent(streamId: string, message: JsonRpcFrame | null): string {
    const id = `${streamId}.${++this.counter}`;
    let events = this.streams.get(streamId);
    if (!events) this.streams.set(streamId, (events = []));
    events.push({ id, message });
    this.streamOfEvent.set(id, streamId);
    for (const dropped of events.splice(0, Math.max(0, events.length - this.maxEventsPerStream)))
      this.streamOfEvent.delete(dropped.id);
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
