/**
 * Extension channels: a JSON-RPC session that is not an MCP client↔server session and opens with the
 * extension's own handshake instead of `initialize` (MCP Apps: the view sends `ui/initialize` to its
 * host, then `ui/notifications/initialized`, over `postMessage`). Each end is a typed RpcPeer; the
 * generated code names the ends and the handshake from the extension file.
 *
 * The transport such channels run over is transports/post-message/post-message.ts. Each end checks what it
 * receives as every MCP server does: params against the generated validators of the methods it receives
 * (-32602 with the pointer), frames against `maxFrameSize`, and (channel-frames.ts) structured-clone values
 * JSON cannot carry; and each end answers `ping`.
 *
 * Hand-written runtime copied into generated output. Browser-safe.
 */
import {
  ErrorCode,
  ProtocolError,
  errorResponse,
  type NotificationTable,
  type ParamsArgs,
  type RequestTable,
} from '../core/jsonrpc.js';
import {
  RpcPeer,
  type HandlerContext,
  type NotificationHandler,
  type PeerOptions,
  type RequestHandler,
  type RequestOptions,
} from '../core/peer.js';
import { refusal } from './channel-frames.js';
import { paramsIssue, type CompiledValidator } from './validation.js';
import type { MessageExtraInfo, Transport } from '../core/transport.js';

/** What the extension file declares about its channel (from the generated code). */
export interface ChannelDescription {
  /** The extension that declares the channel. */
  readonly extension: string;
  /** The request the client end sends first, instead of `initialize`. */
  readonly handshake: string;
  /** The notification the client end sends once the handshake is answered, if any. */
  readonly initialized?: string | undefined;
  /** The params validators of the methods this end receives, by method (only those: a bundle keeps no others). */
  readonly params?: Readonly<Record<string, CompiledValidator>> | undefined;
  /** Received methods whose params must be sent. */
  readonly paramsRequired?: readonly string[] | undefined;
}

/**
 * What both ends share: params checked with the channel's validators (unless `options.validateParams`
 * says otherwise), `ping` answered, and structured-clone messages that are too large or not JSON refused.
 */
export class ChannelPeer<
  OutRequests extends RequestTable<OutRequests>,
  OutNotifications extends NotificationTable<OutNotifications>,
  InRequests extends RequestTable<InRequests>,
  InNotifications extends NotificationTable<InNotifications>,
> extends RpcPeer<OutRequests, OutNotifications, InRequests, InNotifications> {
  readonly channel: ChannelDescription;

  constructor(
    transport: Transport,
    channel: ChannelDescription,
    options: PeerOptions<OutRequests, OutNotifications> = {},
  ) {
    super(transport, options);
    this.channel = channel;
    const validators = { paramsValidators: channel.params ?? {}, resultValidators: {} };
    const required = channel.paramsRequired ?? [];
    this.validateParams ??= (method, params) => paramsIssue(validators, method, params, required.includes(method));
    (this as RpcPeer).setRequestHandler('ping', () => ({}));
  }

  /** @internal A structured-clone message is screened first (channel-frames.ts); text goes on as it is. */
  override receive(frame: unknown, extra?: MessageExtraInfo): void {
    let refused;
    try {
      refused = typeof frame === 'string' ? undefined : refusal(frame, this.maxFrameSize);
    } catch (error) {
      return this.diagnose('invalid-frame', `Frame could not be read: ${String(error)}`, { error });
    }
    if (refused === undefined) return super.receive(frame, extra);
    if (refused.kind === 'answer')
      return this.post(errorResponse(refused.id, refused.code, refused.message, refused.data));
    if (refused.kind === 'drop') return this.diagnose('invalid-frame', refused.message);
    // The call this response answers fails now, with the reason, instead of waiting for its timeout.
    const error = { code: ErrorCode.InternalError, message: refused.message };
    super.receive({ jsonrpc: '2.0', id: refused.id, error }, extra);
  }
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
> extends ChannelPeer<OutRequests, OutNotifications, InRequests, InNotifications> {
  /** The handshake's answer, once connected. */
  handshakeResult: OutRequests[Handshake]['result'] | undefined;

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
> extends ChannelPeer<OutRequests, OutNotifications, InRequests, InNotifications> {
  /** True once the handshake has been answered. */
  opened = false;

  constructor(
    transport: Transport,
    channel: ChannelDescription,
    options: PeerOptions<OutRequests, OutNotifications> = {},
  ) {
    super(transport, channel, options);
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

  /** Like its requests, no notification of the other end reaches a handler before the handshake is answered. */
  override setNotificationHandler<M extends keyof InNotifications & string>(
    method: M,
    handler: NotificationHandler<InNotifications[M]>,
  ): void {
    super.setNotificationHandler(method, (params, ctx) => {
      if (this.opened) return handler(params, ctx);
      this.diagnose('invalid-notification', `${method} before "${this.channel.handshake}" was answered: dropped`);
      return undefined;
    });
  }
}
