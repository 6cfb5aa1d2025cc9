/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * One POST of the sessionless era (2026-07-28 on) as a `Transport`, for the Streamable HTTP server
 * (endpoint.ts). Node only.
 */
import type { ServerResponse } from 'node:http';
import { isPlainObject, type RequestId } from '../../../core/jsonrpc.js';
import { formatSseEvent } from '../sse.js';
import { isRequest, isResponse, toError, type WireMessage } from '../common.js';
import { sseHeaders, statusOfError, type HttpMessageExtraInfo, type TransportErrorCodes } from './replies.js';
import type { JsonRpcFrame, Transport, TransportSendOptions } from '../../../core/transport.js';

/**
 * It carries exactly one request (or notification) to the engine and its answer back. The answer goes out as
 * `application/json` — with the status the transport document gives its error — unless notifications about
 * the request come first, which switch the response to an SSE stream. The transport closes once answered, or
 * when the client closes the response (which cancels the request: the engine aborts the handler and sends
 * nothing more).
 */
export class HttpRequestTransport implements Transport {
  onmessage?: (message: JsonRpcFrame, extra?: HttpMessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Always undefined: this era has no sessions. */
  readonly sessionId: undefined = undefined;
  readonly protocolVersion: string;
  private readonly res: ServerResponse;
  private readonly requestId: RequestId | undefined;
  private readonly sse: boolean;
  private readonly keepAliveMs: number;
  private readonly codes: TransportErrorCodes;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private streaming = false;
  private closed = false;

  /** @internal Created by createStreamableHttpServer. */
  constructor(
    res: ServerResponse,
    requestId: RequestId | undefined,
    protocolVersion: string,
    options: { sse: boolean; keepAliveMs: number; codes: TransportErrorCodes },
  ) {
    this.res = res;
    this.requestId = requestId;
    this.protocolVersion = protocolVersion;
    this.sse = options.sse;
    this.keepAliveMs = options.keepAliveMs;
    this.codes = options.codes;
    res.once('close', this.onResponseClosed);
    // The client may have gone before this POST was read to the end: that is a cancellation too.
    if (res.destroyed) queueMicrotask(() => void this.close());
  }

  async start(): Promise<void> {}

  get isClosed(): boolean {
    return this.closed;
  }

  async send(message: JsonRpcFrame, _options?: TransportSendOptions): Promise<void> {
    if (this.closed) throw new Error('Not connected: the request is finished');
    if (Array.isArray(message)) throw new Error('Batches are not part of this protocol version');
    if (isResponse(message)) {
      if (message.id !== this.requestId && message.id !== null && message.id !== undefined) {
        throw new Error(`No open request with id ${JSON.stringify(message.id)} on this POST`);
      }
      return this.finish(message);
    }
    // The server must not send requests of its own on a response stream in this era (input requests ride in
    // results instead); notifications about the request are fine, on an SSE stream.
    if (isRequest(message)) throw new Error('A server cannot send requests over Streamable HTTP in this version');
    if (!this.sse || this.requestId === undefined) return; // JSON answer only: request-scoped notifications drop
    this.openStream();
    this.res.write(formatSseEvent({ event: 'message', data: JSON.stringify(message) }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.res.off('close', this.onResponseClosed);
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
    if (!this.res.headersSent) this.res.writeHead(this.requestId === undefined ? 202 : 204).end();
    else if (!this.res.writableEnded) this.res.end();
    this.onclose?.();
  }

  /** @internal Hands the POST's message to the engine. */
  deliver(message: unknown, extra: HttpMessageExtraInfo): void {
    try {
      this.onmessage?.(message as JsonRpcFrame, extra);
    } catch (error) {
      this.onerror?.(toError(error));
    }
  }

  private openStream(): void {
    if (this.streaming) return;
    this.streaming = true;
    this.res.writeHead(200, sseHeaders());
    this.res.flushHeaders?.();
    if (this.keepAliveMs > 0) {
      this.keepAlive = setInterval(() => void this.res.write(':\n\n'), this.keepAliveMs);
      this.keepAlive.unref?.();
    }
  }

  private finish(message: WireMessage): void {
    if (this.streaming) {
      this.res.write(formatSseEvent({ event: 'message', data: JSON.stringify(message) }));
    } else if (!this.res.headersSent) {
      const error = 'error' in message && isPlainObject(message.error) ? message.error : undefined;
      const status = error === undefined ? 200 : statusOfError(error, this.codes);
      this.res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(message));
    }
    void this.close();
  }

  /** The client closed the response before the answer: that cancels the request. */
  private readonly onResponseClosed = (): void => {
    if (!this.res.writableFinished) void this.close();
  };
}
