/**
 * Streamable HTTP, client side, on the global `fetch` (browsers, Node 18+, Deno, Bun). Speaks both eras:
 *
 * - 2026-07-28 on (`setProtocolVersion` names such a version, or, once `setMetadataHeaders` gave the model's
 *   facts, the message's `_meta` does): no session; every POST carries `MCP-Protocol-Version`, `Mcp-Method`,
 *   `Mcp-Name` where the name-source table says, and the `Mcp-Param-*` headers the caller passes in
 *   `TransportSendOptions.headers`. Cancelling a request closes its response stream (no
 *   `notifications/cancelled` is posted). No GET stream, no DELETE, and no responses: a client of this era
 *   sends none.
 * - earlier versions: the session from initialize (`Mcp-Session-Id`), the standalone GET stream, resumption
 *   with `Last-Event-ID` (both with the `streams: sessionStreams()` option, session-streams.ts), DELETE on
 *   close.
 *
 * An HTTP error whose body is a JSON-RPC error for the request (400/404 from a modern server) is delivered
 * to the engine like any answer; other HTTP failures reject the send with StreamableHttpError (a local error,
 * not something the peer said), which carries the status and, for 401, `WWW-Authenticate`. With the
 * `legacySse` option (sse-fallback.ts), a server that speaks only the deprecated HTTP+SSE transport is reached
 * through it.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe: no
 * `node:` imports.
 */
import {
  HEADER,
  METADATA_HEADERS,
  isHeaderEra,
  type MetadataFacts,
  type MetadataHeaders,
  type NameSources,
} from '../../../peer/http-headers.js';
import { readSse, type StreamOwner } from './read-sse.js';
import type { ReconnectionOptions, SessionStreams, SessionStreamsOption } from './session-streams.js';
import { Flight } from './flight.js';
import { ErrorCode, LocalError, isPlainObject, isValidRequestId, type RequestId } from '../../../core/jsonrpc.js';
import { describe, metaOf } from '../../../core/peer-messages.js';
import {
  StreamableHttpError,
  isInitializeRequest,
  isRequest,
  isResponse,
  mediaType,
  toError,
  type WireMessage,
} from '../common.js';
import type { FallbackHost, LegacySseFallback } from './sse-fallback.js';
import type { SseLegacyClientTransport } from '../../sse/client.js';
import type { HttpClientAuth } from '../../../auth/client/hook.js';
import type { JsonRpcFrame, MessageExtraInfo, Transport, TransportSendOptions } from '../../../core/transport.js';

export { StreamableHttpError, METADATA_HEADERS, type MetadataFacts, type MetadataHeaders };
export type { ReconnectionOptions };

export interface StreamableHttpClientTransportOptions {
  /**
   * Extra headers on every request, or a function producing them per request: the token provider (e.g.
   * `async () => ({ authorization: `Bearer ${await tokens.get()}` })`).
   */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** The fetch to use. Default the global fetch. */
  fetch?: typeof fetch;
  /** Resume an existing session instead of starting one. */
  sessionId?: string;
  /**
   * Sessions (up to 2025-11-25): the standalone GET stream the server sends its own messages on, and resuming
   * dropped streams with `Last-Event-ID` (`resumeStream`, `resumptionToken`): `streams: sessionStreams()`. Left
   * out, the transport reads each POST's answer only (and a bundle carries none of the streams).
   */
  streams?: SessionStreamsOption;
  /** With `streams`: open the standalone GET SSE stream after initialization. Default true. */
  openSseStream?: boolean;
  /**
   * With `streams`: reconnection of dropped SSE streams. The server's `retry:` value, when sent, replaces the
   * backoff delay.
   */
  reconnection?: Partial<ReconnectionOptions>;
  /** Send DELETE to end the session on close() (waiting at most 1 s for its answer). Default true. */
  terminateOnClose?: boolean;
  /** Which params member `Mcp-Name` mirrors, by method (2026-07-28 on). Default: the client's model's. */
  nameSources?: NameSources;
  /**
   * Reach servers that speak only the deprecated HTTP+SSE transport: `legacySse: sseFallback()`. When the
   * first POST, an `initialize`, fails with 400, 404 or 405 and its body is no recognised modern JSON-RPC error,
   * the transport GETs the same URL expecting an `endpoint` event and, when it comes, speaks HTTP+SSE from then
   * on. Left out, it speaks Streamable HTTP only (and a bundle carries none of the fallback).
   */
  legacySse?: LegacySseFallback;
  /**
   * OAuth 2.1 as the spec's Authorization chapter describes it: `auth: oauthClient({ … })` (from
   * `@mcp-typegen/runtime/auth`). A request the server refuses with 401 (or 403 `insufficient_scope`) runs the
   * flow, then goes again with the token; every request carries it. Left out, a 401 rejects the send with a
   * StreamableHttpError (and a bundle carries none of the flow).
   */
  auth?: HttpClientAuth;
}

/** The protocol version a message declares in its `_meta` under the model's key (2026-07-28 on), if any. */
function declaredVersion(message: WireMessage, metaKey: string | undefined): string | undefined {
  // metaOf reads `_meta` only from an object.
  const version =
    metaKey === undefined ? undefined : metaOf((message as { params?: { [key: string]: unknown } }).params)?.[metaKey];
  return typeof version === 'string' ? version : undefined;
}

function isCancellation(m: WireMessage): boolean {
  return 'method' in m && m.method === 'notifications/cancelled' && !('id' in m);
}

/** Discards a response body nobody reads (so the connection is released). */
function discard(response: Response): Promise<unknown> {
  return response.body?.cancel().catch(() => undefined) ?? Promise.resolve();
}

/** Client side of Streamable HTTP: POSTs each message and reads JSON or SSE answers. */
export class StreamableHttpClientTransport implements Transport {
  declare onmessage?: (message: JsonRpcFrame, extra?: MessageExtraInfo) => void;
  declare onclose?: () => void;
  declare onerror?: (error: Error) => void;

  readonly #url: URL;
  readonly #fetchImpl: typeof fetch;
  #abort?: AbortController;
  #closed = false;
  #closing: Promise<void> | undefined;
  #protocolVersionValue?: string;
  #sessionIdValue?: string | undefined;
  readonly #options: StreamableHttpClientTransportOptions;
  readonly #owner: StreamOwner;
  readonly #streams: SessionStreams | undefined;
  /** Tells the MCP client to mirror tool arguments into `Mcp-Param-*` headers (2026-07-28 on). */
  readonly mirrorsToolParams = true;
  /** One controller per request in flight: aborting it closes that request's response stream only. */
  readonly #inFlight = new Map<RequestId, Flight>();
  /** Set once the server turned out to speak HTTP+SSE only: every message goes through it. */
  #legacy: SseLegacyClientTransport | undefined;
  /** Some POST succeeded: this is a Streamable HTTP server, no fallback any more. */
  #answeredOnce = false;
  /** The header logic, and the facts of the generated protocol it reads (extension methods included). */
  #metadata?: { headers: MetadataHeaders; facts: MetadataFacts };

  constructor(url: string | URL, options: StreamableHttpClientTransportOptions = {}) {
    this.#options = options;
    this.#url = new URL(url);
    const fetchImpl = options.fetch ?? fetch;
    // Called as a plain function: a browser's fetch throws 'Illegal invocation' when called as a method of
    // another object (this transport, or the options).
    const plain: typeof fetch = (input, init) => fetchImpl(input, init);
    this.#fetchImpl = options.auth?.fetch(plain, this.#url) ?? plain;
    this.#sessionIdValue = options.sessionId;
    const owner: StreamOwner = (this.#owner = {
      url: this.#url,
      fetch: this.#fetchImpl,
      signal: () => this.#abort?.signal,
      closed: () => this.#closed,
      headers: () => this.#headers(),
      receive: (value, replayId) => this.#receive(value, replayId),
      error: (error) => this.onerror?.(error),
    });
    this.#streams = options.streams?.create(owner, options);
  }

  get sessionId(): string | undefined {
    return this.#sessionIdValue;
  }

  /**
   * How requests of the metadata-header era (2026-07-28 on) get their headers: a client generated for such a
   * version calls it with METADATA_HEADERS and its `PROTOCOL.facts` (the `Mcp-Name` sources, and the `_meta`
   * key a request declares its version under); without it none are written, and only setProtocolVersion tells
   * this transport a version.
   */
  setMetadataHeaders(headers: MetadataHeaders, facts: MetadataFacts): void {
    this.#metadata = { headers, facts };
  }

  /** Identifies the server for the client's era cache: the endpoint URL. */
  get serverKey(): string {
    return this.#url.href;
  }

  /** Requests whose response is still being awaited or read (for leak checks). */
  get requestsInFlight(): number {
    return this.#inFlight.size;
  }

  get protocolVersion(): string | undefined {
    return this.#protocolVersionValue;
  }

  setProtocolVersion(version: string): void {
    this.#protocolVersionValue = version;
    this.#legacy?.setProtocolVersion(version);
  }

  /** Whether the server turned out to speak only the deprecated HTTP+SSE transport (see the legacySse option). */
  get usesLegacySse(): boolean {
    return this.#legacy !== undefined;
  }

  /** Starts sending; after close(), starts again (a new session: the old one's id is forgotten). */
  async start(): Promise<void> {
    if (this.#abort && !this.#closed) throw new Error('StreamableHttpClientTransport already started');
    if (this.#abort) {
      this.#closed = false;
      this.#closing = this.#legacy = this.#sessionIdValue = undefined;
    }
    this.#abort = new AbortController();
    // Reconnecting to a known session: listen for server messages right away.
    if (this.#sessionIdValue !== undefined) this.#streams?.openStandalone();
  }

  async send(message: JsonRpcFrame, options?: TransportSendOptions): Promise<void> {
    if (!this.#abort || this.#closed) throw new Error('Not connected');
    if (this.#legacy !== undefined) return this.#legacy.send(message);
    const messages = Array.isArray(message) ? message : [message];
    if (options?.resumptionToken) {
      // Continue a request whose stream was lost: the answer arrives on the resumed stream.
      const request = messages.find(isRequest);
      return this.resumeStream(options.resumptionToken, { ...options, replayId: request?.id });
    }
    const first = messages[0];
    const versionKey = this.#metadata?.facts.metaKeys['protocolVersion'];
    const version =
      first === undefined ? undefined : (declaredVersion(first, versionKey) ?? this.#protocolVersionValue);
    const sessionless = isHeaderEra(version);
    // From 2026-07-28 on a client sends no responses (a server asks for input inside its results): an answer the
    // engine writes, say to something unreadable on a response stream, fails here instead of being posted.
    if (sessionless && messages.some(isResponse)) throw new Error(`A client sends no JSON-RPC responses in ${version}`);
    this.#cancelFlights(messages);
    if (sessionless && messages.every(isCancellation)) return;
    // Only the POST that opens the first session may meet a server that speaks HTTP+SSE only. A URL that
    // spoke it before is reached that way at once; if it no longer does, the POST below probes.
    const opens =
      messages.some(isInitializeRequest) && !this.#answeredOnce && !sessionless && this.#sessionIdValue === undefined;
    const fallback = opens ? this.#options.legacySse : undefined;
    const sseTried = fallback && (await fallback.before(this.#fallbackHost()));
    if (typeof sseTried === 'object') return (this.#legacy = sseTried).send(message);
    const headers = await this.#postHeaders(first, sessionless ? version : undefined, options);
    const flight = new Flight(messages.filter(isRequest), this.#inFlight);
    let response: Response;
    try {
      response = await this.#fetchImpl(this.#url, {
        method: 'POST',
        headers,
        body: JSON.stringify(message),
        signal: flight.requests.length > 0 ? flight.controller.signal : this.#abort.signal,
      });
    } catch (error) {
      flight.release();
      if (flight.controller.signal.aborted && !this.#closed) return; // cancelled by us: nothing to report
      // A LocalError is the fetch's own verdict (the `auth` option's AuthorizationError): it reaches the caller as is.
      throw this.#fail(
        error instanceof LocalError
          ? error
          : new LocalError(ErrorCode.ConnectionClosed, `POST ${this.#url.href} failed: ${describe(error)}`),
      );
    }
    if (!response.ok) return this.#refused(response, message, messages, flight, fallback, sseTried);
    // The session only a success names: a server refusing the POST that opened a session may name the session it
    // made for it and discard it at once (Python's MCP SDK does), so its id would lead to 404.
    const sessionId = response.headers.get(HEADER.sessionId);
    if (sessionId && !sessionless) this.#sessionIdValue = sessionId;
    this.#answeredOnce = true;
    return this.#readAnswer(response, messages, flight, options);
  }

  /**
   * A cancelled request: its response stream is closed at once. In the sessionless era that is the
   * cancellation itself; earlier, the notification is posted too, at once: the server hears it whatever it does
   * with the request's POST (a JSON-mode server holds its answer, a proxy may hold its headers back), and a
   * closed stream is no cancellation there.
   */
  #cancelFlights(messages: WireMessage[]): void {
    for (const m of messages) {
      if (!isCancellation(m)) continue;
      const requestId = (m as { params?: { requestId?: unknown } }).params?.requestId;
      if (isValidRequestId(requestId)) this.#stopReading(requestId);
    }
  }

  /**
   * A POST's headers: the session's, or (`sessionless`, the version of a sessionless request) the request metadata
   * ones; then the caller's.
   */
  async #postHeaders(
    first: WireMessage | undefined,
    sessionless: string | undefined,
    options: TransportSendOptions | undefined,
  ): Promise<Headers> {
    const headers = await this.#headers(sessionless !== undefined);
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json, text/event-stream');
    if (sessionless !== undefined && first !== undefined && 'method' in first && typeof first.method === 'string') {
      const body = first as { method: string; params?: { [key: string]: unknown } };
      const metadata = this.#metadata;
      const sources = this.#options.nameSources ?? metadata?.facts.transport.nameSources ?? {};
      const standard = metadata?.headers.standard(body, sessionless, sources);
      for (const [name, value] of Object.entries(standard ?? {})) headers.set(name, value);
    }
    for (const [name, value] of Object.entries(options?.headers ?? {})) headers.set(name, value);
    return headers;
  }

  /**
   * A POST answered with an HTTP error: a JSON-RPC error for the request goes to the engine; a refused first
   * `initialize` may fall back to HTTP+SSE; anything else rejects the send.
   */
  async #refused(
    response: Response,
    message: JsonRpcFrame,
    messages: WireMessage[],
    flight: Flight,
    fallback: LegacySseFallback | undefined,
    sseTried: string | undefined,
  ): Promise<void> {
    const text = await response.text().catch(() => '');
    flight.release();
    const type = contentType(response);
    // A JSON-RPC error answer for the request (a modern server's 400/404): the engine settles the call.
    if (type === 'application/json' && flight.requests.length > 0 && this.#deliverErrorAnswer(text, flight.requests)) {
      return;
    }
    const reached = fallback ? await fallback.refused(this.#fallbackHost(), response.status, text, sseTried) : '';
    if (typeof reached === 'object') return (this.#legacy = reached).send(message);
    if (response.status === 404 && this.#sessionIdValue !== undefined && !messages.some(isInitializeRequest)) {
      // The session is gone: a new one must be started with initialize.
      this.#sessionIdValue = undefined;
    }
    throw this.#fail(
      new StreamableHttpError(
        response.status,
        `POST ${this.#url.href} answered HTTP ${response.status}${text ? `: ${text}` : ''}${reached}`,
        text,
        response.headers.get('www-authenticate') ?? undefined,
      ),
    );
  }

  /** A POST's successful answer: nothing (202), an SSE stream, or JSON. */
  async #readAnswer(
    response: Response,
    messages: WireMessage[],
    flight: Flight,
    options: TransportSendOptions | undefined,
  ): Promise<void> {
    const type = contentType(response);
    if (response.status === 202 || response.status === 204 || flight.requests.length === 0) {
      flight.release();
      await discard(response);
      this.#streams?.posted(messages);
      return;
    }
    if (type === 'text/event-stream') {
      const pending = new Set(flight.requests.map((m) => m.id));
      // Read to the end of the answers, or to the error the calls fail with at once when the stream was cut and
      // not resumed: the engine fails them on the rejected send instead of at their timeout.
      const state = { kind: 'post' as const, pending, signal: flight.controller.signal };
      const onresumptiontoken = options?.onresumptiontoken;
      const lost = await readSse(response, { ...state, onresumptiontoken }, this.#owner, this.#streams);
      flight.release();
      if (lost) throw this.#fail(lost);
      return;
    }
    if (type === 'application/json') {
      let data: unknown;
      try {
        data = await response.json();
      } catch (error) {
        flight.release();
        if (flight.controller.signal.aborted) return;
        // Cut while being read (a server that died), or no JSON: no answer will come.
        throw this.#fail(new LocalError(ErrorCode.ConnectionClosed, `No JSON answer to the POST: ${describe(error)}`));
      }
      flight.release();
      for (const item of Array.isArray(data) ? data : [data]) this.#receive(item);
      return;
    }
    flight.release();
    await discard(response);
    throw this.#fail(new StreamableHttpError(response.status, `Unexpected content type: ${type || '(none)'}`));
  }

  /** Reports an error to onerror and returns it, for the caller to throw. */
  #fail(error: Error): Error {
    this.onerror?.(error);
    return error;
  }

  /** Stops reading the response of a cancelled request (once no other request of its POST, a batch, waits). */
  #stopReading(requestId: RequestId): void {
    const flight = this.#inFlight.get(requestId);
    if (flight === undefined) return;
    this.#inFlight.delete(requestId);
    for (const other of this.#inFlight.values()) if (other === flight) return;
    flight.controller.abort();
  }

  /** sseFallback()'s view of this transport (see sse-fallback.ts). */
  #fallbackHost(): FallbackHost {
    return { ...this.#owner, transport: this, extraHeaders: this.#options.headers };
  }

  /**
   * Delivers the JSON-RPC errors for `requests` an HTTP error's body carries; false when it carries none (a
   * result, or an `error` that is no JSON-RPC error object, leaves the HTTP status to speak).
   */
  #deliverErrorAnswer(text: string, requests: Array<WireMessage & { id: RequestId }>): boolean {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return false;
    }
    const answers = (Array.isArray(data) ? data : [data]).filter(
      (item) => isPlainObject(item) && isPlainObject(item['error']) && requests.some((r) => r.id === item['id']),
    );
    for (const answer of answers) this.#receive(answer);
    return answers.length > 0;
  }

  /** Re-opens a stream from an event id (GET with Last-Event-ID); needs the `streams` option. */
  resumeStream(
    lastEventId: string,
    options: { onresumptiontoken?: ((token: string) => void) | undefined; replayId?: RequestId | undefined } = {},
  ): void {
    if (!this.#streams) throw new Error('resumeStream needs the streams: sessionStreams() option');
    this.#streams.resume(lastEventId, options.onresumptiontoken, options.replayId);
  }

  /**
   * Ends the session on the server (DELETE). Whatever the answer (a 405 from a server that lets sessions expire,
   * a 404 for one already gone), the session is over for this client; only a DELETE that could not be sent, or
   * got no answer within 1 s, rejects. The bound is short because close() waits for it: a server that hangs
   * (a killed one refuses at once) costs close() 1 s, and the session it forgets expires on the server.
   */
  async terminateSession(): Promise<void> {
    if (this.#sessionIdValue === undefined) return;
    const headers = await this.#headers();
    await discard(await this.#fetchImpl(this.#url, { method: 'DELETE', headers, signal: AbortSignal.timeout(1000) }));
    this.#sessionIdValue = undefined;
  }

  /** Stops all streams and timers, ends the session (DELETE, unless disabled), then fires onclose once. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed = true;
      this.#streams?.close();
      this.#abort?.abort();
      for (const flight of this.#inFlight.values()) flight.controller.abort();
      this.#inFlight.clear();
      const legacy = this.#legacy;
      if (legacy !== undefined) {
        legacy.onclose = undefined;
        await legacy.close();
      } else if (this.#options.terminateOnClose !== false && this.#abort) {
        await this.terminateSession().catch((error) => this.onerror?.(toError(error)));
      }
      this.onclose?.();
    })();
    return this.#closing;
  }

  // --- internals ------------------------------------------------------------------------------

  async #headers(sessionless = false): Promise<Headers> {
    const extra = typeof this.#options.headers === 'function' ? await this.#options.headers() : this.#options.headers;
    const headers = new Headers(extra);
    if (sessionless) return headers;
    if (this.#sessionIdValue !== undefined) headers.set(HEADER.sessionId, this.#sessionIdValue);
    if (this.#protocolVersionValue !== undefined) headers.set(HEADER.protocolVersion, this.#protocolVersionValue);
    return headers;
  }

  /**
   * Hands a received value to the engine, which checks it like a frame of any transport (core/frame.ts) and answers
   * what is not JSON-RPC. The version `initialize` agreed on reaches this transport through setProtocolVersion.
   */
  #receive(value: unknown, replayId?: RequestId): void {
    if (replayId !== undefined) {
      for (const m of Array.isArray(value) ? value : [value]) if (isResponse(m)) m.id = replayId;
    }
    this.onmessage?.(value as JsonRpcFrame);
  }
}

/** A response's media type, lower case, without parameters. */
function contentType(response: Response): string {
  return mediaType(response.headers.get('content-type'));
}
