/**
 * The types of the JSON-RPC engine (engine.ts): method tables for an untyped peer, request and notify options,
 * what handlers receive, the diagnostics the engine reports, and its options and hooks.
 *
 * Hand-written runtime copied unchanged into generated output. Types only.
 */
import type {
  HandlerResultOf,
  NotificationTable,
  TaskAugmentedMethod,
  ParamsArgs,
  RequestId,
  RequestSpec,
  NotificationSpec,
  RequestTable,
} from './jsonrpc.js';
import type { ProtocolError } from './jsonrpc.js';
import type { JsonRpcFrame, MessageExtraInfo } from './transport.js';

export type JsonObject = { [key: string]: unknown };

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
  /** A task-augmented request sent with `params.task` (2025-11-25): answered with the created task. */
  request<M extends TaskAugmentedMethod<OutRequests>>(
    method: M,
    params: OutRequests[M]['params'] & { task: object },
    options?: RequestOptions,
  ): Promise<Exclude<OutRequests[M]['taskResult'], undefined>>;
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
) => HandlerResultOf<S> | Promise<HandlerResultOf<S>>;
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

/** RpcEngine's options: a peer's without `batches` (the engine refuses batches). */
export type EngineOptions<
  OutRequests extends RequestTable<OutRequests> = AnyRequestTable,
  OutNotifications extends NotificationTable<OutNotifications> = AnyNotificationTable,
> = Omit<PeerOptions<OutRequests, OutNotifications>, 'batches'>;

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
