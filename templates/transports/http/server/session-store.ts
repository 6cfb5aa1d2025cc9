/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * The live sessions of a Streamable HTTP endpoint (2025-03-26 … 2025-11-25): opened at initialize up to a
 * cap in total and per client (the longest idle reclaimed first), found by `Mcp-Session-Id` (400 without, 404
 * when unknown), their header version checked, forgotten when they end. Node only; internal to endpoint.ts.
 *
 * The sessions this process holds. In a cluster (`cluster`), a session another node opened is restored from
 * the shared store when a request names it (`restore`); the caps count this node's sessions only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InMemoryEventStore, type EventStore } from '../../../cluster/event-store.js';
import { HEADER } from '../../../peer/http-headers.js';
import { headerOf, writeJsonError, writeJsonRpcError } from './replies.js';
import { RETRY_AFTER } from './client-caps.js';
import { invalidRequestResponse } from '../../../core/frame.js';
import { isRequest, type WireMessage } from '../common.js';
import { StreamableHttpServerTransport } from './session.js';
import type { Cluster } from './cluster.js';
import { NodeLink } from './cluster-link.js';
import type { SessionRecord } from '../../../cluster/state.js';

export interface LiveSessionsOptions {
  /** Versions a request's `MCP-Protocol-Version` may name. */
  supported: readonly string[];
  maxSessions: number;
  /** Most live sessions one client (by `clientKey`) may hold. */
  maxSessionsPerClient: number;
  /** Who a request comes from, for the per-client cap. */
  clientKey: (req: IncomingMessage) => string;
  sessionIdGenerator?: (() => string) | undefined;
  /** One store for every session, or undefined: each session gets its own in memory (when resumable). */
  sharedEventStore: EventStore | undefined;
  resumable: boolean;
  retryMs: number | undefined;
  keepAliveMs: number;
  idleTimeoutMs: number;
  onSessionClosed?: ((sessionId: string) => void) | undefined;
  /** The nodes this one serves sessions with; undefined in a single process. */
  cluster?: Cluster | undefined;
  /** The identity a request is from (the `auth` gate's key), whose sessions it alone may use; undefined without auth. */
  ownerOf: (req: IncomingMessage) => string | undefined;
}

export class LiveSessions {
  readonly sessions: Map<string, StreamableHttpServerTransport> = new Map();
  /** Session id → the client (`clientKey`) that opened it. */
  private readonly clients = new Map<string, string>();
  /** Session id → the identity that opened it (with `auth`). */
  private readonly owners = new Map<string, string>();
  private readonly options: LiveSessionsOptions;

  constructor(options: LiveSessionsOptions) {
    this.options = options;
  }

  /** The session a request names, if it names a live one (no answer is written). */
  named(req: IncomingMessage): StreamableHttpServerTransport | undefined {
    return this.sessions.get(headerOf(req, HEADER.sessionId) ?? '');
  }

  /**
   * A new session for an initialize request, registered; or undefined after answering why none may be
   * opened (the request names a session already, or the cap is reached).
   */
  open(req: IncomingMessage, res: ServerResponse, messages: WireMessage[]): StreamableHttpServerTransport | undefined {
    const existing = headerOf(req, HEADER.sessionId);
    if (existing !== undefined && existing !== '') {
      // A second initialize (whatever version it names) is answered with its id, as on every transport.
      const id = messages.find(isRequest)?.id ?? null;
      const answer = invalidRequestResponse(id, 'the session is already initialized');
      if (this.ownedBy(existing, req)) writeJsonRpcError(res, 400, answer, { [HEADER.sessionId]: existing });
      else writeJsonError(res, 404, -32001, 'Session not found');
      return undefined;
    }
    const client = this.options.clientKey(req);
    if (!this.makeRoom(client, res)) return undefined;
    const sessionId = this.options.sessionIdGenerator?.() ?? globalThis.crypto.randomUUID();
    if (!/^[\x21-\x7e]+$/.test(sessionId)) throw new Error(`Invalid session id: ${JSON.stringify(sessionId)}`);
    return this.create(sessionId, client, this.options.ownerOf(req));
  }

  /** A session another node opened, as its record says (no cap: it exists already). */
  restore(record: SessionRecord): StreamableHttpServerTransport {
    return this.sessions.get(record.id) ?? this.create(record.id, record.clientKey, record.owner, record);
  }

  private create(
    sessionId: string,
    client: string,
    owner: string | undefined,
    restored?: SessionRecord,
  ): StreamableHttpServerTransport {
    const { sharedEventStore, resumable, retryMs, keepAliveMs, idleTimeoutMs, cluster } = this.options;
    // The link of a session this node holds: new (`restored` undefined) or opened elsewhere.
    const link = cluster === undefined ? undefined : new NodeLink(cluster, sessionId, { client, owner }, restored);
    const transport = new StreamableHttpServerTransport(sessionId, {
      link,
      eventStore: resumable ? (sharedEventStore ?? new InMemoryEventStore()) : undefined,
      retryMs,
      keepAliveMs,
      idleTimeoutMs,
      resumeWindowMs: Math.max(60_000, (retryMs ?? 1000) * 10),
      onClosed: (t) => {
        if (this.sessions.get(t.sessionId) === t) {
          this.sessions.delete(t.sessionId);
          this.clients.delete(t.sessionId);
          this.owners.delete(t.sessionId);
          this.options.onSessionClosed?.(t.sessionId);
        }
      },
    });
    if (link !== undefined) transport.facts = link.facts;
    if (restored !== undefined) transport.protocolVersion = restored.protocolVersion;
    this.sessions.set(sessionId, transport);
    this.clients.set(sessionId, client);
    if (owner !== undefined) this.owners.set(sessionId, owner);
    return transport;
  }

  /**
   * Room for one more session of `client`, or false after answering why there is none. At a cap, the
   * longest idle session (no request in progress, no stream open) is reclaimed first — the client's own at
   * its cap, anyone's at the total cap — so a burst of abandoned initializes cannot lock others out; only when
   * none is idle is the initialize refused: 429 at the client's cap, 503 at the total.
   */
  private makeRoom(client: string, res: ServerResponse): boolean {
    const { maxSessions, maxSessionsPerClient } = this.options;
    const own = [...this.sessions.values()].filter((s) => this.clients.get(s.sessionId) === client);
    if (own.length >= maxSessionsPerClient && !reclaimIdlest(own)) {
      const message = `Too Many Requests: this client holds its maximum of ${maxSessionsPerClient} sessions, none idle`;
      writeJsonError(res, 429, -32000, message, undefined, RETRY_AFTER);
      return false;
    }
    if (this.sessions.size >= maxSessions && !reclaimIdlest(this.sessions.values())) {
      const message = `Service Unavailable: the server holds its maximum of ${maxSessions} sessions, none idle`;
      writeJsonError(res, 503, -32000, message, undefined, RETRY_AFTER);
      return false;
    }
    return true;
  }

  /** Forgets a session that could not be set up. */
  discard(transport: StreamableHttpServerTransport): void {
    this.sessions.delete(transport.sessionId);
    void transport.close();
  }

  /**
   * The session of a non-initialize request whose header version is acceptable; or undefined after
   * answering 400 (no session id, unsupported version) or 404 (unknown session, or one another identity
   * opened: to that one it does not exist).
   */
  find(req: IncomingMessage, res: ServerResponse): StreamableHttpServerTransport | undefined {
    const id = headerOf(req, HEADER.sessionId);
    if (id === undefined || id === '') {
      writeJsonError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      return undefined;
    }
    const session = this.sessions.get(id);
    if (!session || !this.ownedBy(id, req)) {
      writeJsonError(res, 404, -32001, 'Session not found');
      return undefined;
    }
    return this.versionOk(req, res, session) ? session : undefined;
  }

  /** Whether a live session is the request's own: opened by the same identity (or neither has one). */
  private ownedBy(id: string, req: IncomingMessage): boolean {
    return this.sessions.has(id) && this.owners.get(id) === this.options.ownerOf(req);
  }

  /**
   * The session era's version check: the header must name a supported version. What the session may do
   * (batches, priming events) follows the version it negotiated, never the header: a header naming another
   * supported version is tolerated (the official conformance suite sends 2025-03-26 on 2025-11-25 sessions)
   * but cannot switch a 2025-11-25 session into 2025-03-26 batches.
   */
  private versionOk(req: IncomingMessage, res: ServerResponse, session: StreamableHttpServerTransport): boolean {
    const version = headerOf(req, HEADER.protocolVersion);
    const { supported } = this.options;
    if (version === undefined || supported.includes(version)) return true;
    const message = `Bad Request: Unsupported protocol version: ${version} (supported: ${supported.join(', ')})`;
    writeJsonError(res, 400, -32000, message, session.sessionId);
    return false;
  }
}

/** Closes the session idle the longest (it leaves the store at once); false when none is idle. */
function reclaimIdlest(sessions: Iterable<StreamableHttpServerTransport>): boolean {
  let idlest: StreamableHttpServerTransport | undefined;
  for (const s of sessions) if (s.idle && (idlest === undefined || s.lastActive < idlest.lastActive)) idlest = s;
  if (idlest === undefined) return false;
  void idlest.close();
  return true;
}
