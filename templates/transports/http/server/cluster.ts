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

/** What travels on the bus, by kind (`t`). */
export type BusMessage =
  | { t: 'msg'; s: string; m: WireMessage }
  | { t: 'cancel'; s: string; m: WireMessage }
  | { t: 'end'; s: string }
  | { t: 'facts'; s: string; logLevel?: string | undefined }
  | { t: 'take'; s: string; x: string; to: string }
  | { t: 'taken'; x: string; running: boolean }
  | { t: 'ev'; id?: string | undefined; text: string }
  | { t: 'done' };

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

  constructor(settings: ClusterSettings) {
    if (!/^[\w-]+$/.test(settings.nodeId)) throw new Error(`Invalid nodeId: ${JSON.stringify(settings.nodeId)}`);
    this.settings = settings;
  }

  get nodeId(): string {
    return this.settings.nodeId;
  }

  /** Subscribed to this node's channel and to `all`; a failed attempt is tried again by the next caller. */
  ready(): Promise<void> {
    this.#ready ??= Promise.all([
      this.settings.bus.subscribe(`node:${this.nodeId}`, (raw) => this.#received(raw)),
      this.settings.bus.subscribe('all', (raw) => this.#received(raw)),
    ]).then(
      (stops) => void (this.#unsubscribe = stops),
      (error: unknown) => {
        this.#ready = undefined;
        throw error;
      },
    );
    return this.#ready;
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
    const answered = new Promise<boolean>((resolve) => {
      this.#takes.set(streamId, resolve);
      setTimeout(() => resolve(false), TAKE_TIMEOUT_MS).unref?.();
    });
    const heard = await this.publish(`node:${owner}`, { t: 'take', s: sessionId, x: streamId, to: this.nodeId });
    const running = heard > 0 && (await answered);
    this.#takes.delete(streamId);
    return running;
  }

  #received(raw: string): void {
    let message: BusMessage;
    try {
      message = JSON.parse(raw) as BusMessage;
    } catch {
      return this.settings.log(`mcp cluster: an unreadable bus message: ${raw.slice(0, 80)}`);
    }
    if (message.t === 'taken') return this.#takes.get(message.x)?.(message.running);
    if (!('s' in message)) return;
    const local = this.settings.local(message.s);
    if (message.t === 'take' && local === undefined) {
      void this.publish(`node:${message.to}`, { t: 'taken', x: message.x, running: false });
    }
    if (local === undefined) return;
    switch (message.t) {
      case 'msg':
      case 'cancel':
        return local.deliverForwarded(message.m);
      case 'end':
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
}
