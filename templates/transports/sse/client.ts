/**
 * HTTP+SSE, client side: the 2024-11-05 transport (deprecated since 2025-03-26, still deployed), on `fetch`.
 *
 * Hand-written runtime copied unchanged into generated output.
 * Browser-safe: no `node:` imports; the global fetch (called as a plain function, as browsers require) or an
 * injected one.
 *
 * `start()` GETs the SSE URL and resolves when the server's first event, `endpoint`, names where to POST
 * (a URL on the same origin: anything else is refused, so a server cannot send the client's messages, and
 * its credentials, elsewhere). Each message is then one POST there; the server's messages arrive as `message`
 * events on the stream and go to the engine's single framing path (`ontext`, see core/frame.ts). The session is
 * the stream: when it ends the transport closes (a new GET would be a new, uninitialized session).
 *
 * An HTTP failure (of the GET or a POST) is a StreamableHttpError with the status and, for 401,
 * `WWW-Authenticate`, as on Streamable HTTP.
 */
import { StreamableHttpError, mediaType, toError } from '../http/common.js';
import { HEADER } from '../../peer/http-headers.js';
import { SseParser } from '../http/sse.js';
import { readFrame, type FrameReader } from '../../core/frame.js';
import { LocalError } from '../../core/jsonrpc.js';
import type { HttpClientAuth } from '../../auth/client/hook.js';
import type { JsonRpcFrame, MessageExtraInfo, Transport } from '../../core/transport.js';

export interface SseLegacyClientTransportOptions {
  /** Extra headers on every request, or a function producing them per request (a token provider). */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** The fetch to use. Default the global fetch. */
  fetch?: typeof fetch;
  /** How long `start()` waits for the endpoint event. Default 30000 ms. */
  connectTimeoutMs?: number;
  /**
   * Largest event accepted on the stream, in characters; a server sending more without ending the event
   * closes the transport. Default 10 Mi, above the engine's 4 MiB `maxFrameSize` (which the engine checks).
   */
  maxEventSize?: number;
  /**
   * OAuth 2.1 as the spec's Authorization chapter describes it: `auth: oauthClient({ … })` (from
   * `@mcp-typegen/runtime/auth`), as on Streamable HTTP. The stream's GET and every POST carry the token; one the
   * server refuses with 401 (or 403 `insufficient_scope`) runs the flow, then goes again.
   */
  auth?: HttpClientAuth;
}

/** Client side of HTTP+SSE: one GET stream for the server's messages, one POST per client message. */
export class SseLegacyClientTransport implements Transport {
  onmessage?: (message: JsonRpcFrame, extra?: MessageExtraInfo) => void;
  ontext?: ((text: string, extra?: MessageExtraInfo) => void) | undefined;
  readonly readFrame: FrameReader = readFrame;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;

  private readonly url: URL;
  private readonly options: SseLegacyClientTransportOptions;
  private readonly fetchImpl: typeof fetch;
  private abort: AbortController | undefined;
  private endpointUrl: URL | undefined;
  private protocolVersionValue: string | undefined;
  private closed = false;
  /** onclose has fired, or must not (the connection never opened). */
  private closeReported = false;

  constructor(url: string | URL, options: SseLegacyClientTransportOptions = {}) {
    this.url = new URL(url);
    this.options = options;
    const fetchImpl = options.fetch ?? fetch;
    // Called as a plain function: a browser's fetch throws 'Illegal invocation' as a method of another object.
    const plain: typeof fetch = (input, init) => fetchImpl(input, init);
    this.fetchImpl = options.auth?.fetch(plain, this.url) ?? plain;
  }

  /** Where messages are POSTed (from the endpoint event); undefined before `start()` resolves. */
  get endpoint(): URL | undefined {
    return this.endpointUrl;
  }

  /** The session id the endpoint names (`sessionId` query parameter), if any. */
  get sessionId(): string | undefined {
    return this.endpointUrl?.searchParams.get('sessionId') ?? undefined;
  }

  get protocolVersion(): string | undefined {
    return this.protocolVersionValue;
  }

  /** Sent as `MCP-Protocol-Version` on every POST once known (servers of later versions check it). */
  setProtocolVersion(version: string): void {
    this.protocolVersionValue = version;
  }

  /** Opens the stream; after close() (or a failed start), opens a new one. */
  async start(): Promise<void> {
    if (this.abort && !this.closed) throw new Error('SseLegacyClientTransport already started');
    this.closed = false;
    this.closeReported = false;
    this.endpointUrl = undefined;
    const abort = new AbortController();
    this.abort = abort;
    const timeoutMs = this.options.connectTimeoutMs ?? 30_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`No endpoint event from ${this.url.href} within ${timeoutMs} ms`));
        abort.abort();
      }, timeoutMs);
    });
    try {
      await Promise.race([this.open(abort), timedOut]);
    } catch (error) {
      // Never connected: nothing to report as closed.
      abort.abort();
      this.closed = true;
      this.closeReported = true;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async send(message: JsonRpcFrame): Promise<void> {
    const endpoint = this.endpointUrl;
    if (endpoint === undefined || this.closed) throw new Error('Not connected');
    const headers = await this.headers();
    headers.set('content-type', 'application/json');
    if (this.protocolVersionValue !== undefined) headers.set(HEADER.protocolVersion, this.protocolVersionValue);
    let response: Response;
    try {
      response = await this.fetchImpl(endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify(message),
        signal: this.abort?.signal ?? null,
      });
    } catch (error) {
      // A LocalError is the fetch's own verdict (the `auth` option's AuthorizationError): it reaches the caller as is.
      const wrapped =
        error instanceof LocalError
          ? error
          : new Error(`POST ${endpoint.href} failed: ${toError(error).message}`, { cause: error });
      this.onerror?.(wrapped);
      throw wrapped;
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      const error = new StreamableHttpError(
        response.status,
        `POST ${endpoint.href} answered HTTP ${response.status}${text ? `: ${text}` : ''}`,
        text,
        response.headers.get('www-authenticate') ?? undefined,
      );
      this.onerror?.(error);
      throw error;
    }
    await response.body?.cancel().catch(() => undefined);
  }

  /** Ends the stream (the server ends the session with it); onclose fires once. */
  async close(): Promise<void> {
    this.closed = true;
    this.abort?.abort();
    if (this.closeReported) return;
    this.closeReported = true;
    this.onclose?.();
  }

  // --- internals ------------------------------------------------------------------------------

  private async headers(): Promise<Headers> {
    const extra = typeof this.options.headers === 'function' ? await this.options.headers() : this.options.headers;
    return new Headers(extra);
  }

  /** GETs the stream and resolves once its endpoint event has arrived; the stream is read on after that. */
  private async open(abort: AbortController): Promise<void> {
    const headers = await this.headers();
    headers.set('accept', 'text/event-stream');
    const response = await this.fetchImpl(this.url, { method: 'GET', headers, signal: abort.signal });
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw new StreamableHttpError(
        response.status,
        `GET ${this.url.href} answered HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`,
        text,
        response.headers.get('www-authenticate') ?? undefined,
      );
    }
    const type = mediaType(response.headers.get('content-type'));
    const body = response.body;
    if (type !== 'text/event-stream' || body === null) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`GET ${this.url.href} is not an SSE stream (content type ${type || '(none)'})`);
    }
    const base = response.url === '' ? this.url : new URL(response.url);
    await new Promise<void>((resolve, reject) => {
      void this.read(body, base, resolve, reject);
    });
  }

  private async read(
    body: ReadableStream<Uint8Array>,
    base: URL,
    onEndpoint: () => void,
    onFailure: (error: Error) => void,
  ): Promise<void> {
    const maxEventSize = this.options.maxEventSize ?? 10 * 1024 * 1024;
    const connection = this.abort; // a stream of an earlier connection (closed, then started again) ends quietly
    let failure: Error | undefined;
    const parser = new SseParser((event) => {
      if (failure !== undefined) return;
      if (this.endpointUrl === undefined) {
        if (event.event !== 'endpoint') return; // nothing is addressed to us before the endpoint
        const endpoint = endpointOf(event.data, base);
        if (typeof endpoint === 'string') failure = new Error(endpoint);
        else {
          this.endpointUrl = endpoint;
          onEndpoint();
        }
        return;
      }
      if (event.event !== 'message') return;
      this.deliver(event.data);
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, { stream: true }));
        if (failure === undefined && parser.pending > maxEventSize) {
          failure = new Error(`An SSE event from ${this.url.href} exceeds ${maxEventSize} characters`);
        }
        if (failure !== undefined) {
          await reader.cancel().catch(() => undefined);
          break;
        }
      }
    } catch (error) {
      if (!this.closed) failure ??= new Error(`SSE stream disconnected: ${toError(error).message}`, { cause: error });
    }
    if (this.abort !== connection) return;
    if (this.endpointUrl === undefined) {
      onFailure(failure ?? new Error(`The SSE stream of ${this.url.href} ended before its endpoint event`));
      return;
    }
    if (this.closed) return;
    if (failure !== undefined) this.onerror?.(failure);
    await this.close();
  }

  private deliver(text: string): void {
    try {
      const ontext = this.ontext;
      if (ontext !== undefined) return ontext(text);
      let frame: JsonRpcFrame;
      try {
        frame = JSON.parse(text) as JsonRpcFrame;
      } catch {
        this.onerror?.(new Error(`Invalid JSON in an SSE message event: ${text.slice(0, 200)}`));
        return;
      }
      this.onmessage?.(frame);
    } catch (error) {
      this.onerror?.(toError(error));
    }
  }
}

/** The POST URL an endpoint event names, or why it is refused. */
function endpointOf(data: string, base: URL): URL | string {
  let url: URL;
  try {
    url = new URL(data.trim(), base);
  } catch {
    return `The endpoint event names no URL: ${JSON.stringify(data.slice(0, 200))}`;
  }
  if (url.origin !== base.origin) {
    return `The endpoint event names another origin (${url.origin}, stream on ${base.origin}): refused`;
  }
  return url;
}
