/**
 * The JSON-RPC 2.0 engine for both ends of an MCP connection: it sends requests and matches their responses
 * (progress, cancellation, timeouts) and dispatches incoming requests and notifications to handlers.
 *
 * Hand-written runtime copied unchanged into generated output (as `runtime/peer.ts`). No dependencies.
 * Hot paths avoid per-message closures and JSON round trips: the benchmark compares it with the SDK.
 */
import {
  ErrorCode,
  LocalError,
  PROTOCOL_ERROR_NAMES,
  ProtocolError,
  isPlainObject,
  isValidRequestId,
  type JsonRpcErrorObject,
  type NotificationSpec,
  type NotificationTable,
  type ParamsArgs,
  type RequestId,
  type RequestSpec,
  type RequestTable,
} from './jsonrpc.js';
import { inspectMessage, invalidRequestResponse, oversizeText, readFrameText } from './frame.js';
import type { JsonRpcFrame, MessageExtraInfo, Transport, TransportSendOptions } from './transport.js';

type JsonObject = { [key: string]: unknown };

/** The tables an untyped `RpcPeer` uses: any method, optional object params, object result. */
export type AnyRequestTable = {
  [method: string]: { params: JsonObject | undefined; paramsRequired: false; result: JsonObject };
};
export type AnyNotificationTable = {
  [method: string]: { params: JsonObject | undefined; paramsRequired: false };
};

/** What a handler receives as params: possibly undefined unless the schema requires params. */
export type HandlerParams<S extends { params: unknown; paramsRequired: boolean }> = S['paramsRequired'] extends true
  ? S['params']
  : S['params'] | undefined;

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface RequestOptions {
  /** Called for each `notifications/progress` about this request; adds a progressToken to `params._meta`. */
  onProgress?: (progress: Progress) => void;
  /** Aborting sends `notifications/cancelled` and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Milliseconds before the call fails with ProtocolError(-32001); defaults to the peer's `timeout`. */
  timeout?: number;
  /** Restart the timeout whenever progress arrives (bounded by `maxTotalTimeout`). */
  resetTimeoutOnProgress?: boolean;
  /** Upper bound in milliseconds however much progress arrives. */
  maxTotalTimeout?: number;
  /** The incoming request this one is made on behalf of (HTTP transports route by it). */
  relatedRequestId?: RequestId;
  /** Extra HTTP headers for this request (HTTP transports only; e.g. `Mcp-Param-*`). */
  headers?: Record<string, string>;
}

export interface NotifyOptions {
  relatedRequestId?: RequestId;
}

/** The second argument of a request handler. */
export interface HandlerContext<
  OutRequests extends RequestTable<OutRequests> = AnyRequestTable,
  OutNotifications extends NotificationTable<OutNotifications> = AnyNotificationTable,
> {
  readonly id: RequestId;
  readonly method: string;
  /** Aborted when the peer cancels this request (`notifications/cancelled`) or the connection closes. */
  readonly signal: AbortSignal;
  /** `params._meta` of the request, if it is an object. */
  readonly meta: JsonObject | undefined;
  /** What the transport attached to the message (auth, HTTP request info). */
  readonly extra: MessageExtraInfo | undefined;
  /** Reports progress if the request carried a progressToken; a no-op otherwise or once answered. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  notify<M extends keyof OutNotifications & string>(method: M, ...args: ParamsArgs<OutNotifications[M]>): Promise<void>;
  request<M extends keyof OutRequests & string>(
    method: M,
    ...args: ParamsArgs<OutRequests[M], [options?: RequestOptions | undefined]>
  ): Promise<OutRequests[M]['result']>;
  /** Sends any frame, tagged as related to this request. */
  sendRaw(message: JsonRpcFrame): Promise<void>;
}

export interface NotificationContext {
  readonly method: string;
  readonly meta: JsonObject | undefined;
  readonly extra: MessageExtraInfo | undefined;
}

export type RequestHandler<S extends RequestSpec, Ctx> = (
  params: HandlerParams<S>,
  ctx: Ctx,
) => S['result'] | Promise<S['result']>;
/** The return value is ignored, except that a rejected promise is reported to onHandlerError. */
export type NotificationHandler<S extends NotificationSpec> = (
  params: HandlerParams<S>,
  ctx: NotificationContext,
) => unknown;

/** A params validation failure: a JSON pointer into params and what is wrong there. */
export interface ParamsIssue {
  pointer: string;
  message: string;
  [key: string]: unknown;
}

export type DiagnosticKind =
  | 'unknown-response'
  | 'malformed-response'
  | 'unroutable-progress'
  | 'invalid-notification'
  | 'unknown-notification'
  | 'oversized-frame'
  | 'invalid-frame'
  | 'send-failed'
  | 'transport-error'
  | 'callback-error'
  | 'closed';

/** Something went wrong that is nobody's call to reject: reported, never thrown. */
export interface PeerDiagnostic {
  kind: DiagnosticKind;
  message: string;
  id?: RequestId | null | undefined;
  method?: string | undefined;
  error?: unknown;
}

export interface PeerOptions<
  OutRequests extends RequestTable<OutRequests> = AnyRequestTable,
  OutNotifications extends NotificationTable<OutNotifications> = AnyNotificationTable,
> {
  /** Accept JSON-RPC batches (arrays). Only the 2025-03-26 MCP spec allows them. Default false. */
  batches?: boolean;
  /** Largest frame in UTF-8 bytes of its JSON, either way. Default 4 MiB; Infinity disables the check. */
  maxFrameSize?: number;
  /** Default request timeout in milliseconds (60 s). Infinity disables it. */
  timeout?: number;
  validateParams?: PeerHooks<OutRequests, OutNotifications>['validateParams'] | undefined;
  beforeRequest?: PeerHooks<OutRequests, OutNotifications>['beforeRequest'] | undefined;
  fallbackRequestHandler?: PeerHooks<OutRequests, OutNotifications>['fallbackRequestHandler'] | undefined;
  fallbackNotificationHandler?: PeerHooks<OutRequests, OutNotifications>['fallbackNotificationHandler'] | undefined;
  onHandlerError?: PeerHooks<OutRequests, OutNotifications>['onHandlerError'] | undefined;
  onDiagnostic?: PeerHooks<OutRequests, OutNotifications>['onDiagnostic'] | undefined;
  onclose?: (() => void) | undefined;
}

/** The hooks, also settable later as properties of the peer (lifecycle code layers on with them). */
export interface PeerHooks<
  OutRequests extends RequestTable<OutRequests> = AnyRequestTable,
  OutNotifications extends NotificationTable<OutNotifications> = AnyNotificationTable,
> {
  /** Checks params of incoming requests and notifications; null when valid. */
  validateParams: (method: string, params: JsonObject | undefined) => ParamsIssue | null | undefined;
  /** Runs before a request's handler; returning a ProtocolError answers with it instead. */
  beforeRequest: (
    method: string,
    params: JsonObject | undefined,
    ctx: HandlerContext<OutRequests, OutNotifications>,
  ) => ProtocolError | undefined;
  fallbackRequestHandler: (
    method: string,
    params: JsonObject | undefined,
    ctx: HandlerContext<OutRequests, OutNotifications>,
  ) => unknown;
  fallbackNotificationHandler: (method: string, params: JsonObject | undefined, ctx: NotificationContext) => unknown;
  /** Gets the real error when a handler throws (the peer only answers 'Internal error'). */
  onHandlerError: (error: unknown, info: { method: string; id?: RequestId }) => void;
  onDiagnostic: (diagnostic: PeerDiagnostic) => void;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_FRAME_SIZE = 4 * 1024 * 1024;
/** setTimeout fires immediately above this; longer timeouts are treated as none. */
const MAX_TIMER_MS = 2 ** 31 - 1;

type AnyHandler = (params: JsonObject | undefined, ctx: unknown) => unknown;

export class RpcPeer<
  OutRequests extends RequestTable<OutRequests> = AnyRequestTable,
  OutNotifications extends NotificationTable<OutNotifications> = AnyNotificationTable,
  InRequests extends RequestTable<InRequests> = AnyRequestTable,
  InNotifications extends NotificationTable<InNotifications> = AnyNotificationTable,
> {
  validateParams: PeerHooks<OutRequests, OutNotifications>['validateParams'] | undefined;
  beforeRequest: PeerHooks<OutRequests, OutNotifications>['beforeRequest'] | undefined;
  fallbackRequestHandler: PeerHooks<OutRequests, OutNotifications>['fallbackRequestHandler'] | undefined;
  fallbackNotificationHandler: PeerHooks<OutRequests, OutNotifications>['fallbackNotificationHandler'] | undefined;
  onHandlerError: PeerHooks<OutRequests, OutNotifications>['onHandlerError'] | undefined;
  onDiagnostic: PeerHooks<OutRequests, OutNotifications>['onDiagnostic'] | undefined;
  onclose: (() => void) | undefined;

  readonly maxFrameSize: number;
  readonly timeout: number;
  /** Whether batches are accepted now (a server lowers or raises it to the version agreed in initialize). */
  batches: boolean;

  private readonly requestHandlers = new Map<string, AnyHandler>();
  private readonly notificationHandlers = new Map<string, AnyHandler>();
  /** Our outstanding requests by id (the id doubles as the progress token). */
  private readonly pending = new Map<RequestId, PendingCall>();
  /** Incoming requests whose handler has not answered yet, by id. */
  private readonly inbound = new Map<RequestId, InboundRequest>();
  private nextId = 1;
  private closed = false;

  readonly transport: Transport;

  constructor(transport: Transport, options: PeerOptions<OutRequests, OutNotifications> = {}) {
    this.transport = transport;
    this.batches = options.batches ?? false;
    this.maxFrameSize = options.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.validateParams = options.validateParams;
    this.beforeRequest = options.beforeRequest;
    this.fallbackRequestHandler = options.fallbackRequestHandler;
    this.fallbackNotificationHandler = options.fallbackNotificationHandler;
    this.onHandlerError = options.onHandlerError;
    this.onDiagnostic = options.onDiagnostic;
    this.onclose = options.onclose;
    transport.onmessage = (message: unknown, extra?: MessageExtraInfo) => this.receive(message, extra);
    // Text transports hand over raw frames: the engine parses and answers them like any other frame.
    transport.ontext = (text: string, extra?: MessageExtraInfo) => this.receive(text, extra);
    transport.onclose = () => this.shutdown();
    transport.onerror = (error: Error) =>
      this.diagnose('transport-error', `Transport error: ${error?.message}`, { error });
  }

  /** Starts the transport (the peer has installed its callbacks already). */
  start(): Promise<void> {
    return this.transport.start();
  }

  /** Rejects every pending call with ProtocolError(-32000), aborts running handlers, closes the transport. */
  async close(): Promise<void> {
    this.shutdown();
    await this.transport.close();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  // ------------------------------------------------------------------------------------------
  // Handler registration
  // ------------------------------------------------------------------------------------------

  setRequestHandler<M extends keyof InRequests & string>(
    method: M,
    handler: RequestHandler<InRequests[M], HandlerContext<OutRequests, OutNotifications>>,
  ): void {
    this.requestHandlers.set(method, handler as AnyHandler);
  }

  removeRequestHandler(method: keyof InRequests & string): void {
    this.requestHandlers.delete(method);
  }

  setNotificationHandler<M extends keyof InNotifications & string>(
    method: M,
    handler: NotificationHandler<InNotifications[M]>,
  ): void {
    this.notificationHandlers.set(method, handler as AnyHandler);
  }

  removeNotificationHandler(method: keyof InNotifications & string): void {
    this.notificationHandlers.delete(method);
  }

  // ------------------------------------------------------------------------------------------
  // Outgoing
  // ------------------------------------------------------------------------------------------

  request<M extends keyof OutRequests & string>(
    method: M,
    ...args: ParamsArgs<OutRequests[M], [options?: RequestOptions | undefined]>
  ): Promise<OutRequests[M]['result']>;
  request(method: string, params?: any, options?: RequestOptions): Promise<unknown> {
    if (this.closed) return Promise.reject(connectionClosed());
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const id = this.allocateId();
    const onProgress = options?.onProgress;
    const sent = onProgress === undefined ? params : withProgressToken(params, id);
    const message =
      sent === undefined
        ? { jsonrpc: '2.0' as const, id, method }
        : { jsonrpc: '2.0' as const, id, method, params: sent };
    const refusal = this.checkOutgoing(message);
    if (refusal !== undefined) return Promise.reject(refusal);

    const call = new PendingCall(this, id, onProgress, signal, options);
    const promise = new Promise<unknown>((resolve, reject) => {
      call.resolve = resolve;
      call.reject = reject;
    });
    // Registered before send: a transport may deliver progress (or the response) synchronously.
    this.pending.set(id, call);
    this.startTimer(call, 0);
    if (signal !== undefined) watchSignal(signal, call);
    const relatedRequestId = options?.relatedRequestId;
    const headers = options?.headers;
    const sendOptions: TransportSendOptions | undefined =
      relatedRequestId === undefined && headers === undefined
        ? undefined
        : headers === undefined
          ? { relatedRequestId }
          : { relatedRequestId, headers };
    this.transmit(message, sendOptions).then(undefined, (error) => this.failCall(call, error));
    return promise;
  }

  notify<M extends keyof OutNotifications & string>(
    method: M,
    ...args: ParamsArgs<OutNotifications[M], [options?: NotifyOptions]>
  ): Promise<void>;
  notify(method: string, params?: any, options?: NotifyOptions): Promise<void> {
    if (this.closed) return Promise.reject(connectionClosed());
    const message =
      params === undefined ? { jsonrpc: '2.0' as const, method } : { jsonrpc: '2.0' as const, method, params };
    const refusal = this.checkOutgoing(message);
    if (refusal !== undefined) return Promise.reject(refusal);
    const relatedRequestId = options?.relatedRequestId;
    return this.transmit(message, relatedRequestId === undefined ? undefined : { relatedRequestId });
  }

  /** Counter ids: integers, skipping any still outstanding (only possible after wrapping). */
  private allocateId(): number {
    let id = this.nextId;
    while (this.pending.has(id)) id = id >= Number.MAX_SAFE_INTEGER ? 1 : id + 1;
    this.nextId = id >= Number.MAX_SAFE_INTEGER ? 1 : id + 1;
    return id;
  }

  /** A frame we must not send: too large, or not serializable. Undefined when it may go. */
  private checkOutgoing(message: object): ProtocolError | undefined {
    let size: number | undefined;
    try {
      size = oversize(message, this.maxFrameSize);
    } catch (error) {
      return new LocalError(ErrorCode.InternalError, `Message is not serializable: ${describe(error)}`);
    }
    if (size === undefined) return undefined;
    return new LocalError(
      ErrorCode.InvalidRequest,
      `Outgoing frame of ${size} bytes exceeds maxFrameSize (${this.maxFrameSize} bytes); nothing was sent`,
      { size, limit: this.maxFrameSize },
    );
  }

  /** transport.send, with a synchronous throw turned into a rejection. */
  private transmit(frame: JsonRpcFrame, options: TransportSendOptions | undefined): Promise<void> {
    try {
      return this.transport.send(frame, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Fire-and-forget send: failures are reported, never thrown. */
  private post(frame: JsonRpcFrame, options?: TransportSendOptions): void {
    this.transmit(frame, options).then(undefined, this.reportSendFailure);
  }

  private readonly reportSendFailure = (error: unknown): void => {
    this.diagnose('send-failed', `Send failed: ${describe(error)}`, { error });
  };

  /** Arms the call's timer: the per-call timeout, or what is left of maxTotalTimeout if that is sooner. */
  private startTimer(call: PendingCall, elapsed: number): void {
    let ms = call.timeoutMs;
    call.totalBound = false;
    if (call.maxTotalMs !== undefined) {
      const left = Math.max(0, call.maxTotalMs - elapsed);
      if (left <= ms) {
        ms = left;
        // Remembered rather than recomputed from clocks at expiry, which may disagree by a millisecond.
        call.totalBound = true;
      }
    }
    this.armTimer(call, ms);
  }

  private armTimer(call: PendingCall, ms: number): void {
    if (!(ms >= 0 && ms <= MAX_TIMER_MS)) return;
    call.timer = setTimeout(onCallTimeout, ms, call);
  }

  /** Removes a call from every route (map, timer, abort listener). False if it was already settled. */
  private settle(call: PendingCall): boolean {
    if (this.pending.get(call.id) !== call) return false;
    this.pending.delete(call.id);
    if (call.timer !== undefined) clearTimeout(call.timer);
    if (call.signal !== undefined) unwatchSignal(call.signal, call);
    return true;
  }

  private failCall(call: PendingCall, error: unknown): void {
    if (this.settle(call)) call.reject(error);
  }

  /** @internal the abort listener (onSignalAbort) lands here. */
  abortCall(call: PendingCall): void {
    if (!this.settle(call)) return;
    const reason = call.signal?.reason;
    this.sendCancelled(call.id, reason);
    call.reject(reason ?? new LocalError(ErrorCode.RequestTimeout, 'Request cancelled'));
  }

  /** @internal the timer (onCallTimeout) lands here. */
  timeoutCall(call: PendingCall): void {
    if (!this.settle(call)) return;
    const total = call.totalBound;
    const message = total ? 'Request exceeded maxTotalTimeout' : 'Request timed out';
    this.sendCancelled(call.id, message);
    const data = total ? { maxTotalTimeout: call.maxTotalMs } : { timeout: call.timeoutMs };
    call.reject(new LocalError(ErrorCode.RequestTimeout, message, data));
  }

  private sendCancelled(requestId: RequestId, reason: unknown): void {
    if (this.closed) return;
    const text = reasonText(reason);
    const params = text === undefined ? { requestId } : { requestId, reason: text };
    this.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params });
  }

  // ------------------------------------------------------------------------------------------
  // Incoming
  // ------------------------------------------------------------------------------------------

  /**
   * Handles one received frame: a JSON string, or an already parsed value. Never throws; every answer goes
   * out through the transport.
   */
  receive(frame: unknown, extra?: MessageExtraInfo): void {
    try {
      this.receiveFrame(frame, extra);
    } catch (error) {
      // Only reachable through hostile values (throwing getters, proxies): report and move on.
      this.diagnose('invalid-frame', `Frame could not be handled: ${describe(error)}`, { error });
    }
  }

  private receiveFrame(frame: unknown, extra: MessageExtraInfo | undefined): void {
    if (this.closed) {
      this.diagnose('closed', 'Frame received after close was dropped');
      return;
    }
    let value = frame;
    if (typeof frame === 'string') {
      const read = readFrameText(frame, this.maxFrameSize);
      if (!read.ok) {
        if (read.answer?.error.code !== ErrorCode.ParseError)
          this.diagnose('oversized-frame', `Incoming ${read.reason}`);
        if (read.answer !== undefined) this.post(read.answer);
        return;
      }
      value = read.value;
    }
    if (Array.isArray(value)) return this.receiveBatch(value, extra);
    this.dispatch(value, undefined, extra);
  }

  private receiveBatch(items: unknown[], extra: MessageExtraInfo | undefined): void {
    if (items.length === 0) return this.post(invalidRequest(null, 'empty batch'));
    if (!this.batches) return this.post(invalidRequest(null, 'batches are not supported'));
    const batch = new Batch(this);
    for (const item of items) this.dispatch(item, batch, extra);
    batch.seal();
  }

  /** Classifies one message (frame.ts) and hands it on: request, notification, response, or an answer. */
  private dispatch(value: unknown, batch: Batch | undefined, extra: MessageExtraInfo | undefined): void {
    const verdict = inspectMessage(value);
    switch (verdict.kind) {
      case 'request':
        return this.onRequest(verdict.id, verdict.method, verdict.params, batch, extra);
      case 'notification':
        return this.onNotification(verdict.method, verdict.params, extra);
      case 'response':
        return this.onResponse(verdict.message);
      case 'invalid':
        return this.emit(invalidRequestResponse(verdict.id, verdict.reason), batch);
    }
  }

  private onRequest(
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    batch: Batch | undefined,
    extra: MessageExtraInfo | undefined,
  ): void {
    if (this.inbound.has(id)) return this.emit(invalidRequest(id, 'id is in use by a request in progress'), batch);
    const handler = this.requestHandlers.get(method);
    if (handler === undefined && this.fallbackRequestHandler === undefined) {
      return this.emit(errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`), batch);
    }
    const ctx = new InboundRequest(this, id, method, params, extra, batch);
    this.inbound.set(id, ctx);
    batch?.open();
    this.runHandler(ctx, handler, params);
  }

  private runHandler(ctx: InboundRequest, handler: AnyHandler | undefined, params: JsonObject | undefined): void {
    let result: unknown;
    try {
      const refusal = this.beforeRequest?.(ctx.method, params, ctx as never);
      if (refusal !== undefined) return this.fail(ctx, refusal);
      const issue = this.validateParams?.(ctx.method, params);
      if (issue != null) return this.fail(ctx, invalidParams(issue));
      result =
        handler !== undefined ? handler(params, ctx) : this.fallbackRequestHandler!(ctx.method, params, ctx as never);
      if (!isThenable(result)) return this.succeed(ctx, result);
    } catch (error) {
      return this.fail(ctx, error);
    }
    Promise.resolve(result).then(
      (value) => this.succeed(ctx, value),
      (error) => this.fail(ctx, error),
    );
  }

  private succeed(ctx: InboundRequest, value: unknown): void {
    if (!this.complete(ctx)) return;
    // MCP results are objects; a handler with nothing to say answers {}.
    const result = value === undefined ? {} : value;
    this.answer(ctx, { jsonrpc: '2.0', id: ctx.id, result } as JsonRpcFrame);
  }

  private fail(ctx: InboundRequest, error: unknown): void {
    if (!this.complete(ctx)) return;
    const protocolError = asProtocolError(error);
    if (protocolError === undefined) this.reportHandlerError(error, ctx.method, ctx.id);
    // Anything but a ProtocolError becomes a bare -32603: no message, stack or data leaks to the peer.
    const body = protocolError?.toJSON() ?? { code: ErrorCode.InternalError, message: 'Internal error' };
    this.answer(ctx, { jsonrpc: '2.0', id: ctx.id, error: body });
  }

  /** Marks a request answered; false if it was cancelled (or closed) and must get no response. */
  private complete(ctx: InboundRequest): boolean {
    if (ctx.done) return false;
    ctx.done = true;
    if (this.inbound.get(ctx.id) === ctx) this.inbound.delete(ctx.id);
    return true;
  }

  /** Sends a handler's response, replaced by an error if it cannot go out as is. */
  private answer(ctx: InboundRequest, response: JsonRpcFrame): void {
    let size: number | undefined;
    let fitted = response;
    try {
      size = oversize(response, this.maxFrameSize);
    } catch (error) {
      this.reportHandlerError(error, ctx.method, ctx.id);
      fitted = errorResponse(ctx.id, ErrorCode.InternalError, 'Internal error');
    }
    if (size !== undefined) {
      const limit = this.maxFrameSize;
      this.diagnose('oversized-frame', `Response of ${size} bytes exceeds maxFrameSize (${limit} bytes)`, {
        id: ctx.id,
        method: ctx.method,
      });
      fitted = errorResponse(ctx.id, ErrorCode.InternalError, 'Response exceeds maxFrameSize', { size, limit });
    }
    if (ctx.batch !== undefined) ctx.batch.close(fitted);
    else this.post(fitted);
  }

  /** Sends an answer now, or adds it to the batch being answered. */
  private emit(response: JsonRpcFrame, batch: Batch | undefined): void {
    if (batch !== undefined) batch.add(response);
    else this.post(response);
  }

  /** @internal */
  flushBatch(responses: JsonRpcFrame[]): void {
    if (responses.length > 0 && !this.closed) this.post(responses as JsonRpcFrame);
  }

  private onNotification(method: string, params: JsonObject | undefined, extra: MessageExtraInfo | undefined): void {
    const builtIn = method === 'notifications/cancelled' || method === 'notifications/progress';
    if (method === 'notifications/cancelled') this.onCancelled(params);
    else if (method === 'notifications/progress') this.onProgress(params);
    const handler = this.notificationHandlers.get(method);
    if (handler === undefined && this.fallbackNotificationHandler === undefined) {
      if (!builtIn) this.diagnose('unknown-notification', `No handler for notification ${method}`, { method });
      return;
    }
    const issue = this.validateParams?.(method, params);
    if (issue != null) {
      return this.diagnose('invalid-notification', `Invalid params: ${issue.pointer} ${issue.message}`, { method });
    }
    this.runNotificationHandler(handler, method, params, extra);
  }

  private runNotificationHandler(
    handler: AnyHandler | undefined,
    method: string,
    params: JsonObject | undefined,
    extra: MessageExtraInfo | undefined,
  ): void {
    const ctx: NotificationContext = { method, meta: metaOf(params), extra };
    try {
      const result =
        handler !== undefined ? handler(params, ctx) : this.fallbackNotificationHandler!(method, params, ctx);
      if (isThenable(result))
        Promise.resolve(result).then(undefined, (error) => this.reportHandlerError(error, method));
    } catch (error) {
      this.reportHandlerError(error, method);
    }
  }

  /** notifications/cancelled: abort the named request's handler; its response is never sent. */
  private onCancelled(params: JsonObject | undefined): void {
    const requestId = params?.['requestId'];
    const ctx = isValidRequestId(requestId) ? this.inbound.get(requestId) : undefined;
    if (ctx === undefined) return; // Already answered or never seen: the spec says ignore it.
    const reason = typeof params?.['reason'] === 'string' ? params['reason'] : 'Request cancelled by the peer';
    this.cancelInbound(ctx, abortError(reason));
  }

  private cancelInbound(ctx: InboundRequest, reason: unknown): void {
    if (ctx.done) return;
    ctx.done = true;
    if (this.inbound.get(ctx.id) === ctx) this.inbound.delete(ctx.id);
    ctx.batch?.close(undefined);
    ctx.abort(reason);
  }

  /** notifications/progress: route by token to the pending call that asked for progress. */
  private onProgress(params: JsonObject | undefined): void {
    const token = params?.['progressToken'];
    const call = isValidRequestId(token) ? this.pending.get(token) : undefined;
    if (call === undefined || call.onProgress === undefined || typeof params?.['progress'] !== 'number') {
      // Late (after the response) or for a token we never issued: harmless, so dropped quietly.
      return this.diagnose('unroutable-progress', `Progress for unknown token ${String(token)} dropped`);
    }
    if (call.resetOnProgress) this.rearm(call);
    const progress: Progress = { progress: params['progress'] };
    if (typeof params['total'] === 'number') progress.total = params['total'];
    if (typeof params['message'] === 'string') progress.message = params['message'];
    try {
      call.onProgress(progress);
    } catch (error) {
      this.diagnose('callback-error', `onProgress threw: ${describe(error)}`, { id: call.id, error });
    }
  }

  /** Restarts a call's timeout on progress, within what is left of maxTotalTimeout. */
  private rearm(call: PendingCall): void {
    if (call.timer !== undefined) clearTimeout(call.timer);
    call.timer = undefined;
    this.startTimer(call, call.maxTotalMs === undefined ? 0 : Date.now() - call.startedAt);
  }

  private onResponse(message: JsonObject): void {
    const id = message['id'];
    const call = isValidRequestId(id) ? this.pending.get(id) : undefined;
    if (call === undefined) {
      const error = isPlainObject(message['error']) ? message['error'] : undefined;
      const what = error === undefined ? '' : ` (error ${String(error['code'])}: ${String(error['message'])})`;
      return this.diagnose('unknown-response', `Response for unknown id ${String(id)} dropped${what}`, {
        id: isValidRequestId(id) ? id : null,
        error,
      });
    }
    this.settle(call);
    const problem = malformedResponse(message);
    if (problem !== undefined) {
      this.diagnose('malformed-response', `Malformed response for id ${id}: ${problem}`, { id: call.id });
      return call.reject(new ProtocolError(ErrorCode.InternalError, `Malformed response: ${problem}`));
    }
    if (Object.hasOwn(message, 'error')) {
      const error = message['error'] as JsonRpcErrorObject;
      return call.reject(new ProtocolError(error.code, error.message, error.data));
    }
    call.resolve(message['result']);
  }

  // ------------------------------------------------------------------------------------------
  // Closing and reporting
  // ------------------------------------------------------------------------------------------

  private shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    const error = connectionClosed();
    for (const call of [...this.pending.values()]) this.failCall(call, error);
    for (const ctx of [...this.inbound.values()]) this.cancelInbound(ctx, error);
    try {
      this.onclose?.();
    } catch (callbackError) {
      this.diagnose('callback-error', `onclose threw: ${describe(callbackError)}`, { error: callbackError });
    }
  }

  private reportHandlerError(error: unknown, method: string, id?: RequestId): void {
    try {
      this.onHandlerError?.(error, id === undefined ? { method } : { method, id });
    } catch {
      // A broken logger must not break dispatch.
    }
  }

  /** @internal */
  diagnose(kind: DiagnosticKind, message: string, detail?: Omit<PeerDiagnostic, 'kind' | 'message'>): void {
    const hook = this.onDiagnostic;
    if (hook === undefined) return;
    try {
      hook({ kind, message, ...detail });
    } catch {
      // Reporting is best effort by design.
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Per-call records. Classes rather than closures: one allocation per call, methods on the prototype.
// ---------------------------------------------------------------------------------------------

/** One outgoing request awaiting its response. */
class PendingCall {
  resolve!: (value: unknown) => void;
  reject!: (reason: unknown) => void;
  timer: ReturnType<typeof setTimeout> | undefined = undefined;
  readonly timeoutMs: number;
  readonly maxTotalMs: number | undefined;
  /** The armed timer is the maxTotalTimeout deadline, not the per-call timeout. */
  totalBound = false;
  readonly resetOnProgress: boolean;
  readonly startedAt: number;

  readonly peer: RpcPeer<any, any, any, any>;
  readonly id: RequestId;
  readonly onProgress: ((progress: Progress) => void) | undefined;
  readonly signal: AbortSignal | undefined;

  constructor(
    peer: RpcPeer<any, any, any, any>,
    id: RequestId,
    onProgress: ((progress: Progress) => void) | undefined,
    signal: AbortSignal | undefined,
    options: RequestOptions | undefined,
  ) {
    this.peer = peer;
    this.id = id;
    this.onProgress = onProgress;
    this.signal = signal;
    const maxTotal = options?.maxTotalTimeout;
    this.maxTotalMs = maxTotal;
    this.resetOnProgress = options?.resetTimeoutOnProgress === true;
    this.timeoutMs = options?.timeout ?? peer.timeout;
    this.startedAt = maxTotal === undefined ? 0 : Date.now();
  }
}

/**
 * The calls waiting on each caller's AbortSignal, behind one listener per signal: an app that hands one
 * signal to thousands of calls adds one abort listener to it, not one per call in flight.
 */
const callsBySignal = new WeakMap<AbortSignal, Set<PendingCall>>();

function watchSignal(signal: AbortSignal, call: PendingCall): void {
  let calls = callsBySignal.get(signal);
  if (calls === undefined) {
    calls = new Set();
    callsBySignal.set(signal, calls);
    signal.addEventListener('abort', onSignalAbort, { once: true });
  }
  calls.add(call);
}

function unwatchSignal(signal: AbortSignal, call: PendingCall): void {
  const calls = callsBySignal.get(signal);
  if (calls === undefined || !calls.delete(call) || calls.size > 0) return;
  callsBySignal.delete(signal);
  signal.removeEventListener('abort', onSignalAbort);
}

function onSignalAbort(event: Event): void {
  const signal = event.currentTarget as AbortSignal;
  const calls = callsBySignal.get(signal);
  callsBySignal.delete(signal);
  for (const call of calls ?? []) call.peer.abortCall(call);
}

/** One shared timer callback (the call rides as setTimeout's argument): no closure per request. */
function onCallTimeout(call: PendingCall): void {
  call.peer.timeoutCall(call);
}

/** One incoming request being handled; it is the handler's `ctx`. */
class InboundRequest {
  done = false;
  private controller: AbortController | undefined = undefined;
  readonly meta: JsonObject | undefined;

  private readonly peer: RpcPeer<any, any, any, any>;
  readonly id: RequestId;
  readonly method: string;
  readonly extra: MessageExtraInfo | undefined;
  readonly batch: Batch | undefined;

  constructor(
    peer: RpcPeer<any, any, any, any>,
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    extra: MessageExtraInfo | undefined,
    batch: Batch | undefined,
  ) {
    this.peer = peer;
    this.id = id;
    this.method = method;
    this.extra = extra;
    this.batch = batch;
    this.meta = metaOf(params);
  }

  /** Created on first use: most handlers never look at it. */
  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    this.controller ??= new AbortController();
    this.controller.abort(reason);
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    const token = this.meta?.['progressToken'];
    if (this.done || !isValidRequestId(token)) return Promise.resolve();
    const params: JsonObject = { progressToken: token, progress };
    if (total !== undefined) params['total'] = total;
    if (message !== undefined) params['message'] = message;
    return this.peer.notify('notifications/progress', params, { relatedRequestId: this.id });
  }

  notify(method: string, params?: JsonObject): Promise<void> {
    return this.peer.notify(method, params, { relatedRequestId: this.id });
  }

  request(method: string, params?: any, options?: RequestOptions): Promise<unknown> {
    return this.peer.request(method, params, { ...options, relatedRequestId: this.id });
  }

  sendRaw(message: JsonRpcFrame): Promise<void> {
    try {
      return this.peer.transport.send(message, { relatedRequestId: this.id });
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

/** Collects the answers to one batch; sends them as one array once every request has answered. */
class Batch {
  private readonly responses: JsonRpcFrame[] = [];
  private outstanding = 0;
  private sealed = false;

  private readonly peer: RpcPeer<any, any, any, any>;

  constructor(peer: RpcPeer<any, any, any, any>) {
    this.peer = peer;
  }

  add(response: JsonRpcFrame): void {
    this.responses.push(response);
  }

  open(): void {
    this.outstanding++;
  }

  /** A request finished: with its response, or undefined when cancelled. */
  close(response: JsonRpcFrame | undefined): void {
    if (response !== undefined) this.responses.push(response);
    this.outstanding--;
    this.flushIfDone();
  }

  seal(): void {
    this.sealed = true;
    this.flushIfDone();
  }

  private flushIfDone(): void {
    if (this.sealed && this.outstanding === 0) this.peer.flushBatch(this.responses);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): JsonRpcFrame {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: '2.0', id, error };
}

function invalidRequest(id: RequestId | null, reason: string): JsonRpcFrame {
  return errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: ${reason}`);
}

function invalidParams(issue: ParamsIssue): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${issue.pointer} ${issue.message}`, { ...issue });
}

function connectionClosed(): ProtocolError {
  return new LocalError(ErrorCode.ConnectionClosed, 'Connection closed');
}

/**
 * A thrown ProtocolError, also one from another copy of this runtime (two generated outputs in one
 * process), recognised by name and shape.
 */
function asProtocolError(error: unknown): ProtocolError | undefined {
  if (error instanceof ProtocolError) return error;
  if (
    error instanceof Error &&
    PROTOCOL_ERROR_NAMES.includes(error.name) &&
    Number.isInteger((error as { code?: unknown }).code)
  ) {
    const { code, data } = error as unknown as { code: number; data?: unknown };
    return new ProtocolError(code, error.message, data);
  }
  return undefined;
}

/** Why a response for a pending call is unusable, or undefined if it is fine. */
function malformedResponse(message: JsonObject): string | undefined {
  if (message['jsonrpc'] !== '2.0') return 'jsonrpc must be "2.0"';
  const hasError = Object.hasOwn(message, 'error');
  if (hasError && Object.hasOwn(message, 'result')) return 'both result and error';
  if (!hasError) return undefined;
  const error = message['error'];
  if (!isPlainObject(error) || !Number.isInteger(error['code']) || typeof error['message'] !== 'string') {
    return 'error must be {code: integer, message: string}';
  }
  return undefined;
}

/** A copy of params with `_meta.progressToken` set; the caller's objects are left alone. */
function withProgressToken(params: JsonObject | undefined, token: RequestId): JsonObject {
  const meta = params !== undefined && isPlainObject(params['_meta']) ? params['_meta'] : undefined;
  return { ...params, _meta: { ...meta, progressToken: token } };
}

function metaOf(params: JsonObject | undefined): JsonObject | undefined {
  const meta = params?.['_meta'];
  return isPlainObject(meta) ? meta : undefined;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new LocalError(ErrorCode.RequestTimeout, 'Request cancelled');
}

function abortError(message: string): Error {
  const error = new Error(message);
  error.name = 'AbortError';
  return error;
}

function reasonText(reason: unknown): string | undefined {
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error) return reason.message;
  return undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The UTF-8 size of a message's JSON if it exceeds `limit`, else undefined. Throws if unserializable. */
function oversize(message: unknown, limit: number): number | undefined {
  if (limit === Infinity) return undefined;
  // Serializing every message just to measure it would cost more than the rest of the send path.
  if (jsonSizeBound(message, 0) <= limit) return undefined;
  const text = JSON.stringify(message);
  return oversizeText(text, limit);
}

/**
 * An upper bound on the UTF-8 bytes of `value`'s JSON, found without serializing; Infinity when it cannot
 * tell cheaply (class instances, toJSON, deep or circular values, BigInt), so the caller measures exactly.
 */
function jsonSizeBound(value: unknown, depth: number): number {
  switch (typeof value) {
    case 'string':
      return value.length * 6 + 2; // worst case per UTF-16 unit: a \u00XX escape
    case 'number':
      return 24;
    case 'boolean':
      return 5;
    case 'undefined':
    case 'function':
    case 'symbol':
      return 4;
    case 'object':
      break;
    default:
      return Infinity;
  }
  if (value === null) return 4;
  if (depth > 32) return Infinity;
  let total = 2;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) total += jsonSizeBound(value[i], depth + 1) + 1;
    return total;
  }
  const proto = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return Infinity;
  }
  for (const key in value) {
    total += key.length * 6 + 3 + jsonSizeBound((value as JsonObject)[key], depth + 1) + 1;
  }
  return total;
}
