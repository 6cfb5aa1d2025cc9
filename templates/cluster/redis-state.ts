/**
 * The state a cluster of Streamable HTTP nodes shares, in Redis (`@mcp-typegen/runtime/redis`): session
 * records as strings with a TTL, SSE events in Redis Streams (trimmed per stream, with a TTL), and the message
 * bus on pub/sub over a second connection. Pass what `redisClusterState` returns to every node:
 *
 *     const client = createClient({ url, disableOfflineQueue: true }); // `redis` (node-redis) ≥ 6
 *     const subscriber = client.duplicate();
 *     await Promise.all([client.connect(), subscriber.connect()]);
 *     createStreamableHttpServer({ server, ...redisClusterState({ client, subscriber }) });
 *
 * The clients are of the peer dependency `redis`, made and connected by the caller (this module imports nothing
 * of it: the commands it uses are typed below). `disableOfflineQueue` makes a command fail at once while
 * Redis is down, so requests that need it are answered 503 instead of waiting; node-redis reconnects and
 * resubscribes by itself. No `node:` imports beyond what the clients bring.
 */
import type { MessageBus, SessionRecord, SessionStore } from './state.js';
import type { EventStore } from './event-store.js';
import type { JsonRpcFrame } from '../core/transport.js';

/** The commands these stores send, as a node-redis client (`redis` ≥ 6) types them. */
export interface RedisCommands {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options: { PX: number }): Promise<unknown>;
  pExpire(key: string, ms: number): Promise<number>;
  pTTL(key: string): Promise<number>;
  del(key: string): Promise<number>;
  publish(channel: string, message: string): Promise<number>;
  xAdd(
    key: string,
    id: string,
    message: Record<string, string>,
    options: { TRIM: { strategy: 'MAXLEN'; strategyModifier: '~'; threshold: number } },
  ): Promise<string>;
  xRange(
    key: string,
    start: string,
    end: string,
  ): Promise<Array<{ id: string; message: Record<string, string> }> | null>;
}

/** A node-redis connection in subscriber mode (`client.duplicate()`, connected). */
export interface RedisSubscriber {
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
}

export interface RedisClusterStateOptions {
  /** A connected client, for commands and publishing. */
  client: RedisCommands;
  /** A second connected client, for subscriptions only. */
  subscriber: RedisSubscriber;
  /** Prefix of every key and channel, so several servers can share one Redis. Default `mcp:`. */
  prefix?: string;
  /** Events kept per stream (approximately: `XADD … MAXLEN ~`). Default 1000. */
  maxEventsPerStream?: number;
  /** How long a stream's events are kept after its last event, in ms. Default 30 minutes. */
  eventTtlMs?: number;
}

/** The three pieces of a cluster's state, for `createStreamableHttpServer({ ...redisClusterState(…) })`. */
export function redisClusterState(options: RedisClusterStateOptions): {
  sessionStore: RedisSessionStore;
  bus: RedisMessageBus;
  eventStore: RedisEventStore;
} {
  return {
    sessionStore: new RedisSessionStore(options.client, options.prefix),
    bus: new RedisMessageBus(options.client, options.subscriber, options.prefix),
    eventStore: new RedisEventStore(options.client, options),
  };
}

/** Session records as JSON strings under `<prefix>session:<id>`, expiring when the record says. */
export class RedisSessionStore implements SessionStore {
  readonly #client: RedisCommands;
  readonly #prefix: string;

  constructor(client: RedisCommands, prefix = 'mcp:') {
    this.#client = client;
    this.#prefix = `${prefix}session:`;
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    // Sent in one go: the remaining TTL is the record's expiry (touch moves it without rewriting the record).
    const [text, ttl] = await Promise.all([this.#client.get(this.#prefix + id), this.#client.pTTL(this.#prefix + id)]);
    if (text === null) return undefined;
    const record = JSON.parse(text) as SessionRecord;
    return ttl > 0 ? { ...record, expiresAt: Date.now() + ttl } : record;
  }

  async put(record: SessionRecord): Promise<void> {
    const ttl = Math.max(1, Math.round(record.expiresAt - Date.now()));
    await this.#client.set(this.#prefix + record.id, JSON.stringify(record), { PX: ttl });
  }

  async touch(id: string, expiresAt: number): Promise<boolean> {
    return (await this.#client.pExpire(this.#prefix + id, Math.max(1, Math.round(expiresAt - Date.now())))) === 1;
  }

  async delete(id: string): Promise<void> {
    await this.#client.del(this.#prefix + id);
  }
}

/** The bus on Redis pub/sub: publishing on the command client, subscriptions on their own connection. */
export class RedisMessageBus implements MessageBus {
  readonly #client: RedisCommands;
  readonly #subscriber: RedisSubscriber;
  readonly #prefix: string;

  constructor(client: RedisCommands, subscriber: RedisSubscriber, prefix = 'mcp:') {
    this.#client = client;
    this.#subscriber = subscriber;
    this.#prefix = `${prefix}bus:`;
  }

  publish(channel: string, message: string): Promise<number> {
    return this.#client.publish(this.#prefix + channel, message);
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    const own = (message: string): void => listener(message);
    await this.#subscriber.subscribe(this.#prefix + channel, own);
    return async () => {
      await this.#subscriber.unsubscribe(this.#prefix + channel, own);
    };
  }
}

/**
 * SSE events in one Redis Stream per SSE stream (`<prefix>events:<stream id>`), trimmed to about
 * `maxEventsPerStream` and expiring `eventTtlMs` after the last event. An event's id is `<stream id>.<entry
 * id>`: the stream is read from the id itself, without a round trip.
 */
export class RedisEventStore implements EventStore {
  readonly #client: RedisCommands;
  readonly #prefix: string;
  readonly #max: number;
  readonly #ttlMs: number;

  constructor(client: RedisCommands, options: Omit<RedisClusterStateOptions, 'client' | 'subscriber'> = {}) {
    this.#client = client;
    this.#prefix = `${options.prefix ?? 'mcp:'}events:`;
    this.#max = options.maxEventsPerStream ?? 1000;
    this.#ttlMs = options.eventTtlMs ?? 30 * 60_000;
  }

  async storeEvent(streamId: string, message: JsonRpcFrame | null): Promise<string> {
    const key = this.#prefix + streamId;
    const trim = { TRIM: { strategy: 'MAXLEN', strategyModifier: '~', threshold: this.#max } } as const;
    // Sent in one go (node-redis pipelines the commands of one tick).
    const [entry] = await Promise.all([
      this.#client.xAdd(key, '*', { m: message === null ? '' : JSON.stringify(message) }, trim),
      this.#client.pExpire(key, this.#ttlMs),
    ]);
    return `${streamId}.${entry}`;
  }

  async replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcFrame) => void | Promise<void>,
  ): Promise<string | undefined> {
    const at = parseEventId(lastEventId);
    if (at === undefined) return undefined;
    const entries = (await this.#client.xRange(this.#prefix + at.streamId, at.entry, '+')) ?? [];
    // The first entry is the last one the client has; if it is gone (trimmed, expired), so is the stream's past.
    if (entries[0]?.id !== at.entry) return undefined;
    for (const { id, message } of entries.slice(1)) {
      const text = message['m'];
      if (text !== undefined && text !== '') await send(`${at.streamId}.${id}`, JSON.parse(text) as JsonRpcFrame);
    }
    return at.streamId;
  }

  getStreamIdForEventId(eventId: string): string | undefined {
    return parseEventId(eventId)?.streamId;
  }

  async deleteStream(streamId: string): Promise<void> {
    await this.#client.del(this.#prefix + streamId);
  }
}

/** `<stream id>.<entry id>` → its parts; undefined for an id this store did not make. */
function parseEventId(eventId: string): { streamId: string; entry: string } | undefined {
  const dot = eventId.lastIndexOf('.');
  const entry = eventId.slice(dot + 1);
  return dot > 0 && /^\d+-\d+$/.test(entry) ? { streamId: eventId.slice(0, dot), entry } : undefined;
}
