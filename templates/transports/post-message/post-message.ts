/**
 * JSON-RPC over `postMessage`: the transport extension channels (MCP Apps) run on. Two modes:
 *
 * - a port: a MessagePort of a MessageChannel, or a worker. Only the two ends hold it, so every message
 *   on it is the peer's.
 * - a window: an iframe and its parent. Every frame on the page can post to a window, and a frame can
 *   navigate to another origin while its window object stays the same, so a window channel is told who
 *   its peer is — the peer's window (`source`) and the origins it may be at (`origins`) — and reads only
 *   messages whose `event.source` is that window and whose `event.origin` is one of those origins. It posts
 *   to its first origin, never to `*`, unless told that the peer's origin is opaque (a sandboxed frame
 *   without `allow-same-origin`, whose origin is `"null"` and cannot be targeted).
 *
 * A message from elsewhere is dropped and reported once per origin through `onerror` (a peer's
 * diagnostics). Hand-written runtime copied into generated output. Browser-safe.
 */
import type { JsonRpcFrame, Transport } from '../../core/transport.js';

/** Something `postMessage` works on: a MessagePort, a Worker, a window. */
export interface PostMessageTarget {
  postMessage(message: unknown, ...rest: never[]): void;
}

/** What a `message` event carries (a window's adds `source` and `origin`). */
export interface PostMessageEvent {
  data: unknown;
  source?: unknown;
  origin?: string;
}

/** Where messages arrive: the port itself, or the receiving window. */
export interface MessageEventSourceLike {
  addEventListener(type: 'message', listener: (event: PostMessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: PostMessageEvent) => void): void;
  /** MessagePort: messages queue until started. */
  start?(): void;
}

/** A port or worker: nothing to configure but whether close() closes it. */
export interface PortTransportOptions {
  /** Close the port on close() (default true for a target that has `close`). */
  closeTarget?: boolean;
}

/** A window channel: where messages arrive, and who the peer is. */
export interface WindowTransportOptions {
  /** The window messages arrive on: your own `window`. */
  listenOn: MessageEventSourceLike;
  /**
   * The peer's window: `iframe.contentWindow` for a host, `window.parent` for a view. Required: a message
   * whose `event.source` is another window (another frame on the page) is dropped.
   */
  source: unknown;
  /**
   * The exact origins the peer may be at (`https://app.example`, no `*`, no path). A message from another
   * origin — a peer frame that navigated elsewhere — is dropped; messages are posted to the first.
   */
  origins: readonly string[];
  /**
   * The peer's origin is opaque (a sandboxed iframe without `allow-same-origin`): its messages, whose
   * `event.origin` is `"null"`, are accepted from `source`, and messages are posted to `*` (the only target
   * an opaque origin has). Only the source check protects such a channel; `origins` may then be empty.
   */
  opaqueOrigin?: boolean;
}

export type PostMessageTransportOptions = PortTransportOptions | WindowTransportOptions;

const isWindowMode = (options: PostMessageTransportOptions): options is WindowTransportOptions =>
  'listenOn' in options && options.listenOn !== undefined;

/** A window channel must name its peer: the window, and origins as `new URL(...).origin` writes them. */
function checkOrigins(options: WindowTransportOptions): void {
  if (!('source' in options) || options.source === undefined || options.source === null) {
    throw new TypeError(
      'PostMessageTransport: a window channel needs `source`, the peer window (iframe.contentWindow for a host, window.parent for a view)',
    );
  }
  for (const origin of options.origins) {
    if (origin === '*' || origin === 'null' || !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]+$/i.test(origin)) {
      throw new TypeError(
        `PostMessageTransport: "${origin}" is not an origin; give the peer's exact origins, e.g. "https://app.example"${origin === '*' || origin === 'null' ? ' (for a sandboxed peer set opaqueOrigin: true)' : ''}`,
      );
    }
  }
  if (options.origins.length === 0 && options.opaqueOrigin !== true) {
    throw new TypeError(
      "PostMessageTransport: a window channel needs `origins`, the peer's exact origins (or opaqueOrigin: true for a sandboxed peer)",
    );
  }
}

/**
 * JSON-RPC over `postMessage`, each message posted as a structured-clone object (what the ext-apps
 * PostMessageTransport sends). Structurally an MCP SDK Transport, so SDK peers run on it too.
 */
export class PostMessageTransport implements Transport {
  onmessage?(message: JsonRpcFrame): void;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  readonly #target: PostMessageTarget;
  readonly #options: PostMessageTransportOptions;
  readonly #listenOn: MessageEventSourceLike;
  readonly #reported = new Set<string>();
  #closed = false;

  constructor(target: PostMessageTarget, options: PostMessageTransportOptions = {}) {
    if (isWindowMode(options)) checkOrigins(options);
    this.#target = target;
    this.#options = options;
    this.#listenOn = isWindowMode(options) ? options.listenOn : (target as unknown as MessageEventSourceLike);
  }

  readonly #listener = (event: PostMessageEvent): void => {
    const refused = this.#refusal(event);
    if (refused !== undefined) {
      this.#report(refused, event.origin ?? '');
      return;
    }
    const data = event.data;
    // Other traffic on a shared window (not JSON-RPC) is none of this channel's business.
    const jsonRpc = Array.isArray(data) || (typeof data === 'object' && data !== null && 'jsonrpc' in data);
    if (jsonRpc) this.onmessage?.(data as JsonRpcFrame);
  };

  /** Why a window channel drops this message, or undefined when it is the peer's. */
  #refusal(event: PostMessageEvent): string | undefined {
    const options = this.#options;
    if (!isWindowMode(options)) return undefined;
    if (event.source !== options.source) return 'another window';
    const origin = event.origin ?? '';
    if (options.origins.includes(origin)) return undefined;
    if (options.opaqueOrigin === true && origin === 'null') return undefined;
    return `an origin not in ${options.origins.length > 0 ? options.origins.join(', ') : '(none)'}`;
  }

  /** One error per origin and reason: a page that keeps posting must not flood the diagnostics. */
  #report(reason: string, origin: string): void {
    const key = `${reason}\n${origin}`;
    if (this.#reported.has(key)) return;
    this.#reported.add(key);
    this.onerror?.(
      new Error(`PostMessageTransport: dropped a message from ${origin || 'an unknown origin'} (${reason})`),
    );
  }

  async start(): Promise<void> {
    this.#checkParentOrigin();
    this.#listenOn.addEventListener('message', this.#listener);
    this.#listenOn.start?.();
  }

  /**
   * A view whose parent is at an origin it does not allow would post into the void (the browser drops a
   * message whose target origin does not match) and wait for its timeout: it fails here instead, naming
   * the parent's origin, where the browser tells it (`location.ancestorOrigins`).
   */
  #checkParentOrigin(): void {
    const options = this.#options;
    if (!isWindowMode(options) || options.opaqueOrigin === true) return;
    const own = options.listenOn as { parent?: unknown; location?: { ancestorOrigins?: ArrayLike<string> } };
    if (own.parent === undefined || own.parent === own || options.source !== own.parent) return;
    const parentOrigin = own.location?.ancestorOrigins?.[0];
    if (parentOrigin !== undefined && !options.origins.includes(parentOrigin)) {
      throw new Error(
        `PostMessageTransport: the parent window is at ${parentOrigin}, which is not one of the allowed origins (${options.origins.join(', ')})`,
      );
    }
  }

  async send(message: JsonRpcFrame): Promise<void> {
    if (this.#closed) throw new Error('PostMessageTransport: closed');
    const options = this.#options;
    if (!isWindowMode(options)) {
      this.#target.postMessage(message);
      return;
    }
    // An opaque origin cannot be targeted: `*`, with the source check alone guarding what comes back.
    const targetOrigin = options.opaqueOrigin === true ? '*' : (options.origins[0] ?? '*');
    (this.#target.postMessage as (m: unknown, origin: string) => void)(message, targetOrigin);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listenOn.removeEventListener('message', this.#listener);
    const options = this.#options;
    const closable = this.#target as { close?: () => void };
    if (!isWindowMode(options) && (options.closeTarget ?? true) && typeof closable.close === 'function') {
      closable.close();
    }
    this.onclose?.();
  }
}
