/**
 * Extension channels: a JSON-RPC session that is not an MCP client↔server session and opens with the
 * extension's own handshake instead of `initialize` (MCP Apps: the view sends `ui/initialize` to its
 * host, then `ui/notifications/initialized`, over `postMessage`). Each end is a typed RpcPeer; the
 * generated code names the ends and the handshake from the extension file.
 *
 * Also the transport such channels run over: `postMessage` on a MessagePort (MessageChannel, workers)
 * or on a window (an iframe and its parent).
 *
 * Hand-written runtime copied into generated output as `runtime/channel.ts`. Browser-safe.
 */
import { ErrorCode, ProtocolError, type NotificationTable, type ParamsArgs, type RequestTable } from './jsonrpc.js';
import { RpcPeer, type HandlerContext, type PeerOptions, type RequestHandler, type RequestOptions } from './peer.js';
import type { JsonRpcFrame, Transport } from './transport.js';

/** What the extension file declares about its channel (from the generated code). */
export interface ChannelDescription {
  /** The extension that declares the channel. */
  readonly extension: string;
  /** The request the client end sends first, instead of `initialize`. */
  readonly handshake: string;
  /** The notification the client end sends once the handshake is answered, if any. */
  readonly initialized?: string | undefined;
}

/**
 * The end that opens the channel (MCP Apps: the view). `connect(params)` starts the transport, sends the
 * handshake request and, once answered, the `initialized` notification; it never sends `initialize`.
 */
export class ChannelClient<
  OutRequests extends RequestTable<OutRequests>,
  OutNotifications extends NotificationTable<OutNotifications>,
  InRequests extends RequestTable<InRequests>,
  InNotifications extends NotificationTable<InNotifications>,
  Handshake extends keyof OutRequests & string,
> extends RpcPeer<OutRequests, OutNotifications, InRequests, InNotifications> {
  readonly channel: ChannelDescription;
  /** The handshake's answer, once connected. */
  handshakeResult: OutRequests[Handshake]['result'] | undefined;

  constructor(
    transport: Transport,
    channel: ChannelDescription,
    options: PeerOptions<OutRequests, OutNotifications> = {},
  ) {
    super(transport, options);
    this.channel = channel;
  }

  async connect(
    ...args: ParamsArgs<OutRequests[Handshake], [options?: RequestOptions | undefined]>
  ): Promise<OutRequests[Handshake]['result']> {
    await this.start();
    const send = this.request as (method: string, ...rest: unknown[]) => Promise<OutRequests[Handshake]['result']>;
    const result = await send.call(this, this.channel.handshake, ...args);
    this.handshakeResult = result;
    const initialized = this.channel.initialized;
    if (initialized !== undefined)
      await (this.notify as unknown as (method: string) => Promise<void>).call(this, initialized);
    return result;
  }
}

/**
 * The end that answers the handshake (MCP Apps: the host). Until its handshake handler has answered,
 * every request but the handshake and `ping` is refused with -32600 naming the handshake to send.
 */
export class ChannelServer<
  OutRequests extends RequestTable<OutRequests>,
  OutNotifications extends NotificationTable<OutNotifications>,
  InRequests extends RequestTable<InRequests>,
  InNotifications extends NotificationTable<InNotifications>,
> extends RpcPeer<OutRequests, OutNotifications, InRequests, InNotifications> {
  readonly channel: ChannelDescription;
  /** True once the handshake has been answered. */
  opened = false;

  constructor(
    transport: Transport,
    channel: ChannelDescription,
    options: PeerOptions<OutRequests, OutNotifications> = {},
  ) {
    super(transport, options);
    this.channel = channel;
    const userGate = options.beforeRequest;
    this.beforeRequest = (method, params, ctx) => {
      if (!this.opened && method !== channel.handshake && method !== 'ping') {
        return new ProtocolError(ErrorCode.InvalidRequest, `Channel not open: send "${channel.handshake}" first`);
      }
      return userGate?.(method, params, ctx);
    };
  }

  override setRequestHandler<M extends keyof InRequests & string>(
    method: M,
    handler: RequestHandler<InRequests[M], HandlerContext<OutRequests, OutNotifications>>,
  ): void {
    if (method !== this.channel.handshake) return super.setRequestHandler(method, handler);
    // The channel opens when the handshake handler has answered (not when it throws).
    const opening: typeof handler = async (params, ctx) => {
      const result = await handler(params, ctx);
      this.opened = true;
      return result;
    };
    super.setRequestHandler(method, opening);
  }
}

/** Something `postMessage` works on: a MessagePort, a Worker, a window. */
export interface PostMessageTarget {
  postMessage(message: unknown, ...rest: never[]): void;
}

/** Where messages arrive: the port itself, or the receiving window. */
export interface MessageEventSourceLike {
  addEventListener(type: 'message', listener: (event: { data: unknown; source?: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown; source?: unknown }) => void): void;
  /** MessagePort: messages queue until started. */
  start?(): void;
}

export interface PostMessageTransportOptions {
  /** Where to listen; default the target itself (a MessagePort). For an iframe or its parent: `window`. */
  listenOn?: MessageEventSourceLike;
  /** Accept only messages whose `event.source` is this (the other window); default any. */
  source?: unknown;
  /** Passed to `window.postMessage` as its target origin; leave out for ports and workers. */
  targetOrigin?: string;
  /** Close the port on close() (default true for a target that has `close`). */
  closeTarget?: boolean;
}

/**
 * JSON-RPC over `postMessage`, each message posted as a structured-clone object (what the ext-apps
 * PostMessageTransport sends): a MessagePort of a MessageChannel (Node and browsers), a worker, or a window
 * with `listenOn`/`source`/`targetOrigin`. Structurally an MCP SDK Transport, so SDK peers run on it too.
 */
export class PostMessageTransport implements Transport {
  onmessage?(message: JsonRpcFrame): void;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  readonly #target: PostMessageTarget;
  readonly #options: PostMessageTransportOptions;
  readonly #listenOn: MessageEventSourceLike;
  #closed = false;

  constructor(target: PostMessageTarget, options: PostMessageTransportOptions = {}) {
    this.#target = target;
    this.#options = options;
    this.#listenOn = options.listenOn ?? (target as unknown as MessageEventSourceLike);
  }

  readonly #listener = (event: { data: unknown; source?: unknown }): void => {
    if (this.#options.source !== undefined && event.source !== this.#options.source) return;
    const data = event.data;
    // Other traffic on a shared window (not JSON-RPC) is none of this channel's business.
    const jsonRpc = Array.isArray(data) || (typeof data === 'object' && data !== null && 'jsonrpc' in data);
    if (jsonRpc) this.onmessage?.(data as JsonRpcFrame);
  };

  async start(): Promise<void> {
    this.#listenOn.addEventListener('message', this.#listener);
    this.#listenOn.start?.();
  }

  async send(message: JsonRpcFrame): Promise<void> {
    if (this.#closed) throw new Error('PostMessageTransport: closed');
    if (this.#options.targetOrigin === undefined) this.#target.postMessage(message);
    else (this.#target.postMessage as (m: unknown, origin: string) => void)(message, this.#options.targetOrigin);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listenOn.removeEventListener('message', this.#listener);
    const closable = this.#target as { close?: () => void };
    if (
      (this.#options.closeTarget ?? true) &&
      typeof closable.close === 'function' &&
      this.#options.listenOn === undefined
    )
      closable.close();
    this.onclose?.();
  }
}
