/**
 * The engine's per-call records (engine.ts): an outgoing request awaiting its response (with its deadline), an
 * incoming request being handled (the handler's `ctx`, which runs the handler and answers), and a batch being answered. Classes rather than
 * closures: one allocation per call, methods on the prototype.
 *
 * Hand-written runtime copied unchanged into generated output. No dependencies.
 */
import { startDeadline, stopDeadline, type TimedCall } from './call-deadlines.js';
import { ErrorCode, errorResponse, isValidRequestId, type RequestId } from './jsonrpc.js';
import { asProtocolError, invalidParams, isThenable, metaOf } from './peer-messages.js';
import type { JsonObject, Progress, RequestOptions } from './peer-types.js';
import type { RpcEngine } from './engine.js';
import { frameOversize, type JsonRpcFrame, type MessageExtraInfo } from './transport.js';

/** setTimeout fires immediately above this; longer timeouts are treated as none. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a call's result goes through before its caller sees it: the last argument of the engine's `request`. */
export type Finish = (result: unknown) => unknown;
/** The engine's `request` with that argument, which its overloads leave out (internal: the MCP client's). */
export type Finishing = {
  request(method: string, params: unknown, options: unknown, finish?: Finish): Promise<unknown>;
};

/** A registered handler as the engine stores it. */
export type AnyHandler = (params: JsonObject | undefined, ctx: unknown) => unknown;

/** One outgoing request awaiting its response. */
export class PendingCall implements TimedCall {
  resolve!: (value: unknown) => void;
  reject!: (reason: unknown) => void;
  /** Set while armed (call-deadlines.ts). */
  deadline = 0;
  declare readonly timeoutMs: number;
  declare readonly maxTotalMs: number | undefined;
  /** The armed deadline is the maxTotalTimeout deadline, not the per-call timeout. */
  totalBound = false;
  declare readonly resetOnProgress: boolean;
  declare readonly startedAt: number;

  declare readonly peer: RpcEngine<any, any, any, any>;
  declare readonly id: RequestId;
  declare readonly onProgress: ((progress: Progress) => void) | undefined;
  declare readonly signal: AbortSignal | undefined;
  /** What the result goes through before the caller sees it (the MCP client's look for input requests). */
  declare readonly finish: Finish | undefined;

  constructor(
    peer: RpcEngine<any, any, any, any>,
    id: RequestId,
    onProgress: ((progress: Progress) => void) | undefined,
    signal: AbortSignal | undefined,
    options: RequestOptions | undefined,
    finish?: Finish | undefined,
  ) {
    this.peer = peer;
    this.id = id;
    this.onProgress = onProgress;
    this.signal = signal;
    this.finish = finish;
    const maxTotal = options?.maxTotalTimeout;
    this.maxTotalMs = maxTotal;
    this.resetOnProgress = options?.resetTimeoutOnProgress === true;
    this.timeoutMs = options?.timeout ?? peer.timeout;
    this.startedAt = maxTotal === undefined ? 0 : Date.now();
  }

  /** Resolves the caller's promise with `result`, through `finish` when there is one (a throw rejects it). */
  succeed(result: unknown): void {
    try {
      this.resolve(this.finish === undefined ? result : this.finish(result));
    } catch (error) {
      this.reject(error);
    }
  }

  /** Arms the deadline: the per-call timeout, or what is left of maxTotalTimeout if that is sooner. */
  arm(elapsed: number): void {
    let ms = this.timeoutMs;
    this.totalBound = false;
    if (this.maxTotalMs !== undefined) {
      const left = Math.max(0, this.maxTotalMs - elapsed);
      if (left <= ms) {
        ms = left;
        // Remembered rather than recomputed from clocks at expiry, which may disagree by a millisecond.
        this.totalBound = true;
      }
    }
    if (ms >= 0 && ms <= MAX_TIMER_MS) startDeadline(this, ms);
  }

  /** Restarts the timeout on progress, within what is left of maxTotalTimeout. */
  rearm(): void {
    this.disarm();
    this.arm(this.maxTotalMs === undefined ? 0 : Date.now() - this.startedAt);
  }

  disarm(): void {
    stopDeadline(this);
  }

  onDeadline(): void {
    this.peer.timeoutCall(this);
  }
}

/**
 * The calls waiting on each caller's AbortSignal, behind one listener per signal: an app that hands one
 * signal to thousands of calls adds one abort listener to it, not one per call in flight.
 */
const callsBySignal = new WeakMap<AbortSignal, Set<PendingCall>>();

/** Aborts `call` when `signal` does (one listener per signal, shared by its calls). */
export function watchSignal(signal: AbortSignal, call: PendingCall): void {
  let calls = callsBySignal.get(signal);
  if (calls === undefined) {
    calls = new Set();
    callsBySignal.set(signal, calls);
    signal.addEventListener('abort', onSignalAbort, { once: true });
  }
  calls.add(call);
}

/** Forgets a settled call; the signal's listener goes with its last call. */
export function unwatchSignal(signal: AbortSignal, call: PendingCall): void {
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

/** One incoming request being handled; it is the handler's `ctx`. */
export class InboundRequest {
  done = false;
  #controller: AbortController | undefined;
  declare readonly meta: JsonObject | undefined;

  readonly #peer: RpcEngine<any, any, any, any>;
  declare readonly id: RequestId;
  declare readonly method: string;
  declare readonly extra: MessageExtraInfo | undefined;
  declare readonly batch: Batch | undefined;

  constructor(
    peer: RpcEngine<any, any, any, any>,
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    extra: MessageExtraInfo | undefined,
    batch: Batch | undefined,
  ) {
    this.#peer = peer;
    this.id = id;
    this.method = method;
    this.extra = extra;
    this.batch = batch;
    this.meta = metaOf(params);
  }

  /** Runs the handler, after the peer's beforeRequest and validateParams hooks, and answers with its outcome. */
  run(handler: AnyHandler | undefined, params: JsonObject | undefined): void {
    const peer = this.#peer;
    let result: unknown;
    try {
      const refusal = peer.beforeRequest?.(this.method, params, this as never);
      if (refusal !== undefined) return this.#fail(refusal);
      const issue = peer.validateParams?.(this.method, params);
      if (issue != null) return this.#fail(invalidParams(issue));
      result =
        handler !== undefined
          ? handler(params, this)
          : peer.fallbackRequestHandler?.(this.method, params, this as never);
      if (!isThenable(result)) return this.#succeed(result);
    } catch (error) {
      return this.#fail(error);
    }
    Promise.resolve(result).then(
      (value) => this.#succeed(value),
      (error) => this.#fail(error),
    );
  }

  #succeed(value: unknown): void {
    if (!this.#peer.complete(this)) return;
    // MCP results are objects; a handler with nothing to say answers {}.
    const result = value === undefined ? {} : value;
    this.#answer({ jsonrpc: '2.0', id: this.id, result } as JsonRpcFrame);
  }

  #fail(error: unknown): void {
    if (!this.#peer.complete(this)) return;
    const protocolError = asProtocolError(error);
    if (protocolError === undefined) this.#peer.reportHandlerError(error, this.method, this.id);
    // Anything but a ProtocolError becomes a bare -32603: no message, stack or data leaks to the peer.
    const body = protocolError?.toJSON() ?? { code: ErrorCode.InternalError, message: 'Internal error' };
    this.#answer({ jsonrpc: '2.0', id: this.id, error: body });
  }

  /** Sends the handler's response, replaced by an error if it cannot go out as is. */
  #answer(response: JsonRpcFrame): void {
    const peer = this.#peer;
    let size: number | undefined;
    let fitted = response;
    try {
      size = frameOversize(peer.transport, response, peer.maxFrameSize);
    } catch (error) {
      peer.reportHandlerError(error, this.method, this.id);
      fitted = errorResponse(this.id, ErrorCode.InternalError, 'Internal error');
    }
    if (size !== undefined) {
      const limit = peer.maxFrameSize;
      peer.diagnose('oversized-frame', `Response of ${size} bytes exceeds maxFrameSize (${limit} bytes)`, {
        id: this.id,
        method: this.method,
      });
      fitted = errorResponse(this.id, ErrorCode.InternalError, 'Response exceeds maxFrameSize', { size, limit });
    }
    if (this.batch !== undefined) this.batch.close(fitted);
    else peer.post(fitted);
  }

  /** Created on first use: most handlers never look at it. */
  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    this.#controller ??= new AbortController();
    this.#controller.abort(reason);
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    const token = this.meta?.['progressToken'];
    if (this.done || !isValidRequestId(token)) return Promise.resolve();
    // What is undefined is left out of the frame, as JSON leaves it out.
    const params = { progressToken: token, progress, total, message };
    return this.#peer.notify('notifications/progress', params, { relatedRequestId: this.id });
  }

  notify(method: string, params?: JsonObject): Promise<void> {
    return this.#peer.notify(method, params, { relatedRequestId: this.id });
  }

  request(method: string, params?: any, options?: RequestOptions): Promise<unknown> {
    return this.#peer.request(method, params, { ...options, relatedRequestId: this.id });
  }

  sendRaw(message: JsonRpcFrame): Promise<void> {
    try {
      return this.#peer.transport.send(message, { relatedRequestId: this.id });
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

/** Collects the answers to one batch; sends them as one array once every request has answered. */
export class Batch {
  readonly #responses: JsonRpcFrame[] = [];
  #outstanding = 0;
  #sealed = false;

  readonly #peer: RpcEngine<any, any, any, any>;

  constructor(peer: RpcEngine<any, any, any, any>) {
    this.#peer = peer;
  }

  add(response: JsonRpcFrame): void {
    this.#responses.push(response);
  }

  open(): void {
    this.#outstanding++;
  }

  /** A request finished: with its response, or undefined when cancelled. */
  close(response: JsonRpcFrame | undefined): void {
    if (response !== undefined) this.#responses.push(response);
    this.#outstanding--;
    this.#flushIfDone();
  }

  seal(): void {
    this.#sealed = true;
    this.#flushIfDone();
  }

  #flushIfDone(): void {
    if (!this.#sealed || this.#outstanding > 0) return;
    const peer = this.#peer;
    if (this.#responses.length > 0 && !peer.isClosed) peer.post(this.#responses as JsonRpcFrame);
  }
}
