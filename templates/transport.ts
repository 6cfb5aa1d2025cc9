/**
 * The transport contract the JSON-RPC peer runs over, and an in-memory pair for tests and in-process use.
 *
 * Hand-written runtime copied unchanged into generated output (as `runtime/transport.ts`). The interface is
 * structurally compatible with the official MCP SDK's `Transport`, so its stdio and Streamable HTTP
 * transports plug in unchanged. Keep it minimal: other transports are written against it.
 */
import type { JsonRpcErrorObject, JsonRpcMessage, RequestId } from './jsonrpc.js';

/**
 * What a transport may send in one frame: a message, or (2025-03-26 only) a batch of them. The SDK types an
 * error response's id as optional where JSON-RPC says nullable; accepting both keeps SDK transports assignable.
 */
export type JsonRpcFrame = WireMessage | WireMessage[];
type WireMessage = JsonRpcMessage | { jsonrpc: '2.0'; id?: RequestId | null; error: JsonRpcErrorObject };

/** Options for `Transport.send` (the SDK's `TransportSendOptions`). */
export interface TransportSendOptions {
  /** The incoming request this message belongs to, so HTTP transports can route it to that request's stream. */
  relatedRequestId?: RequestId | undefined;
  resumptionToken?: string | undefined;
  onresumptiontoken?: ((token: string) => void) | undefined;
}

/** Extra information a transport attaches to a received message (the SDK's `MessageExtraInfo`). */
export interface MessageExtraInfo {
  requestInfo?: { headers: { [name: string]: string | string[] | undefined }; url?: URL } | undefined;
  authInfo?: { token: string; clientId: string; scopes: string[]; [key: string]: unknown } | undefined;
}

export interface Transport {
  /** Begins delivering messages; install the callbacks first, or messages may be lost. */
  start(): Promise<void>;
  send(message: JsonRpcFrame, options?: TransportSendOptions): Promise<void>;
  close(): Promise<void>;
  /**
   * Invoked for every frame received. Method syntax (bivariant) keeps SDK transports, whose callback takes
   * the SDK's own message type, assignable. Receivers must not trust the shape: validate it.
   */
  onmessage?(message: JsonRpcFrame, extra?: MessageExtraInfo): void;
  /** Invoked once when the connection closes for any reason, including `close()`. */
  onclose?: (() => void) | undefined;
  /** Out-of-band, not necessarily fatal, errors. */
  onerror?: ((error: Error) => void) | undefined;
  sessionId?: string | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
}

export interface InMemoryPairOptions {
  /**
   * JSON round-trip every message so the peers never share objects and see exactly what a wire would carry
   * (undefined members dropped, no class instances). Default true; false passes objects through (benchmarks).
   */
  clone?: boolean;
}

/** Two linked transports: what one sends, the other receives (asynchronously, in order). */
export function createInMemoryPair(options: InMemoryPairOptions = {}): [Transport, Transport] {
  const clone = options.clone ?? true;
  const a = new InMemoryTransport(clone);
  const b = new InMemoryTransport(clone);
  a.other = b;
  b.other = a;
  return [a, b];
}

class InMemoryTransport implements Transport {
  other: InMemoryTransport | undefined;
  onmessage?(message: JsonRpcFrame, extra?: MessageExtraInfo): void;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  sessionId?: string | undefined;
  private started = false;
  private closed = false;
  /** Messages that arrived before `start()`; delivered by it, like a socket's buffer. */
  private backlog: JsonRpcFrame[] = [];

  constructor(private readonly clone: boolean) {}

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const backlog = this.backlog;
    this.backlog = [];
    for (const message of backlog) this.deliver(message);
  }

  async send(message: JsonRpcFrame): Promise<void> {
    const other = this.other;
    if (this.closed || other === undefined) throw new Error('Transport closed');
    // Serialize now (not at delivery) so later mutation by the sender cannot leak through.
    const copy = (this.clone ? JSON.parse(JSON.stringify(message)) : message) as JsonRpcFrame;
    queueMicrotask(() => other.receive(copy));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const other = this.other;
    this.other = undefined;
    this.onclose?.();
    // Queued after any message already in flight, so the other side sees them before its close.
    if (other !== undefined) queueMicrotask(() => void other.close());
  }

  private receive(message: JsonRpcFrame): void {
    if (this.closed) return;
    if (this.started) this.deliver(message);
    else this.backlog.push(message);
  }

  private deliver(message: JsonRpcFrame): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      // A throwing receiver must not break the sender's microtask queue.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
