/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * One session's link to its cluster (see cluster.ts): the ids that name this node, where the client's
 * messages that are not this node's go, and the session record kept current in the shared store. Node only;
 * internal.
 */
import { Buffer } from 'node:buffer';
import type { ServerResponse } from 'node:http';
import type { SessionRecord } from '../../../cluster/state.js';
import type { Cluster } from './cluster.js';
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
  readonly #subscriptions: Set<string>;
  readonly #watched = new Map<string, { method: string; params: Record<string, unknown> }>();
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
    this.standaloneId = `${sessionId}~get`;
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
    this.#watched.set(key, { method: request.method, params: isPlainObject(params) ? params : {} });
  }

  answering(key: string, response: WireMessage): Promise<WireMessage> | undefined {
    const watched = this.#watched.get(key);
    if (watched === undefined) return undefined;
    this.#watched.delete(key);
    if (!('result' in response) || !isPlainObject(response.result)) return undefined;
    this.#apply(watched.method, watched.params, response.result);
    const record = this.#record();
    if (record === undefined) return undefined;
    return this.#cluster.settings.sessionStore.put(record).then(
      async () => {
        this.#stored = true;
        if (watched.method === 'logging/setLevel') {
          await this.#cluster.publish('all', { t: 'facts', s: this.#sessionId, logLevel: this.facts.logLevel });
        }
        return response;
      },
      (error: unknown) => {
        const message = `Internal error: the session could not be stored (${String(error)})`;
        return { jsonrpc: '2.0', id: (response as { id: RequestId }).id, error: { code: -32603, message } };
      },
    );
  }

  /** What an answered request changed of the session. */
  #apply(method: string, params: Record<string, unknown>, result: Record<string, unknown>): void {
    const uri = typeof params['uri'] === 'string' ? params['uri'] : undefined;
    if (method === 'initialize') {
      if (typeof result['protocolVersion'] === 'string') this.facts.protocolVersion = result['protocolVersion'];
      if (isPlainObject(params['clientInfo']))
        this.facts.clientInfo = params['clientInfo'] as SessionInfo['clientInfo'];
      if (isPlainObject(params['capabilities'])) this.facts.clientCapabilities = params['capabilities'];
    } else if (method === 'logging/setLevel' && typeof params['level'] === 'string') {
      this.facts.logLevel = params['level'];
    } else if (method === 'resources/subscribe' && uri !== undefined) this.#subscriptions.add(uri);
    else if (method === 'resources/unsubscribe' && uri !== undefined) this.#subscriptions.delete(uri);
  }

  #record(): SessionRecord | undefined {
    const { protocolVersion, clientCapabilities, clientInfo, logLevel } = this.facts;
    if (protocolVersion === undefined) return undefined;
    const expiresAt = Date.now() + this.#cluster.settings.idleTimeoutMs;
    const subscriptions = [...this.#subscriptions];
    return {
      id: this.#sessionId,
      protocolVersion,
      clientCapabilities,
      clientInfo,
      logLevel,
      subscriptions,
      ...{ clientKey: this.#clientKey, expiresAt },
      ...(this.#owner === undefined ? {} : { owner: this.#owner }),
    };
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
        const message = JSON.parse(raw) as { t: string; id?: string; text?: string };
        if (message.t === 'ev' && typeof message.text === 'string') write(message.id, message.text);
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

  resumeElsewhere(res: ServerResponse, lastEventId: string, streamId: string): Promise<void> {
    return resumeFromElsewhere(this.#cluster, res, { sessionId: this.#sessionId, lastEventId, streamId });
  }

  touched(): void {
    const { idleTimeoutMs, sessionStore, log } = this.#cluster.settings;
    const now = Date.now();
    if (!this.#stored || now - this.#touchedAt < Math.max(1000, idleTimeoutMs / 4)) return;
    this.#touchedAt = now;
    sessionStore.touch(this.#sessionId, now + idleTimeoutMs).then(
      (alive) => (alive ? undefined : this.#cluster.endHere(this.#sessionId)),
      (error: unknown) => log(`mcp cluster: could not refresh session ${this.#sessionId}: ${String(error)}`),
    );
  }

  forgotten(): void {
    this.#cluster.forgotten(this.#sessionId);
  }
}
