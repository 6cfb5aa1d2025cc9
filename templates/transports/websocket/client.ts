/**
 * WebSocket transport, client side: one JSON-RPC message per text frame, subprotocol `mcp` (what the official
 * SDK's WebSocketClientTransport speaks).
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe: it
 * runs on a WHATWG WebSocket constructor, by default the global one (browsers, Deno, Bun, Node 22+). Node 20
 * has none without a flag: pass one (`undici`'s `WebSocket`, or the `ws` package's).
 *
 * Received text goes to the engine's single framing path (`ontext`, see core/frame.ts), so a WebSocket peer gets
 * the same size limit and the same answers to invalid frames as a stdio peer. Binary frames are not MCP: the
 * connection is closed with 1003 (unsupported data).
 */
import { readFrame, type FrameReader } from '../../core/frame.js';
import type { JsonRpcFrame, MessageExtraInfo, Transport } from '../../core/transport.js';

/** The subprotocol both sides name in the handshake. */
export const WEBSOCKET_SUBPROTOCOL = 'mcp';

/** Close codes of RFC 6455 this runtime uses. */
export const WebSocketCloseCode = {
  Normal: 1000,
  GoingAway: 1001,
  UnsupportedData: 1003,
  NoStatus: 1005,
  PolicyViolation: 1008,
  MessageTooBig: 1009,
  InternalError: 1011,
} as const;

/** The part of a WHATWG WebSocket this transport uses (browsers', undici's and ws's all fit). */
export interface WebSocketLike {
  readonly readyState: number;
  /** The subprotocol the server selected ('' when none). */
  readonly protocol: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error' | 'message', listener: (event: any) => void): void;
}

/** A WebSocket class: `new (url, protocols)`. */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocketLike;

export interface WebSocketClientTransportOptions {
  /** The WebSocket class to use. Default `globalThis.WebSocket` (absent on Node 20: pass one). */
  WebSocket?: WebSocketConstructor | undefined;
}

/** WebSocket `readyState` values. */
const OPEN = 1;

/** Client side of the WebSocket transport. `start()` resolves once the handshake selected `mcp`. */
export class WebSocketClientTransport implements Transport {
  onmessage?: (message: JsonRpcFrame, extra?: MessageExtraInfo) => void;
  ontext?: ((text: string, extra?: MessageExtraInfo) => void) | undefined;
  readonly readFrame: FrameReader = readFrame;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;

  private readonly url: URL;
  private readonly WebSocketImpl: WebSocketConstructor | undefined;
  private socket: WebSocketLike | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;
  private resolveClosed: () => void = () => {};

  constructor(url: string | URL, options: WebSocketClientTransportOptions = {}) {
    this.url = new URL(url);
    this.WebSocketImpl = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  }

  /** Opens the connection; after close() (or the server closing it), opens a new one. */
  async start(): Promise<void> {
    if (this.socket !== undefined && !this.closed) throw new Error('WebSocketClientTransport already started');
    this.closed = false;
    this.closing = undefined;
    const WebSocketImpl = this.WebSocketImpl;
    if (WebSocketImpl === undefined) {
      throw new Error(
        'No WebSocket class: this platform has no global WebSocket (Node 20); pass one as options.WebSocket',
      );
    }
    const socket = new WebSocketImpl(this.url.href, [WEBSOCKET_SUBPROTOCOL]);
    this.socket = socket;
    await new Promise<void>((resolve, reject) => {
      let opened = false;
      socket.addEventListener('open', () => {
        opened = true;
        if (socket.protocol !== WEBSOCKET_SUBPROTOCOL) {
          socket.close(WebSocketCloseCode.PolicyViolation, 'subprotocol mcp required');
          reject(new Error(`WebSocket server at ${this.url.href} did not select the subprotocol "mcp"`));
          return;
        }
        resolve();
      });
      socket.addEventListener('error', (event: { error?: unknown; message?: unknown }) => {
        const error = errorOf(event, `WebSocket ${this.url.href} failed`);
        if (!opened) reject(error);
        else this.onerror?.(error);
      });
      socket.addEventListener('close', (event: { code?: unknown; reason?: unknown }) => {
        if (!opened) reject(new Error(`WebSocket ${this.url.href} closed before opening (${describeClose(event)})`));
        else if (this.socket === socket) this.finish(event); // not a connection replaced since
      });
      socket.addEventListener('message', (event: { data?: unknown }) => {
        if (this.socket === socket) this.receive(event.data);
      });
    });
  }

  async send(message: JsonRpcFrame): Promise<void> {
    const socket = this.socket;
    if (socket === undefined || this.closed || socket.readyState !== OPEN) throw new Error('Not connected');
    socket.send(JSON.stringify(message));
  }

  /** Closes the connection (1000) and resolves once it is closed; onclose fires once. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closing ??= new Promise<void>((resolve) => {
      this.resolveClosed = resolve;
      const socket = this.socket;
      if (socket === undefined) return this.finish(undefined);
      try {
        socket.close(WebSocketCloseCode.Normal);
      } catch {
        this.finish(undefined);
      }
    });
    return this.closing;
  }

  private receive(data: unknown): void {
    if (this.closed) return;
    if (typeof data !== 'string') {
      this.onerror?.(new Error('Received a binary WebSocket frame; MCP messages are text frames'));
      this.socket?.close(WebSocketCloseCode.UnsupportedData, 'MCP messages are text frames');
      return;
    }
    const ontext = this.ontext;
    if (ontext !== undefined) return ontext(data);
    let frame: JsonRpcFrame;
    try {
      frame = JSON.parse(data) as JsonRpcFrame;
    } catch {
      this.onerror?.(new Error(`Invalid JSON in a WebSocket frame: ${data.slice(0, 200)}`));
      return;
    }
    this.onmessage?.(frame);
  }

  private finish(event: { code?: unknown; reason?: unknown } | undefined): void {
    if (this.closed) return;
    this.closed = true;
    const code = event?.code;
    if (typeof code === 'number' && !isNormalClose(code) && this.closing === undefined) {
      this.onerror?.(new Error(`WebSocket closed by the server (${describeClose(event ?? {})})`));
    }
    this.onclose?.();
    this.resolveClosed();
  }
}

/**
 * A close the peer meant (normal, or going away), not a failure. A function, not a module constant: a bundle
 * without the WebSocket transport then keeps none of it.
 */
function isNormalClose(code: number): boolean {
  return code === WebSocketCloseCode.Normal || code === WebSocketCloseCode.GoingAway;
}

function describeClose(event: { code?: unknown; reason?: unknown }): string {
  const reason = typeof event.reason === 'string' && event.reason !== '' ? `: ${event.reason}` : '';
  return `code ${String(event.code ?? 'unknown')}${reason}`;
}

/** The error an 'error' event carries, as an Error whose message names the URL (WHATWG events carry none). */
function errorOf(event: { error?: unknown; message?: unknown }, context: string): Error {
  const cause = event.error;
  const detail =
    cause instanceof Error && cause.message !== ''
      ? cause.message
      : typeof event.message === 'string'
        ? event.message
        : '';
  return new Error(detail === '' ? context : `${context}: ${detail}`, { cause });
}
