/**
 * The state a Streamable HTTP endpoint shares with the other processes ("nodes") serving the same MCP server
 * behind a load balancer: a session store (what a node needs to serve a session it did not open) and a
 * message bus (what one node tells another). With neither, an endpoint keeps its sessions to itself, as a
 * single process does. The event store (event-store.ts) is the third piece: shared, it lets any node resume
 * any stream.
 *
 * Small on purpose, so that each is easy to implement on another store: `@mcp-typegen/runtime/redis` has the
 * Redis ones; the in-memory ones here share state between endpoints of one process (tests, or several
 * listeners in one program). No `node:` imports.
 */

/** What a node must know of a session (2025-03-26 … 2025-11-25) to serve it without a second `initialize`. */
export interface SessionRecord {
  /** The `Mcp-Session-Id`. */
  readonly id: string;
  /** The version agreed at `initialize`. */
  readonly protocolVersion: string;
  /** The client's `initialize` params: its capabilities and implementation. */
  readonly clientCapabilities?: { [key: string]: unknown } | undefined;
  readonly clientInfo?: { name: string; version: string; [key: string]: unknown } | undefined;
  /** The level of the client's last `logging/setLevel`. */
  readonly logLevel?: string | undefined;
  /** The resource URIs the client subscribed to (`resources/subscribe`, minus `resources/unsubscribe`). */
  readonly subscriptions: readonly string[];
  /** Who opened it (the endpoint's `clientKey`), for the per-client cap. */
  readonly clientKey: string;
  /**
   * The identity that opened it, when the endpoint has `auth`: a hash of the token's issuer, subject and
   * client. A request of any other identity is answered 404 on every node.
   */
  readonly owner?: string | undefined;
  /** When it expires without activity (ms since the epoch); the store forgets it then. */
  readonly expiresAt: number;
}

/**
 * Where the sessions of a cluster live. Every method may reject (the store is down): the endpoint then
 * answers the request it was serving with 503, and serves on once the store answers again.
 */
export interface SessionStore {
  get(id: string): Promise<SessionRecord | undefined>;
  /** Stores (or replaces) a record; it expires at `record.expiresAt`. */
  put(record: SessionRecord): Promise<void>;
  /** Pushes a record's expiry to `expiresAt`; false when there is no such record (it expired or was deleted). */
  touch(id: string, expiresAt: number): Promise<boolean>;
  delete(id: string): Promise<void>;
}

/**
 * Publish/subscribe between the nodes of a cluster. A message reaches the subscribers of its channel on every
 * node, in the order each publisher sent them; nothing is kept for a subscriber that comes later.
 */
export interface MessageBus {
  /** Resolves to how many subscribers (over every node) received it: 0 means none is listening. */
  publish(channel: string, message: string): Promise<number>;
  /** Resolves once subscribed; the function it resolves to unsubscribes. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
}

/** A SessionStore in this process's memory: endpoints of one process share sessions through it. */
export class InMemorySessionStore implements SessionStore {
  readonly #records = new Map<string, SessionRecord>();

  async get(id: string): Promise<SessionRecord | undefined> {
    const record = this.#records.get(id);
    if (record !== undefined && record.expiresAt <= Date.now()) this.#records.delete(id);
    return this.#records.get(id);
  }

  async put(record: SessionRecord): Promise<void> {
    this.#records.set(record.id, { ...record, subscriptions: [...record.subscriptions] });
  }

  async touch(id: string, expiresAt: number): Promise<boolean> {
    const record = await this.get(id);
    if (record === undefined) return false;
    this.#records.set(id, { ...record, expiresAt });
    return true;
  }

  async delete(id: string): Promise<void> {
    this.#records.delete(id);
  }

  /** Records held, expired ones included until next read (for leak checks). */
  get size(): number {
    return this.#records.size;
  }
}

/** A MessageBus in this process's memory; delivery is asynchronous, as over a network. */
export class InMemoryMessageBus implements MessageBus {
  readonly #channels = new Map<string, Set<(message: string) => void>>();

  async publish(channel: string, message: string): Promise<number> {
    const listeners = [...(this.#channels.get(channel) ?? [])];
    for (const listener of listeners) queueMicrotask(() => listener(message));
    return listeners.length;
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    const own = (message: string): void => listener(message);
    let listeners = this.#channels.get(channel);
    if (listeners === undefined) this.#channels.set(channel, (listeners = new Set()));
    listeners.add(own);
    return async () => {
      listeners.delete(own);
      if (listeners.size === 0 && this.#channels.get(channel) === listeners) this.#channels.delete(channel);
    };
  }

  /** Channels with a subscriber (for leak checks). */
  get channelCount(): number {
    return this.#channels.size;
  }
}
