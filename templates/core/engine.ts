/**
 * The JSON-RPC 2.0 engine for both ends of an MCP connection: it sends requests and matches their responses
 * (progress, cancellation, timeouts) and dispatches incoming requests and notifications to handlers. No
 * dependencies; hot paths avoid per-message closures and JSON round trips (the benchmark compares it with the SDK).
 *
 * RpcEngine is the core an MCP client needs: it takes parsed messages, reads text frames only with the reader
 * its transport brings (the text transports of this runtime bring frame.ts's `readFrame`), and refuses
 * batches. RpcPeer (peer.ts) adds batches and reads text from any transport; a client's bundle carries
 * neither.
 */
import {
  ErrorCode,
  LocalError,
  ProtocolError,
  errorResponse,
  isPlainObject,
  isValidRequestId,
  type JsonRpcErrorObject,
  type NotificationTable,
  type ParamsArgs,
  type RequestId,
  type RequestTable,
} from './jsonrpc.js';
import {
  abortError,
  abortReason,
  connectionClosed,
  describe,
  isThenable,
  malformedResponse,
  metaOf,
  progressOf,
  reasonText,
  withProgressToken,
} from './peer-messages.js';
import { inspectMessage, invalidRequestResponse, type FrameReader } from './frame.js';
import { InboundRequest, PendingCall, unwatchSignal, watchSignal, type AnyHandler, type Batch } from './peer-calls.js';
import type {
  AnyNotificationTable,
  AnyRequestTable,
  DiagnosticKind,
  EngineOptions,
  HandlerContext,
  JsonObject,
  NotificationContext,
  NotificationHandler,
  NotifyOptions,
  PeerDiagnostic,
  PeerHooks,
  RequestHandler,
  RequestOptions,
} from './peer-types.js';
import { frameOversize } from './transport.js';
import type { JsonRpcFrame, MessageExtraInfo, Transport, TransportSendOptions } from './transport.js';

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_FRAME_SIZE = 4 * 1024 * 1024;

export class RpcEngine<
  OutRequests extends RequestTable<OutRequests> = AnyRequestTable,
  OutNotifications extends NotificationTable<OutNotifications> = AnyNotificationTable,
  InRequests extends RequestTable<InRequests> = AnyRequestTable,
  InNotifications extends NotificationTable<InNotifications> = AnyNotificationTable,
> {
  declare validateParams: PeerHooks<OutRequests, OutNotifications>['validateParams'] | undefined;
  declare beforeRequest: PeerHooks<OutRequests, OutNotifications>['beforeRequest'] | undefined;
  declare fallbackRequestHandler: PeerHooks<OutRequests, OutNotifications>['fallbackRequestHandler'] | undefined;
  declare fallbackNotificationHandler:
    PeerHooks<OutRequests, OutNotifications>['fallbackNotificationHandler'] | undefined;
  declare onHandlerError: PeerHooks<OutRequests, OutNotifications>['onHandlerError'] | undefined;
  declare onDiagnostic: PeerHooks<OutRequests, OutNotifications>['onDiagnostic'] | undefined;
  declare onclose: (() => void) | undefined;

  declare readonly maxFrameSize: number;
  declare readonly timeout: number;

  readonly #requestHandlers = new Map<string, AnyHandler>();
  readonly #notificationHandlers = new Map<string, AnyHandler>();
  /** Our outstanding requests by id (the id doubles as the progress token). */
  readonly #pending = new Map<RequestId, PendingCall>();
  /** Incoming requests whose handler has not answered yet, by id. */
  readonly #inbound = new Map<RequestId, InboundRequest>();
  private nextId = 1;
  #closed = false;
  readonly #readFrame: FrameReader | undefined;

  declare readonly transport: Transport;

  constructor(transport: Transport, options: EngineOptions<OutRequests, OutNotifications> = {}) {
    this.transport = transport;
    this.#readFrame = this.frameReader();
    this.maxFrameSize = options.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.validateParams = options.validateParams;
    this.beforeRequest = options.beforeRequest;
    this.fallbackRequestHandler = options.fallbackRequestHandler;
    this.fallbackNotificationHandler = options.fallbackNotificationHandler;
    this.onHandlerError = options.onHandlerError;
    this.onDiagnostic = options.onDiagnostic;
    this.onclose = options.onclose;
    const receive = (frame: unknown, extra?: MessageExtraInfo) => this.receive(frame, extra);
    transport.onmessage = receive;
    // Text transports hand over raw frames when the engine can read them: parsed and answered like any other.
    if (this.#readFrame !== undefined) transport.ontext = receive;
    transport.onclose = () => this.#shutdown();
    transport.onerror = (error: Error) =>
      this.diagnose('transport-error', `Transport error: ${error?.message}`, { error });
  }

  /** @internal How text frames are read: with the transport's reader (RpcPeer reads any text). */
  frameReader(): FrameReader | undefined {
    return this.transport.readFrame;
  }

  /**
   * Starts the transport (the peer has installed its callbacks already). After close() it starts again: the
   * transport reconnects (or respawns its server) and the engine takes new calls.
   */
  start(): Promise<void> {
    this.#closed = false;
    return this.transport.start();
  }

  /** Rejects every pending call with ProtocolError(-32000), aborts running handlers, closes the transport. */
  async close(): Promise<void> {
    this.#shutdown();
    await this.transport.close();
  }

  get isClosed(): boolean {
    return this.#closed;
  }

  // --- handler registration ---

  setRequestHandler<M extends keyof InRequests & string>(
    method: M,
    handler: RequestHandler<InRequests[M], HandlerContext<OutRequests, OutNotifications>>,
  ): void {
    this.#requestHandlers.set(method, handler as AnyHandler);
  }

  removeRequestHandler(method: keyof InRequests & string): void {
    this.#requestHandlers.delete(method);
  }

  setNotificationHandler<M extends keyof InNotifications & string>(
    method: M,
    handler: NotificationHandler<InNotifications[M]>,
  ): void {
    this.#notificationHandlers.set(method, handler as AnyHandler);
  }

  removeNotificationHandler(method: keyof InNotifications & string): void {
    this.#notificationHandlers.delete(method);
  }

  // --- outgoing ---

  request<M extends keyof OutRequests & string>(
    method: M,
    ...args: ParamsArgs<OutRequests[M], [options?: RequestOptions | undefined]>
  ): Promise<OutRequests[M]['result']>;
  /** `finish` (internal, not in the overloads): what the result goes through first, with no promise turn of its own. */
  request(method: string, params?: any, options?: RequestOptions, finish?: PendingCall['finish']): Promise<unknown> {
    if (this.#closed) return Promise.reject(connectionClosed());
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const id = this.#allocateId();
    const onProgress = options?.onProgress;
    const sent = onProgress === undefined ? params : withProgressToken(params, id);
    const message =
      sent === undefined
        ? { jsonrpc: '2.0' as const, id, method }
        : { jsonrpc: '2.0' as const, id, method, params: sent };
    const refusal = this.#checkOutgoing(message);
    if (refusal !== undefined) return Promise.reject(refusal);

    const call = new PendingCall(this, id, onProgress, signal, options, finish);
    const promise = new Promise<unknown>((resolve, reject) => {
      call.resolve = resolve;
      call.reject = reject;
    });
    // Registered before send: a transport may deliver progress (or the response) synchronously.
    this.#pending.set(id, call);
    call.arm(0);
    if (signal !== undefined) watchSignal(signal, call);
    const relatedRequestId = options?.relatedRequestId;
    const headers = options?.headers;
    const sendOptions: TransportSendOptions | undefined =
      relatedRequestId === undefined && headers === undefined ? undefined : { relatedRequestId, headers };
    this.#transmit(message, sendOptions).then(undefined, (error) => this.#failCall(call, error));
    return promise;
  }

  notify<M extends keyof OutNotifications & string>(
    method: M,
    ...args: ParamsArgs<OutNotifications[M], [options?: NotifyOptions]>
  ): Promise<void>;
  notify(method: string, params?: any, options?: NotifyOptions): Promise<void> {
    if (this.#closed) return Promise.reject(connectionClosed());
    const message =
      params === undefined ? { jsonrpc: '2.0' as const, method } : { jsonrpc: '2.0' as const, method, params };
    const refusal = this.#checkOutgoing(message);
    if (refusal !== undefined) return Promise.reject(refusal);
    const relatedRequestId = options?.relatedRequestId;
    return this.#transmit(message, relatedRequestId === undefined ? undefined : { relatedRequestId });
  }

  /** Counter ids: integers, skipping any still outstanding (only possible after wrapping). */
  #allocateId(): number {
    let id = this.nextId;
    while (this.#pending.has(id)) id = id >= Number.MAX_SAFE_INTEGER ? 1 : id + 1;
    this.nextId = id >= Number.MAX_SAFE_INTEGER ? 1 : id + 1;
    return id;
  }

  /** A frame we must not send: too large, or not serializable. Undefined when it may go. */
  #checkOutgoing(message: JsonRpcFrame): ProtocolError | undefined {
    let size: number | undefined;
    try {
      size = frameOversize(this.transport, message, this.maxFrameSize);
    } catch (error) {
      return new LocalError(ErrorCode.InternalError, `Message is not serializable: ${describe(error)}`);
    }
    if (size === undefined) return undefined;
    return new LocalError(
      ErrorCode.InvalidRequest,
      `Outgoing frame of ${size} bytes exceeds maxFrameSize (${this.maxFrameSize}); not sent`,
      { size, limit: this.maxFrameSize },
    );
  }

  /** transport.send, with a synchronous throw turned into a rejection. */
  #transmit(frame: JsonRpcFrame, options: TransportSendOptions | undefined): Promise<void> {
    try {
      return this.transport.send(frame, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** @internal Fire-and-forget send: failures are reported, never thrown. */
  post(frame: JsonRpcFrame, options?: TransportSendOptions): void {
    this.#transmit(frame, options).then(undefined, this.#reportSendFailure);
  }

  readonly #reportSendFailure = (error: unknown): void => {
    this.diagnose('send-failed', `Send failed: ${describe(error)}`, { error });
  };

  /** Removes a call from every route (map, timer, abort listener). False if it was already settled. */
  #settle(call: PendingCall): boolean {
    if (this.#pending.get(call.id) !== call) return false;
    this.#pending.delete(call.id);
    call.disarm();
    if (call.signal !== undefined) unwatchSignal(call.signal, call);
    return true;
  }

  #failCall(call: PendingCall, error: unknown): void {
    if (this.#settle(call)) call.reject(error);
  }

  /** @internal the abort listener (onSignalAbort, peer-calls.ts) lands here. */
  abortCall(call: PendingCall): void {
    if (!this.#settle(call)) return;
    const reason = call.signal?.reason;
    this.#sendCancelled(call.id, reason);
    call.reject(reason ?? new LocalError(ErrorCode.RequestTimeout, 'Request cancelled'));
  }

  /** @internal the timer (onCallTimeout) lands here. */
  timeoutCall(call: PendingCall): void {
    if (!this.#settle(call)) return;
    const total = call.totalBound;
    const message = total ? 'Request exceeded maxTotalTimeout' : 'Request timed out';
    this.#sendCancelled(call.id, message);
    const data = total ? { maxTotalTimeout: call.maxTotalMs } : { timeout: call.timeoutMs };
    call.reject(new LocalError(ErrorCode.RequestTimeout, message, data));
  }

  #sendCancelled(requestId: RequestId, reason: unknown): void {
    if (this.#closed) return;
    // An undefined reason is left out of the frame, as JSON leaves it out.
    this.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: reasonText(reason) } });
  }

  // --- incoming ---

  /**
   * Handles one received frame: an already parsed value, or a JSON string when the engine reads text (its
   * transport brings a reader; RpcPeer always does). Never throws; every answer goes out through the transport.
   */
  receive(frame: unknown, extra?: MessageExtraInfo): void {
    try {
      this.#receiveFrame(frame, extra);
    } catch (error) {
      // Only reachable through hostile values (throwing getters, proxies): report and move on.
      this.diagnose('invalid-frame', `Frame could not be handled: ${describe(error)}`, { error });
    }
  }

  #receiveFrame(frame: unknown, extra: MessageExtraInfo | undefined): void {
    if (this.#closed) {
      this.diagnose('closed', 'Frame after close dropped');
      return;
    }
    let value = frame;
    if (typeof frame === 'string') {
      value = this.#readFrame?.(frame, this);
      // Answered (or dropped) by the reader; without one, text cannot be read here.
      if (value === undefined) {
        if (this.#readFrame === undefined) this.diagnose('invalid-frame', 'Text frame dropped: no reader');
        return;
      }
    }
    if (Array.isArray(value)) return this.receiveBatch(value, extra);
    this.dispatch(value, undefined, extra);
  }

  /** @internal A batch (an array): refused here; RpcPeer accepts batches when asked to. */
  receiveBatch(items: unknown[], _extra: MessageExtraInfo | undefined): void {
    this.post(invalidRequestResponse(null, items.length === 0 ? 'empty batch' : 'batches are not supported'));
  }

  /** @internal Classifies one message (frame.ts) and hands it on: request, notification, response, or an answer. */
  dispatch(value: unknown, batch: Batch | undefined, extra: MessageExtraInfo | undefined): void {
    const verdict = inspectMessage(value);
    switch (verdict.kind) {
      case 'request':
        return this.#onRequest(verdict.id, verdict.method, verdict.params, batch, extra);
      case 'notification':
        return this.#onNotification(verdict.method, verdict.params, extra);
      case 'response':
        return this.#onResponse(verdict.message);
      case 'invalid':
        return this.#emit(invalidRequestResponse(verdict.id, verdict.reason), batch);
    }
  }

  #onRequest(
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    batch: Batch | undefined,
    extra: MessageExtraInfo | undefined,
  ): void {
    if (this.#inbound.has(id))
      return this.#emit(invalidRequestResponse(id, 'id is in use by a request in progress'), batch);
    const handler = this.#requestHandlers.get(method);
    if (handler === undefined && this.fallbackRequestHandler === undefined) {
      return this.#emit(errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${method}`), batch);
    }
    const ctx = new InboundRequest(this, id, method, params, extra, batch);
    this.#inbound.set(id, ctx);
    batch?.open();
    ctx.run(handler, params);
  }

  /** @internal Marks a request answered; false if it was cancelled (or closed) and must get no response. */
  complete(ctx: InboundRequest): boolean {
    if (ctx.done) return false;
    ctx.done = true;
    if (this.#inbound.get(ctx.id) === ctx) this.#inbound.delete(ctx.id);
    return true;
  }

  /** Sends an answer now, or adds it to the batch being answered. */
  #emit(response: JsonRpcFrame, batch: Batch | undefined): void {
    if (batch !== undefined) batch.add(response);
    else this.post(response);
  }

  #onNotification(method: string, params: JsonObject | undefined, extra: MessageExtraInfo | undefined): void {
    let builtIn = true;
    if (method === 'notifications/cancelled') this.#onCancelled(params);
    else if (method === 'notifications/progress') this.#onProgress(params);
    else builtIn = false;
    const handler = this.#notificationHandlers.get(method);
    if (handler === undefined && this.fallbackNotificationHandler === undefined) {
      if (!builtIn) this.diagnose('unknown-notification', `No handler for notification ${method}`, { method });
      return;
    }
    const issue = this.validateParams?.(method, params);
    if (issue != null) {
      return this.diagnose('invalid-notification', `Invalid params: ${issue.pointer} ${issue.message}`, { method });
    }
    this.#runNotificationHandler(handler, method, params, extra);
  }

  #runNotificationHandler(
    handler: AnyHandler | undefined,
    method: string,
    params: JsonObject | undefined,
    extra: MessageExtraInfo | undefined,
  ): void {
    const ctx: NotificationContext = { method, meta: metaOf(params), extra };
    try {
      const result =
        handler !== undefined ? handler(params, ctx) : this.fallbackNotificationHandler?.(method, params, ctx);
      if (isThenable(result))
        Promise.resolve(result).then(undefined, (error) => this.reportHandlerError(error, method));
    } catch (error) {
      this.reportHandlerError(error, method);
    }
  }

  /** notifications/cancelled: abort the named request's handler; its response is never sent. */
  #onCancelled(params: JsonObject | undefined): void {
    const requestId = params?.['requestId'];
    const ctx = isValidRequestId(requestId) ? this.#inbound.get(requestId) : undefined;
    if (ctx === undefined) return; // Already answered or never seen: the spec says ignore it.
    const reason = typeof params?.['reason'] === 'string' ? params['reason'] : 'Request cancelled by the peer';
    this.#cancelInbound(ctx, abortError(reason));
  }

  #cancelInbound(ctx: InboundRequest, reason: unknown): void {
    if (ctx.done) return;
    ctx.done = true;
    if (this.#inbound.get(ctx.id) === ctx) this.#inbound.delete(ctx.id);
    ctx.batch?.close(undefined);
    ctx.abort(reason);
  }

  /** notifications/progress: route by token to the pending call that asked for progress. */
  #onProgress(params: JsonObject | undefined): void {
    const token = params?.['progressToken'];
    const call = isValidRequestId(token) ? this.#pending.get(token) : undefined;
    const progress = progressOf(params);
    if (call === undefined || call.onProgress === undefined || progress === undefined) {
      // Late (after the response) or for a token we never issued: harmless, so dropped quietly.
      return this.diagnose('unroutable-progress', `Progress for unknown token ${String(token)} dropped`);
    }
    if (call.resetOnProgress) call.rearm();
    try {
      call.onProgress(progress);
    } catch (error) {
      this.diagnose('callback-error', `onProgress threw: ${describe(error)}`, { id: call.id, error });
    }
  }

  #onResponse(message: JsonObject): void {
    const id = message['id'];
    const call = isValidRequestId(id) ? this.#pending.get(id) : undefined;
    if (call === undefined) {
      const error = isPlainObject(message['error']) ? message['error'] : undefined;
      const what = error === undefined ? '' : ` (error ${String(error['code'])}: ${String(error['message'])})`;
      const detail = { id: isValidRequestId(id) ? id : null, error };
      return this.diagnose('unknown-response', `Response for unknown id ${String(id)} dropped${what}`, detail);
    }
    this.#settle(call);
    const problem = malformedResponse(message);
    if (problem !== undefined) {
      this.diagnose('malformed-response', `Malformed response for id ${id}: ${problem}`, { id: call.id });
      return call.reject(new ProtocolError(ErrorCode.InternalError, `Malformed response: ${problem}`));
    }
    if (Object.hasOwn(message, 'error')) {
      const error = message['error'] as JsonRpcErrorObject;
      return call.reject(new ProtocolError(error.code, error.message, error.data));
    }
    call.succeed(message['result']);
  }

  // --- closing and reporting ---

  #shutdown(): void {
    if (this.#closed) return;
    this.#closed = true;
    const error = connectionClosed();
    for (const call of [...this.#pending.values()]) this.#failCall(call, error);
    for (const ctx of [...this.#inbound.values()]) this.#cancelInbound(ctx, error);
    try {
      this.onclose?.();
    } catch (callbackError) {
      this.diagnose('callback-error', `onclose threw: ${describe(callbackError)}`, { error: callbackError });
    }
  }

  /** @internal */
  reportHandlerError(error: unknown, method: string, id?: RequestId): void {
    try {
      this.onHandlerError?.(error, id === undefined ? { method } : { method, id });
    } catch {
      // A broken logger must not break dispatch.
    }
  }

  /** @internal */
  diagnose(kind: DiagnosticKind, message: string, detail?: Omit<PeerDiagnostic, 'kind' | 'message'>): void {
    try {
      this.onDiagnostic?.({ kind, message, ...detail });
    } catch {
      // Reporting is best effort by design.
    }
  }
}
