/**
 * The transport contract the JSON-RPC peer runs over, and an in-memory pair for tests and in-process use.
 *
 * Hand-written runtime copied unchanged into generated output. The interface is
 * structurally compatible with the official MCP SDK's `Transport`, so its stdio and Streamable HTTP
 * transports plug in unchanged. Keep it minimal: other transports are written against it.
 */
import { readFrame, type FrameReader } from './frame.js';
import { isSealed, oversize } from './json-size.js';
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
  /** HTTP transports add these headers to this message's request (the `Mcp-Param-*` of a tools/call). */
  headers?: Record<string, string> | undefined;
  onresumptiontoken?: ((token: string) => void) | undefined;
}

/** Extra information a transport attaches to a received message (the SDK's `MessageExtraInfo`). */
export interface MessageExtraInfo {
  requestInfo?: { headers: { [name: string]: string | string[] | undefined }; url?: URL | undefined } | undefined;
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
  /**
   * Set by the engine when it reads frames itself: a transport that receives text (stdio lines, in-memory
   * text) hands each frame's raw text here instead of parsing it, so every transport answers an invalid frame
   * the same way (see frame.ts). Transports that parse (HTTP, SDK transports) ignore it and call onmessage.
   */
  ontext?: ((text: string, extra?: MessageExtraInfo) => void) | undefined;
  /**
   * Text transports bring the reader (frame.ts's `readFrame`): an engine reads text frames with it, so one that
   * never meets text (a client on Streamable HTTP) bundles none of it. RpcPeer reads text without it.
   */
  readonly readFrame?: FrameReader | undefined;
  /**
   * A transport that sends each frame as its JSON text (stdio) measures it: the frame's UTF-8 size if it exceeds
   * `limit`, else undefined, found by serializing it, and that text is then sent. Without it the engine bounds
   * the size by walking the message (json-size.ts), which costs about as much as serializing it once more.
   */
  readonly measureFrame?: ((frame: JsonRpcFrame, limit: number) => number | undefined) | undefined;
  /** Invoked once when the connection closes for any reason, including `close()`. */
  onclose?: (() => void) | undefined;
  /** Out-of-band, not necessarily fatal, errors. */
  onerror?: ((error: Error) => void) | undefined;
  sessionId?: string | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
}

/**
 * A frame's UTF-8 size if it exceeds `limit`, else undefined (throws if unserializable): measured by the transport
 * when it serializes frames (it sends that very text), else bounded by walking the frame.
 */
export function frameOversize(transport: Transport, frame: JsonRpcFrame, limit: number): number | undefined {
  return transport.measureFrame ? transport.measureFrame(frame, limit) : oversize(frame, limit);
}

export interface InMemoryPairOptions {
  /**
   * Copy every message as a JSON round trip would, so the peers never share objects and see what a wire
   * would carry (undefined members dropped, no class instances, NaN as null). Default true; false passes
   * the sender's objects through (benchmarks).
   */
  clone?: boolean;
}

/** Two linked transports: what one sends, the other receives (asynchronously, in order). */
export function createInMemoryPair(options: InMemoryPairOptions = {}): [InMemoryTransport, InMemoryTransport] {
  const clone = options.clone ?? true;
  const a = new InMemoryTransport(clone);
  const b = new InMemoryTransport(clone);
  a.other = b;
  b.other = a;
  return [a, b];
}

/** One end of an in-memory pair. */
export class InMemoryTransport implements Transport {
  other: InMemoryTransport | undefined;
  onmessage?(message: JsonRpcFrame, extra?: MessageExtraInfo): void;
  ontext?: ((text: string, extra?: MessageExtraInfo) => void) | undefined;
  readonly readFrame: FrameReader = readFrame;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  sessionId?: string | undefined;
  private started = false;
  private closed = false;
  /** Messages that arrived before `start()`; delivered by it, like a socket's buffer. */
  private backlog: Array<JsonRpcFrame | { text: string }> = [];

  private readonly clone: boolean;

  constructor(clone: boolean) {
    this.clone = clone;
  }

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
    const copy = (this.clone ? jsonCopy(message) : message) as JsonRpcFrame;
    queueMicrotask(() => other.receive(copy));
  }

  /**
   * Hands `text` to the other side as one received frame, as a wire would (invalid JSON included): for tests
   * that feed the engine what a byte stream can carry.
   */
  async sendText(text: string): Promise<void> {
    const other = this.other;
    if (this.closed || other === undefined) throw new Error('Transport closed');
    queueMicrotask(() => other.receive({ text }));
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

  private receive(message: JsonRpcFrame | { text: string }): void {
    if (this.closed) return;
    if (this.started) this.deliver(message);
    else this.backlog.push(message);
  }

  private deliver(message: JsonRpcFrame | { text: string }): void {
    try {
      if (!isText(message)) this.onmessage?.(message);
      else if (this.ontext !== undefined) this.ontext(message.text);
      else this.onmessage?.(JSON.parse(message.text) as JsonRpcFrame);
    } catch (error) {
      // A throwing receiver must not break the sender's microtask queue.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

function isText(message: JsonRpcFrame | { text: string }): message is { text: string } {
  return !Array.isArray(message) && typeof (message as { text?: unknown }).text === 'string' && !('jsonrpc' in message);
}

/**
 * What `JSON.parse(JSON.stringify(value))` returns, several times faster for the plain objects, arrays and
 * primitives messages are made of; anything else (class instances, toJSON, BigInt) takes the real round trip.
 */
export function jsonCopy(value: unknown, depth = 0): unknown {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case 'string':
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      return JSON.parse(JSON.stringify(value) ?? 'null');
  }
  // Null, or frozen JSON data the runtime built itself (json-size.ts): what a copy would be, and never changed.
  if (value === null || isSealed(value)) return value;
  // Deep (or circular) values: let JSON decide, and throw as it does.
  if (depth > 64) return JSON.parse(JSON.stringify(value));
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      out[i] =
        item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : jsonCopy(item, depth + 1);
    }
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return JSON.parse(JSON.stringify(value));
  }
  const out: { [key: string]: unknown } = {};
  for (const key of Object.keys(value)) {
    const item = (value as { [key: string]: unknown })[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    // defineProperty, not assignment: a "__proto__" key must stay data, as JSON.parse keeps it.
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value: jsonCopy(item, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = jsonCopy(item, depth + 1);
  }
  return out;
}
