/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * A Streamable HTTP endpoint as one node of several serving the same sessions (2025-03-26 … 2025-11-25)
 * behind a load balancer, without affinity: any node serves any request.
 *
 * - A session opened on another node is restored from the shared SessionStore (session-store.ts adopts
 *   it; the server serves it as initialized). What an answer changes of a session (initialize,
 *   logging/setLevel, resources/subscribe) is stored before the answer leaves.
 * - Requests this node sends a client carry ids that name the node (`<node>~n<id>`): the client's answer,
 *   POSTed to any node, is forwarded on the bus to `node:<node>`.
 * - An event of a stream whose client is not connected here (the standalone stream is one per session, with
 *   the same id everywhere) is published on `stream:<id>`, where the node holding the client listens.
 * - A `Last-Event-ID` of a stream held elsewhere: this node takes the client over (`take`), replays the shared
 *   event store and relays the rest; when the owner is gone (nobody listens on its channel), its requests are
 *   answered with an error — their handlers died with it.
 * - `notifications/cancelled` and the end of a session (DELETE, expiry) go to every node (`all`).
 *
 * Node only; internal to endpoint.ts.
 */
import type { MessageBus, SessionRecord, SessionStore } from '../../../cluster/state.js';
import type { EventStore } from '../../../cluster/event-store.js';
import type { WireMessage } from '../common.js';
import type { StreamableHttpServerTransport } from './session.js';
import { isPlainObject } from '../../../core/jsonrpc.js';

/** What travels on the bus, by kind (`t`). */
export type BusMessage =
  | { t: 'msg'; s: string; m: WireMessage }
  | { t: 'cancel'; s: string; m: WireMessage }
  | { t: 'end'; s: string }
  | { t: 'facts'; s: string; logLevel?: string | undefined }
  | { t: 'take'; s: string; x: string; to: string }
  | { t: 'taken'; x: string; running: boolean }
  | { t: 'ev'; id?: string | undefined; text: string }
  | { t: 'done' }
  /** On `stream:<x>` (a standalone stream): whoever holds it lets it go, and answers `taken` to `to`. */
  | { t: 'yield'; x: string; to: string }
  /** The store lost session `s`: a node holding it live writes it back, and answers `kept` to `to`. */
  | { t: 'lost'; s: string; to: string }
  | { t: 'kept'; s: string; held: boolean };

/** The string fields each kind must have (what a node reads of a message before trusting it). */
const FIELDS: { readonly [T in BusMessage['t']]: readonly string[] } = {
  msg: ['s'],
  cancel: ['s'],
  end: ['s'],
  facts: ['s'],
  take: ['s', 'x', 'to'],
  taken: ['x'],
  ev: ['text'],
  done: [],
  yield: ['x', 'to'],
  lost: ['s', 'to'],
  kept: ['s'],
};

/**
 * A bus message, or undefined for one that is not JSON or not of a known kind with its fields (a node of
 * another version, another program on the same channels): such a message is dropped, never thrown on.
 */
export function parseBusMessage(raw: string): BusMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isPlainObject(value) || typeof value['t'] !== 'string' || !Object.hasOwn(FIELDS, value['t'])) return undefined;
  const kind = value['t'] as BusMessage['t'];
  if (!FIELDS[kind].every((field) => typeof value[field] === 'string')) return undefined;
  if ((kind === 'msg' || kind === 'cancel') && !isPlainObject(value['m'])) return undefined;
  return value as BusMessage;
}

export interface ClusterSettings {
  sessionStore: SessionStore;
  bus: MessageBus;
  /** Shared by every node, or no resumption on another node. */
  eventStore: EventStore | undefined;
  /** This node's name on the bus: letters, digits, `_` and `-`. */
  nodeId: string;
  idleTimeoutMs: number;
  /** The session this node holds, by id. */
  local(id: string): StreamableHttpServerTransport | undefined;
  log(message: string): void;
}

/** How long a node waits for a stream's owner to hand it over before treating the owner as gone. */
const TAKE_TIMEOUT_MS = 2000;

export class Cluster {
  readonly settings: ClusterSettings;
  #ready: Promise<void> | undefined;
  #unsubscribe: Array<() => Promise<void>> = [];
  #closing = false;
  /** Sessions being ended by a DELETE or by another node's word: nobody else needs telling. */
  readonly #ending = new Set<string>();
  /** Hand-overs this node waits for, by stream id. */
  readonly #takes = new Map<string, (running: boolean) => void>();
  /** Answers this node waits for about sessions the store lost, by session id. */
  readonly #asks = new Map<string, (held: boolean) => void>();

  constructor(settings: ClusterSettings) {
    if (!/^[\w-]+$/.test(settings.nodeId)) throw new Error(`Invalid nodeId: ${JSON.stringify(settings.nodeId)}`);
    this.settings = settings;
  }

  get nodeId(): string {
    return this.settings.nodeId;
  }

  /** Subscribed to this node's channel and to `all`; a failed attempt is tried again by the next caller. */
  ready(): Promise<void> {
    this.#ready ??= this.#subscribe().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  /** Both subscriptions, or neither: one that succeeded beside one that failed is undone (else, on retry, twice). */
  async #subscribe(): Promise<void> {
    const listener = (raw: string): void => this.#received(raw);
    const settled = await Promise.allSettled([
      this.settings.bus.subscribe(`node:${this.nodeId}`, listener),
      this.settings.bus.subscribe('all', listener),
    ]);
    const stops = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed !== undefined || this.#closing) {
      await Promise.allSettled(stops.map((stop) => stop()));
      if (failed !== undefined) throw failed.reason;
    }
    this.#unsubscribe = stops;
  }

  record(id: string): Promise<SessionRecord | undefined> {
    return this.settings.sessionStore.get(id);
  }

  /** A DELETE: the session ends here (the caller closes it), in the store, and on every other node. */
  async deleted(id: string): Promise<void> {
    this.#ending.add(id);
    await this.settings.sessionStore.delete(id);
    await this.publish('all', { t: 'end', s: id });
  }

  /** This node closes: it stops listening, and its sessions end here only (they live on elsewhere). */
  async close(): Promise<void> {
    this.#closing = true;
    await Promise.allSettled(this.#unsubscribe.map((stop) => stop()));
  }

  /** A session this node no longer holds: if the store forgot it too, it expired, and ends everywhere. */
  forgotten(id: string): void {
    if (this.#ending.delete(id) || this.#closing) return;
    this.settings.sessionStore.get(id).then(
      (record) => (record === undefined ? this.publish('all', { t: 'end', s: id }) : undefined),
      (error: unknown) => this.settings.log(`mcp cluster: could not check session ${id}: ${String(error)}`),
    );
  }

  /** The store says the session is gone: this node's copy ends without telling anyone. */
  endHere(id: string): void {
    const local = this.settings.local(id);
    if (local === undefined) return;
    this.#ending.add(id);
    void local.close();
  }

  publish(channel: string, message: BusMessage): Promise<number> {
    return this.settings.bus.publish(channel, JSON.stringify(message)).catch((error: unknown) => {
      this.settings.log(`mcp cluster: could not publish on ${channel}: ${String(error)}`);
      return 0;
    });
  }

  /** Resolves once the owner of `streamId` handed it over (true: its requests still run), or false if gone. */
  async take(sessionId: string, streamId: string, owner: string): Promise<boolean> {
    const answered = this.#answers(this.#takes, streamId, 1, (running) => running);
    const heard = await this.publish(`node:${owner}`, { t: 'take', s: sessionId, x: streamId, to: this.nodeId });
    return answered.settle(heard > 0 ? 1 : 0);
  }

  /**
   * A standalone stream resumed here: every other node listening on it (one whose client connection died
   * silently keeps writing to it) lets it go, and from its answer on relays what it sends the session here.
   */
  async takeStandalone(streamId: string): Promise<void> {
    const answered = this.#answers(this.#takes, streamId, Infinity, () => false);
    // This node listens on the stream itself: the others are those heard beyond it.
    const heard = await this.publish(`stream:${streamId}`, { t: 'yield', x: streamId, to: this.nodeId });
    await answered.settle(heard - 1);
  }

  /**
   * The store has no record of session `id`: asks the other nodes whether one holds it live (it then writes
   * the record back, see NodeLink.keep). True once one says so.
   */
  async askAround(id: string): Promise<boolean> {
    // Every other node answers; one that holds the session is enough, whichever answers first.
    const answered = this.#answers(this.#asks, id, Infinity, (held) => held);
    const heard = await this.publish('all', { t: 'lost', s: id, to: this.nodeId });
    return answered.settle(heard - 1);
  }

  /**
   * Waits, up to TAKE_TIMEOUT_MS, for `count` answers under `key` in `waits` (fewer once `settle(n)` says how
   * many may come): true as soon as one answer passes `enough`, false when none did.
   */
  #answers<T>(
    waits: Map<string, (answer: T) => void>,
    key: string,
    count: number,
    enough: (answer: T) => boolean,
  ): { settle: (expected: number) => Promise<boolean> } {
    let expected = count;
    let got = 0;
    let done: (result: boolean) => void = () => undefined;
    const result = new Promise<boolean>((resolve) => (done = resolve));
    const timer = setTimeout(() => done(false), TAKE_TIMEOUT_MS);
    timer.unref?.();
    const heard = (answer: T): void => (enough(answer) ? done(true) : void (++got >= expected && done(false)));
    waits.set(key, heard);
    void result.then(() => {
      clearTimeout(timer);
      if (waits.get(key) === heard) waits.delete(key);
    });
    return {
      settle: (n) => {
        expected = Math.min(expected, n);
        if (got >= expected) done(false);
        return result;
      },
    };
  }

  #received(raw: string): void {
    const message = parseBusMessage(raw);
    if (message === undefined) return this.settings.log(`mcp cluster: an unreadable bus message: ${raw.slice(0, 80)}`);
    if (message.t === 'taken') return this.#takes.get(message.x)?.(message.running);
    if (message.t === 'kept') return this.#asks.get(message.s)?.(message.held);
    if (!('s' in message)) return;
    const local = this.settings.local(message.s);
    if (message.t === 'take' && local === undefined) {
      void this.publish(`node:${message.to}`, { t: 'taken', x: message.x, running: false });
    }
    if (message.t === 'lost') {
      if (message.to !== this.nodeId) void this.#keep(message.s, message.to, local);
      return;
    }
    if (local === undefined) return;
    switch (message.t) {
      case 'msg':
      case 'cancel':
        return local.deliverForwarded(message.m);
      case 'end':
        // A node that wrote the record back (a lost record, see #keep) as the session was deleted: gone again.
        void this.settings.sessionStore.delete(message.s).catch(() => undefined);
        return this.endHere(message.s);
      case 'facts':
        if (local.facts !== undefined) local.facts.logLevel = message.logLevel;
        return;
      case 'take': {
        const running = local.yieldStream(message.x);
        void this.publish(`node:${message.to}`, { t: 'taken', x: message.x, running });
      }
    }
  }

  /**
   * Another node found no record of a session: if this node holds it live, it writes the record back first,
   * then says it holds it (written or not: the asker then answers 503, try again, rather than 404).
   */
  async #keep(id: string, to: string, local: StreamableHttpServerTransport | undefined): Promise<void> {
    const held = local !== undefined && !local.isClosed;
    if (held) await local.writeBack();
    await this.publish(`node:${to}`, { t: 'kept', s: id, held });
  }
}
