/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * One session's link to its cluster (see cluster.ts): the ids that name this node, where the client's
 * messages that are not this node's go, and the session record kept current in the shared store. Node only;
 * internal.
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { SessionRecord } from '../../../cluster/state.js';
import { parseBusMessage, type Cluster } from './cluster.js';
import { resumeFromElsewhere } from './cluster-resume.js';
import { isResponse, type WireMessage } from '../common.js';
import type { SessionLink } from './session-link.js';
import { isPlainObject, type RequestId } from '../../../core/jsonrpc.js';
import type { SessionInfo } from '../../../peer/server-base.js';

/** The requests whose answers change a session's record. */
const WATCHED = new Set(['initialize', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

/** A request id on the wire that names the node which sent it: `<node>~n<number>` or `<node>~s<string>`. */
export function wireId(node: string, id: RequestId): string {
  return `${node}~${typeof id === 'number' ? 'n' : 's'}${id}`;
}

/** The node and own id a wire id names, or undefined for an id that names none. */
export function parseWireId(id: unknown): { node: string; id: RequestId } | undefined {
  const match = typeof id === 'string' ? /^([\w-]+)~([ns])([\s\S]*)$/.exec(id) : null;
  if (match === null) return undefined;
  const [, node = '', kind, rest = ''] = match;
  return { node, id: kind === 'n' ? Number(rest) : rest };
}

/** An unsubscription that fails (the bus is down) leaves nothing to do. */
const ignore = (): void => undefined;

const isId = (id: unknown): id is RequestId => typeof id === 'string' || typeof id === 'number';

export class NodeLink implements SessionLink {
  readonly standaloneId: string;
  /** The object the server keeps the session's facts in (`server.connect(transport, facts)`). */
  readonly facts: Partial<SessionInfo>;
  readonly #cluster: Cluster;
  readonly #sessionId: string;
  readonly #clientKey: string;
  readonly #owner: string | undefined;
  #subscriptions: Set<string>;
  /** Requests whose answer changes the record, by key, with the log level before them (see `answering`). */
  readonly #watched = new Map<string, { method: string; params: Record<string, unknown>; logLevel?: string }>();
  /** The record is in the store (restored, or stored at initialize): its expiry can be pushed on. */
  #stored: boolean;
  #touchedAt = Date.now();

  /** `opener`: the client (`clientKey`) and identity (with `auth`) that opened the session. */
  constructor(
    cluster: Cluster,
    sessionId: string,
    opener: { client: string; owner: string | undefined },
    restored?: SessionRecord,
  ) {
    this.#cluster = cluster;
    this.#sessionId = sessionId;
    this.#clientKey = opener.client;
    this.#owner = opener.owner;
    // The same on every node, yet no event id (logged as `Last-Event-ID`) carries the session id, a credential.
    this.standaloneId = `${createHash('sha256').update(sessionId).digest('base64url')}~get`;
    this.#subscriptions = new Set(restored?.subscriptions);
    this.#stored = restored !== undefined;
    this.facts =
      restored === undefined
        ? {}
        : {
            protocolVersion: restored.protocolVersion,
            clientInfo: restored.clientInfo,
            clientCapabilities: restored.clientCapabilities,
            logLevel: restored.logLevel,
          };
  }

  channelId(requestIds: readonly RequestId[]): string {
    const ids = JSON.stringify(requestIds);
    const named = ids.length <= 256 ? Buffer.from(ids).toString('base64url') : '';
    return `${this.#cluster.nodeId}~${named}~${globalThis.crypto.randomUUID()}`;
  }

  outgoing(message: WireMessage): WireMessage {
    if (!('method' in message)) return message;
    const node = this.#cluster.nodeId;
    if ('id' in message && isId(message.id)) return { ...message, id: wireId(node, message.id) };
    const params = (message as { params?: unknown }).params;
    if (message.method === 'notifications/cancelled' && isPlainObject(params) && isId(params['requestId'])) {
      return { ...message, params: { ...params, requestId: wireId(node, params['requestId']) } } as WireMessage;
    }
    return message;
  }

  incoming(message: WireMessage, runsHere: (requestId: unknown) => boolean): WireMessage | undefined {
    if (isResponse(message)) {
      const target = parseWireId(message.id);
      if (target === undefined) return message;
      if (target.node === this.#cluster.nodeId) return { ...message, id: target.id } as WireMessage;
      void this.#cluster.publish(`node:${target.node}`, { t: 'msg', s: this.#sessionId, m: message });
      return undefined;
    }
    const params = (message as { params?: unknown }).params;
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
      if (isPlainObject(params) && !runsHere(params['requestId'])) {
        void this.#cluster.publish('all', { t: 'cancel', s: this.#sessionId, m: message });
        return undefined;
      }
    }
    return message;
  }

  watch(request: WireMessage & { id: RequestId; method: string }, key: string): void {
    if (!WATCHED.has(request.method)) return;
    const params = (request as { params?: unknown }).params;
    const watched = { method: request.method, params: isPlainObject(params) ? params : {} };
    this.#watched.set(key, {
      ...watched,
      ...(this.facts.logLevel === undefined ? {} : { logLevel: this.facts.logLevel }),
    });
  }

  answering(key: string, response: WireMessage): Promise<WireMessage> | undefined {
    const watched = this.#watched.get(key);
    if (watched === undefined) return undefined;
    this.#watched.delete(key);
    if (!('result' in response) || !isPlainObject(response.result)) return undefined;
    // The session changes only once the store holds the change: a failed write leaves it as it was (the server
    // set the level as it answered; it is put back).
    const change = changeOf(watched.method, watched.params, response.result);
    const record = this.#record(change);
    if (record === undefined) return undefined;
    return this.#cluster.settings.sessionStore.put(record).then(
      async () => {
        this.#stored = true;
        Object.assign(this.facts, change.facts);
        if (change.subscribe !== undefined) this.#subscriptions.add(change.subscribe);
        if (change.unsubscribe !== undefined) this.#subscriptions.delete(change.unsubscribe);
        if (watched.method === 'logging/setLevel') {
          await this.#cluster.publish('all', { t: 'facts', s: this.#sessionId, logLevel: this.facts.logLevel });
        }
        return response;
      },
      (error: unknown) => {
        if (change.facts.logLevel !== undefined && this.facts.logLevel === change.facts.logLevel) {
          this.facts.logLevel = watched.logLevel;
        }
        const message = `Internal error: the session could not be stored (${String(error)})`;
        return { jsonrpc: '2.0', id: (response as { id: RequestId }).id, error: { code: -32603, message } };
      },
    );
  }

  /** The session's record as it stands, with `change` applied when given. */
  #record(change?: SessionChange): SessionRecord | undefined {
    const { protocolVersion, clientCapabilities, clientInfo, logLevel } = { ...this.facts, ...change?.facts };
    if (protocolVersion === undefined) return undefined;
    const expiresAt = Date.now() + this.#cluster.settings.idleTimeoutMs;
    const subscriptions = new Set(this.#subscriptions);
    if (change?.subscribe !== undefined) subscriptions.add(change.subscribe);
    if (change?.unsubscribe !== undefined) subscriptions.delete(change.unsubscribe);
    return {
      id: this.#sessionId,
      protocolVersion,
      clientCapabilities,
      clientInfo,
      logLevel,
      subscriptions: [...subscriptions],
      ...{ clientKey: this.#clientKey, expiresAt },
      ...(this.#owner === undefined ? {} : { owner: this.#owner }),
    };
  }

  /** The store lost the record of this live session (Redis restarted empty): written back; false if it cannot be. */
  async keep(): Promise<boolean> {
    const record = this.#record();
    if (record === undefined) return false;
    try {
      await this.#cluster.settings.sessionStore.put(record);
    } catch (error) {
      this.#cluster.settings.log(`mcp cluster: could not write session ${this.#sessionId} back: ${String(error)}`);
      return false;
    }
    this.#stored = true;
    this.#touchedAt = Date.now();
    return true;
  }

  relay(channelId: string, eventId: string | undefined, text: string): void {
    void this.#cluster.publish(`stream:${channelId}`, { t: 'ev', id: eventId, text });
  }

  finished(channelId: string): void {
    void this.#cluster.publish(`stream:${channelId}`, { t: 'done' });
  }

  listen(
    channelId: string,
    write: (eventId: string | undefined, text: string) => void,
  ): { stop: () => void; ready: Promise<void> } {
    let stop: (() => Promise<void>) | undefined;
    let stopped = false;
    const { bus, log } = this.#cluster.settings;
    const ready = bus
      .subscribe(`stream:${channelId}`, (raw) => {
        const message = parseBusMessage(raw);
        if (message?.t === 'ev') write(typeof message.id === 'string' ? message.id : undefined, message.text);
        // Another node took the stream's client over: this node lets it go, and says so.
        else if (message?.t === 'yield' && message.to !== this.#cluster.nodeId) {
          this.#cluster.settings.local(this.#sessionId)?.yieldStream(channelId);
          void this.#cluster.publish(`node:${message.to}`, { t: 'taken', x: channelId, running: false });
        }
      })
      .then(
        (unsubscribe) => (stopped ? void unsubscribe().catch(ignore) : (stop = unsubscribe)),
        (error: unknown) => log(`mcp cluster: could not listen on stream ${channelId}: ${String(error)}`),
      );
    const end = (): void => {
      stopped = true;
      void stop?.().catch(ignore);
    };
    return { stop: end, ready: ready.then(() => undefined) };
  }

  takeOver(channelId: string): Promise<void> {
    return this.#cluster.takeStandalone(channelId);
  }

  resumeElsewhere(res: ServerResponse, lastEventId: string, streamId: string): Promise<void> {
    return resumeFromElsewhere(this.#cluster, res, { sessionId: this.#sessionId, lastEventId, streamId });
  }

  touched(): void {
    const { idleTimeoutMs, sessionStore, log } = this.#cluster.settings;
    const now = Date.now();
    if (!this.#stored || now - this.#touchedAt < idleTimeoutMs / 4) return;
    this.#touchedAt = now;
    // No record while the session is live here: the store lost it (a DELETE ends the session by the bus).
    sessionStore.touch(this.#sessionId, now + idleTimeoutMs).then(
      (alive) => (alive ? undefined : void this.keep()),
      (error: unknown) => log(`mcp cluster: could not refresh session ${this.#sessionId}: ${String(error)}`),
    );
  }

  forgotten(): void {
    this.#cluster.forgotten(this.#sessionId);
  }
}

/** What an answered request changes of a session: facts, and a subscription added or removed. */
interface SessionChange {
  facts: Partial<SessionInfo>;
  subscribe?: string | undefined;
  unsubscribe?: string | undefined;
}

/** What an answered request changed of the session (applied once stored). */
function changeOf(method: string, params: Record<string, unknown>, result: Record<string, unknown>): SessionChange {
  const uri = typeof params['uri'] === 'string' ? params['uri'] : undefined;
  if (method === 'initialize') {
    const facts: Partial<SessionInfo> = {};
    if (typeof result['protocolVersion'] === 'string') facts.protocolVersion = result['protocolVersion'];
    if (isPlainObject(params['clientInfo'])) facts.clientInfo = params['clientInfo'] as SessionInfo['clientInfo'];
    if (isPlainObject(params['capabilities'])) facts.clientCapabilities = params['capabilities'];
    return { facts };
  }
  if (method === 'logging/setLevel' && typeof params['level'] === 'string')
    return { facts: { logLevel: params['level'] } };
  if (method === 'resources/subscribe') return { facts: {}, subscribe: uri };
  if (method === 'resources/unsubscribe') return { facts: {}, unsubscribe: uri };
  return { facts: {} };
}
