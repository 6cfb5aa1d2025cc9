/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * Streamable HTTP, server side: a node:http request handler for one MCP endpoint, speaking both eras.
 *
 * Hand-written runtime copied unchanged into generated output. Node only
 * (`node:http` types, `node:crypto`).
 *
 * 2026-07-28 on (a request whose `MCP-Protocol-Version` header names such a version): no sessions. Every
 * POST carries one request or notification; `onSession` is called with a transport for that one POST, whose
 * engine answers it: as `application/json` when the answer is the only message, or as an SSE stream when
 * notifications come first. The request metadata headers are checked against the body (400, -32020), the
 * version against the supported ones (400, -32022), an unknown method is 404. Closing the response stream
 * cancels the request. GET and DELETE are 405; `Mcp-Session-Id` and `Last-Event-ID` are ignored.
 *
 * 2025-03-26 … 2025-11-25 (the header names such a version, or is absent): sessions. POST carries a message
 * (or, in 2025-03-26, a batch); requests are answered on an SSE stream or as JSON; GET opens the session's
 * standalone stream or resumes one with `Last-Event-ID`; DELETE ends the session. `Mcp-Session-Id` is
 * assigned at initialize and required afterwards (400 without, 404 when unknown); the header version must
 * equal the negotiated one. Sessions end after `sessionIdleTimeoutMs` without requests and are capped at
 * `maxSessions`.
 *
 * Every era: a frame the engine would refuse (not JSON, not JSON-RPC, an unsafe id) is answered 400 with the
 * engine's JSON-RPC error (core/frame.ts), never delivered; `Host` and `Origin` are checked against DNS rebinding
 * (403); CORS is its own allow-list (`cors`, none by default).
 *
 * Pass the generated server (`createStreamableHttpServer({ server })`): what the transport checks (versions,
 * batches, `Mcp-Name` sources, error codes, meta keys) is then read from its `PROTOCOL` facts, the model.
 *
 * The parts, one job each: session.ts (one session's streams and resumption), session-store.ts
 * (opening, finding and capping sessions), request-transport.ts (one sessionless POST),
 * checks.ts (body shape, metadata headers, CORS), replies.ts (error answers, SSE headers).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspectMessage, invalidRequestResponse, parseErrorResponse } from '../../../core/frame.js';
import { HEADER, isHeaderEra } from '../../../peer/http-headers.js';
import type { JsonRpcErrorResponse } from '../../../core/jsonrpc.js';
import { accepts, outlastClientReuse, readBody, TOO_LARGE_HEADERS as TOO_LARGE } from './request.js';
import { checkCors, dnsRebindingGuard, isInitializeRequest, mediaType, onceEach, toError } from '../common.js';
import type { WireMessage } from '../common.js';
import type { MessageInfo } from './replies.js';
import {
  headerOf,
  initializeInBatch,
  requestInfoOf,
  sessionHeader,
  transportErrorCodes,
  writeJsonError,
  writeJsonRpcError,
} from './replies.js';
import { corsHeaders, preflight, refusal, sessionlessVerdict } from './checks.js';
import { HttpRequestTransport } from './request-transport.js';
import { ASSUMED_PROTOCOL_VERSION, type StreamableHttpServerTransport } from './session.js';
import { clusterOf, factsOf, type Connection, type StreamableHttpServerOptions } from './options.js';
import type { HttpServedServer, StreamableHttpServerSettings } from './options.js';
import { LiveSessions } from './session-store.js';
import { RETRY_AFTER } from './client-caps.js';
import { AuthGate } from '../../../auth/server/gate.js';

export { HttpRequestTransport } from './request-transport.js';
export { StreamableHttpServerTransport } from './session.js';
export type { HttpMessageExtraInfo } from './replies.js';
export type {
  HttpServedServer,
  MethodsOf,
  StreamableHttpServerOptions,
  StreamableHttpServerSettings,
} from './options.js';

/** The node:http request handler, with the live sessions and a way to end them all. */
export interface StreamableHttpHandler {
  (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): void;
  /** Like calling the handler, but resolves when the request has been handled (not when an SSE stream ends). */
  handle(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void>;
  readonly sessions: ReadonlyMap<string, StreamableHttpServerTransport>;
  /** POSTs of the sessionless era still being answered. */
  readonly requests: ReadonlySet<HttpRequestTransport>;
  /** Ends every session and open request (their streams end, onclose fires). */
  close(): Promise<void>;
}

const SSE_TYPE = 'text/event-stream';

/** The options with their defaults applied, and what follows from the model's facts. */
type Settings = ReturnType<typeof settle>;

function settle(options: StreamableHttpServerSettings) {
  const server = options.server;
  const onSession =
    options.onSession ??
    (server === undefined ? undefined : (t: Connection) => server.connect(t, factsOf(t)).then(() => {}));
  if (onSession === undefined) throw new Error('createStreamableHttpServer: pass `server` or `onSession`');
  const facts = (options.protocol ?? server?.protocol)?.facts;
  if (facts === undefined) {
    throw new Error(
      'createStreamableHttpServer: pass `server` (a generated server) or `protocol` (the generated PROTOCOL): what the transport checks comes from the model',
    );
  }
  const supported =
    options.supportedProtocolVersions ?? server?.supportedVersions ?? facts.versions.map((v) => v.version);
  // The cluster finds the sessions this node holds in the store made below.
  let store: LiveSessions | undefined;
  const local = (id: string): StreamableHttpServerTransport | undefined => store?.sessions.get(id);
  const cluster = clusterOf(options, local);
  // The `auth` option's gate (it throws when the option cannot be served safely).
  const log = options.log ?? ((message: string) => console.warn(message));
  const gate = options.auth === undefined ? undefined : new AuthGate(options.auth, 'createStreamableHttpServer', log);
  return {
    onSession,
    supported,
    path: options.path ?? '/mcp',
    maxBody: options.maxBodyBytes ?? 4 * 1024 * 1024,
    keepAliveMs: options.keepAliveMs ?? 25_000,
    nameSources: options.nameSources ?? facts.transport.nameSources,
    codes: transportErrorCodes(facts),
    /** The `_meta` key a sessionless request names its version in (checked against the header). */
    versionMetaKey: facts.metaKeys['protocolVersion'],
    requiresMeta: (method: string): boolean => server?.receives?.(method) === true,
    /** Whether a session of this version may send batches: the model says. */
    batchesIn: (version: string): boolean => facts.versions.some((v) => v.version === version && v.batches === true),
    /** Whether a header's version is of the sessionless era: its fact's era; a version the model does not know, by its date. */
    sessionless: (version: string | undefined): boolean => {
      const fact = facts.versions.find((v) => v.version === version);
      return fact !== undefined ? fact.era === 'modern' : isHeaderEra(version);
    },
    cluster,
    gate,
    store: (store = new LiveSessions({
      cluster,
      supported,
      maxSessions: options.maxSessions ?? 1000,
      maxSessionsPerClient: options.maxSessionsPerClient ?? 100,
      clientKey: options.clientKey ?? ((req: IncomingMessage) => req.socket.remoteAddress ?? ''),
      sessionIdGenerator: options.sessionIdGenerator,
      sharedEventStore: typeof options.eventStore === 'object' ? options.eventStore : undefined,
      resumable: options.eventStore !== false,
      retryMs: options.retryMs === null ? undefined : (options.retryMs ?? 1000),
      keepAliveMs: options.keepAliveMs ?? 25_000,
      idleTimeoutMs: options.sessionIdleTimeoutMs ?? 30 * 60_000,
      onSessionClosed: options.onSessionClosed,
      ownerOf: (req: IncomingMessage) => gate?.owner(req),
    })),
  };
}

/**
 * Creates the request handler for one Streamable HTTP MCP endpoint: `http.createServer(handler)`, or mount it
 * in a framework (pass an already-parsed JSON body as the third argument).
 */
export function createStreamableHttpServer<Server extends HttpServedServer>(
  options: StreamableHttpServerOptions<Server>,
): StreamableHttpHandler {
  const endpoint = new StreamableHttpEndpoint(options as StreamableHttpServerSettings);
  const handle = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) =>
    endpoint.handle(req, res, parsedBody);
  const handler = ((req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => {
    void handle(req, res, parsedBody);
  }) as StreamableHttpHandler;
  Object.defineProperties(handler, {
    handle: { value: handle },
    sessions: { value: endpoint.store.sessions },
    requests: { value: endpoint.requests },
    close: {
      value: async () => {
        await endpoint.settings.cluster?.close();
        await Promise.all([...endpoint.store.sessions.values(), ...endpoint.requests].map((s) => s.close()));
      },
    },
  });
  return handler;
}

/** One endpoint: its settings, its session store and the live requests, and one method per HTTP method and era. */
class StreamableHttpEndpoint {
  readonly store: Settings['store'];
  /** Live POSTs of the sessionless era (for close() and the leak checks). */
  readonly requests = new Set<HttpRequestTransport>();
  private readonly options: StreamableHttpServerSettings;
  readonly settings: Settings;
  /** Sessions being restored from the cluster's store, by id (two requests for one restore it once). */
  private readonly adopting = new Map<string, Promise<void>>();
  private readonly codes: Settings['codes'];
  private readonly forbidden: ReturnType<typeof dnsRebindingGuard>;
  /** Says once each what a deployer must know (a refused Host or Origin, an origin without CORS). */
  private readonly report: (key: string, message: string) => void;

  constructor(options: StreamableHttpServerSettings) {
    this.options = options;
    this.settings = settle(options);
    this.store = this.settings.store;
    this.codes = this.settings.codes;
    this.report = onceEach(options.log);
    this.forbidden = dnsRebindingGuard(options, this.report);
    checkCors(options.cors);
  }

  /** Reads and parses the POST body; answers (and returns undefined) when it cannot. */
  private async bodyOf(
    req: IncomingMessage,
    res: ServerResponse,
    parsedBody: unknown,
  ): Promise<{ value: unknown } | undefined> {
    if (parsedBody !== undefined) return { value: parsedBody };
    const type = mediaType(req.headers['content-type']);
    if (type !== 'application/json') {
      writeJsonError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
      return undefined;
    }
    const body = await readBody(req, this.settings.maxBody);
    if ('tooLarge' in body) {
      writeJsonError(res, 413, -32000, `Request body exceeds ${this.settings.maxBody} bytes`, undefined, TOO_LARGE);
      return undefined;
    }
    try {
      return { value: JSON.parse(body.text) };
    } catch {
      writeJsonRpcError(res, 400, parseErrorResponse());
      return undefined;
    }
  }

  private async handlePost(req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> {
    const accept = req.headers.accept;
    const acceptsJson = accepts(accept, 'application/json');
    const acceptsSse = accepts(accept, 'text/event-stream');
    if (!acceptsJson && !acceptsSse) {
      writeJsonError(res, 406, -32000, 'Not Acceptable: Accept must list application/json and text/event-stream');
      return;
    }
    const body = await this.bodyOf(req, res, parsedBody);
    if (body === undefined || this.settings.gate?.permits(req, res, body.value) === false) return;
    const wantsSse = acceptsSse && !(this.options.enableJsonResponse && acceptsJson);
    const version = headerOf(req, HEADER.protocolVersion);
    if (version !== undefined && this.settings.sessionless(version)) {
      return this.handleSessionlessPost(req, res, body.value, version, wantsSse);
    }
    return this.handleSessionPost(req, res, body.value, version, wantsSse);
  }

  /** A POST of the session era: an initialize opens a session; anything else goes to the session it names. */
  private async handleSessionPost(
    req: IncomingMessage,
    res: ServerResponse,
    raw: unknown,
    version: string | undefined,
    wantsSse: boolean,
  ): Promise<void> {
    const batch = Array.isArray(raw);
    // Batches follow the session's negotiated version (the header only when there is no session yet).
    const sessionVersion = this.store.named(req)?.protocolVersion ?? version ?? ASSUMED_PROTOCOL_VERSION;
    const refused = refusal(raw, this.settings.batchesIn(sessionVersion));
    // A batch the version allows is answered member by member: the invalid ones' answers beside the others'.
    const answered = Array.isArray(refused) ? refused : [];
    const members = batch ? (raw as unknown[]).filter((m) => inspectMessage(m).kind !== 'invalid') : [raw];
    if (refused !== undefined && (!Array.isArray(refused) || members.length === 0))
      return writeJsonRpcError(res, 400, refused, sessionHeader(req));
    const messages = members as WireMessage[];
    if (messages.some(isInitializeRequest)) {
      if (!batch) return this.openSession(req, res, messages, wantsSse);
      return this.batchWithInitialize(req, res, messages, answered, wantsSse);
    }
    const session = await this.findSession(req, res);
    if (!session) return;
    if (batch && !this.settings.batchesIn(session.protocolVersion ?? version ?? ASSUMED_PROTOCOL_VERSION)) {
      const answer = invalidRequestResponse(null, 'batches are not supported');
      return writeJsonRpcError(res, 400, answer, sessionHeader(req));
    }
    await session.handlePost(res, messages, batch, wantsSse, this.messageInfo(req), answered);
  }

  /** A batch holding an initialize (2025-03-26): every member is answered, as on every transport (initializeInBatch). */
  private async batchWithInitialize(
    req: IncomingMessage,
    res: ServerResponse,
    messages: WireMessage[],
    answered: JsonRpcErrorResponse[],
    wantsSse: boolean,
  ): Promise<void> {
    const named = headerOf(req, HEADER.sessionId);
    const { refused, rest } = initializeInBatch(messages, named !== undefined && named !== '');
    if (rest === undefined) return writeJsonRpcError(res, 400, [...answered, ...refused], sessionHeader(req));
    const session = await this.findSession(req, res);
    if (!session) return;
    await session.handlePost(res, rest, true, wantsSse, this.messageInfo(req), [...answered, ...refused]);
  }

  private async openSession(
    req: IncomingMessage,
    res: ServerResponse,
    messages: WireMessage[],
    wantsSse: boolean,
  ): Promise<void> {
    if (!(await this.clusterReady(res))) return;
    const transport = this.store.open(req, res, messages);
    if (transport === undefined) return;
    try {
      await this.settings.onSession(transport);
    } catch (error) {
      this.store.discard(transport);
      const message = `Internal error: could not create the session (${toError(error).message})`;
      return writeJsonError(res, 500, -32603, message);
    }
    await transport.handlePost(res, messages, false, wantsSse, this.messageInfo(req));
  }

  /**
   * A POST of the sessionless era. Checks, in order: the JSON-RPC shape, the standard headers against the
   * body (HeaderMismatchError), the version (UnsupportedProtocolVersionError); then one transport for this
   * POST is connected and given the message.
   */
  private async handleSessionlessPost(
    req: IncomingMessage,
    res: ServerResponse,
    value: unknown,
    version: string,
    wantsSse: boolean,
  ): Promise<void> {
    const verdict = sessionlessVerdict(req, res, value, version, this.settings);
    if (verdict === undefined) return;
    const id = verdict.kind === 'request' ? verdict.id : undefined;
    const keepAliveMs = this.settings.keepAliveMs;
    // A listen request is answered by a stream (its acknowledgement, then notifications), whatever the mode.
    const sse = wantsSse || (verdict.method === 'subscriptions/listen' && accepts(req.headers.accept, SSE_TYPE));
    const transport = new HttpRequestTransport(res, id, version, { sse, keepAliveMs, codes: this.codes });
    this.requests.add(transport);
    const previous = transport.onclose;
    const forget = (): void => void this.requests.delete(transport);
    try {
      await this.settings.onSession(transport);
    } catch (error) {
      forget();
      void transport.close();
      writeJsonError(res, 500, -32603, `Internal error: could not serve the request (${toError(error).message})`);
      return;
    }
    const installed = transport.onclose ?? previous;
    transport.onclose = () => {
      forget();
      installed?.();
    };
    transport.deliver(value, this.messageInfo(req));
    if (verdict.kind === 'notification') void transport.close();
  }

  private async handleGet(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.settings.sessionless(headerOf(req, HEADER.protocolVersion))) {
      const message = 'Method Not Allowed: no GET stream in this protocol version';
      return writeJsonError(res, 405, -32000, message, undefined, { allow: 'POST' });
    }
    if (!accepts(req.headers.accept, 'text/event-stream')) {
      return writeJsonError(res, 406, -32000, 'Not Acceptable: Accept must list text/event-stream');
    }
    const session = await this.findSession(req, res);
    if (!session) return;
    session.touch();
    const lastEventId = headerOf(req, 'last-event-id');
    if (lastEventId !== undefined && lastEventId !== '' && session.resumable) {
      return session.handleResume(res, lastEventId);
    }
    if (this.options.enableGetStream === false) {
      const message = 'Method Not Allowed: no standalone SSE stream';
      return writeJsonError(res, 405, -32000, message, session.sessionId, { allow: 'POST, DELETE' });
    }
    await session.handleGet(res);
  }

  private async handleDelete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.options.enableDelete === false || this.settings.sessionless(headerOf(req, HEADER.protocolVersion))) {
      const message = 'Method Not Allowed: sessions cannot be ended by the client';
      return writeJsonError(res, 405, -32000, message, undefined, { allow: 'GET, POST' });
    }
    const session = await this.findSession(req, res);
    if (!session) return;
    try {
      await this.settings.cluster?.deleted(session.sessionId);
    } catch (error) {
      return unavailable(res, 'the session store did not answer', error);
    }
    await session.close();
    res.writeHead(200).end();
  }

  /** Whether the request may go on: no `auth` option, or a token the gate admits (else it answered). */
  private async authenticated(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const gate = this.settings.gate;
    return gate === undefined || (await gate.authenticate(req, res)) !== undefined;
  }

  /** What a handler learns of the request a message came in: the HTTP request, and who sent it (`ctx.auth`). */
  private messageInfo(req: IncomingMessage): MessageInfo {
    const auth = this.settings.gate?.identity(req);
    return auth === undefined ? { requestInfo: requestInfoOf(req) } : { requestInfo: requestInfoOf(req), auth };
  }

  /** In a cluster: whether this node hears the others (else answered 503). */
  private async clusterReady(res: ServerResponse): Promise<boolean> {
    try {
      await this.settings.cluster?.ready();
      return true;
    } catch (error) {
      unavailable(res, 'the cluster bus did not answer', error);
      return false;
    }
  }

  /** The session a request names: held here, or (in a cluster) restored from the shared store first. */
  private async findSession(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<StreamableHttpServerTransport | undefined> {
    const id = headerOf(req, HEADER.sessionId);
    const cluster = this.settings.cluster;
    if (cluster === undefined || id === undefined || id === '' || this.store.sessions.has(id)) {
      return this.store.find(req, res);
    }
    if (!(await this.clusterReady(res))) return undefined;
    let adopting = this.adopting.get(id);
    if (adopting === undefined) {
      adopting = this.adopt(id).finally(() => this.adopting.delete(id));
      this.adopting.set(id, adopting);
    }
    try {
      await adopting;
    } catch (error) {
      return void unavailable(res, 'the session could not be restored from the session store', error);
    }
    return this.store.find(req, res);
  }

  /**
   * Serves a session another node opened, as the shared store records it. No record: a node still holding the
   * session (the store lost it, restarted empty) writes it back when asked; else find() says 404.
   */
  private async adopt(id: string): Promise<void> {
    const cluster = this.settings.cluster;
    let record = await cluster?.record(id);
    if (record === undefined && (await cluster?.askAround(id)) === true) {
      record = await cluster?.record(id);
      if (record === undefined) throw new Error('a node holds the session, but could not write its record back');
    }
    if (record === undefined || this.store.sessions.has(id)) return;
    const transport = this.store.restore(record);
    try {
      await this.settings.onSession(transport);
    } catch (error) {
      this.store.discard(transport);
      throw error;
    }
  }

  async handle(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> {
    outlastClientReuse(req, res);
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      // The metadata is public and read cross-origin: served before the Host and Origin checks.
      if (this.settings.gate?.metadata(req, res, url.pathname) === true) return;
      if (this.settings.path !== '*' && url.pathname !== this.settings.path)
        return writeJsonError(res, 404, -32000, 'Not Found');
      const origin = req.headers.origin;
      const refused = this.forbidden(req.headers.host, origin);
      if (refused !== undefined) return writeJsonError(res, 403, -32000, refused);
      const cors = corsHeaders(this.options.cors, origin, { host: req.headers.host, once: this.report });
      for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
      if (req.method !== 'OPTIONS' && !(await this.authenticated(req, res))) return;
      switch (req.method) {
        case 'POST':
          return await this.handlePost(req, res, parsedBody);
        case 'GET':
          return await this.handleGet(req, res);
        case 'DELETE':
          return await this.handleDelete(req, res);
        case 'OPTIONS':
          return preflight(req, res, this.options.cors, origin);
        default:
          writeJsonError(res, 405, -32000, 'Method Not Allowed', undefined, { allow: 'GET, POST, DELETE' });
      }
    } catch (error) {
      writeJsonError(res, 500, -32603, `Internal error: ${toError(error).message}`);
    }
  }
}

/** 503: something the cluster needs did not answer; the client may try again (Retry-After). */
function unavailable(res: ServerResponse, what: string, error: unknown): void {
  writeJsonError(res, 503, -32000, `Service Unavailable: ${what} (${toError(error).message})`, undefined, RETRY_AFTER);
}
