/**
 * The MCP client lifecycle on top of RpcPeer, for every spec version:
 * - versions with `initialize`: the handshake, version negotiation and `notifications/initialized`;
 * - 2026-07-28 on: per-request `_meta` (protocol version, client info, capabilities), `server/discover`,
 *   and the input-required loop: when a result asks for input, the registered handlers answer each
 *   embedded request and the call is retried with `inputResponses` and `requestState`, so a call
 *   resolves to its final result.
 *
 * Hand-written runtime copied into generated output as `runtime/client-base.ts`. The generated
 * `client.ts` subclasses it with the version's method tables and one typed stub per request.
 */
import {
  ErrorCode,
  ProtocolError,
  isPlainObject,
  type NotificationTable,
  type ParamsArgs,
  type RequestTable,
} from './jsonrpc.js';
import {
  RpcPeer,
  type HandlerContext,
  type NotificationHandler,
  type PeerOptions,
  type RequestHandler,
  type RequestOptions,
} from './peer.js';
import { paramHeaderRules, paramHeaders, type ParamHeaderRule } from './http-headers.js';
import type { Transport } from './transport.js';

type JsonObject = { [key: string]: unknown };

/** What the generated maps say about the spec version (the `PROTOCOL` constant). */
export interface ProtocolDescription {
  readonly version: string | null;
  readonly protocolVersion: string | null;
  readonly features: {
    readonly batches: boolean;
    readonly initialize: boolean;
    readonly perRequestMeta: boolean;
    readonly inputRequests: boolean;
    readonly capabilityExtensions: boolean;
  };
  /** Facts about the version the runtime reads instead of keeping copies (see src/model/protocol-facts.ts). */
  readonly facts: ProtocolFacts;
}

/** The `facts` of `PROTOCOL`. */
export interface ProtocolFacts {
  /** Methods the lifecycle answers or sends itself. */
  readonly lifecycleMethods: readonly string[];
  /** Requests only connect() sends. */
  readonly handshakeRequests: readonly string[];
  /** Method prefix → the server capability announcing it. */
  readonly capabilityOf: { readonly [prefix: string]: string };
  /** Reserved `_meta` keys by short name (`serverInfo` → `io.modelcontextprotocol/serverInfo`). */
  readonly metaKeys: { readonly [name: string]: string };
  /** Error codes by schema definition name. */
  readonly errorCodes: { readonly [name: string]: number };
  readonly transport: {
    readonly sessions: boolean;
    readonly metadataHeaders: boolean;
    readonly nameSources: { readonly [method: string]: string };
  };
}

/** Sets `meta[key]` when the version names that key (absent keys are simply not sent). */
export function setMeta(meta: JsonObject, key: string | undefined, value: unknown): void {
  if (key !== undefined) meta[key] = value;
}

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
}

export interface McpClientOptions extends Omit<PeerOptions, 'batches'> {
  clientInfo: Implementation;
  /** Client capabilities; derived from the registered handlers when omitted (roots, sampling, elicitation). */
  capabilities?: JsonObject;
  /** The version to ask for; default the generated spec's version. */
  protocolVersion?: string;
  /** Versions the client accepts from the server; default just `protocolVersion`. */
  supportedProtocolVersions?: string[];
  /** 2026-07-28 on: call `server/discover` in connect() (default true). */
  discover?: boolean;
  /** Most input-required rounds one call may take before it fails (default 8). */
  maxInputRounds?: number;
}

/** The input-required loop's retry fields and the per-request `_meta` are filled in by the client. */
export type CallerParams<P> = P extends { _meta: infer M }
  ? Omit<P, '_meta' | 'inputResponses' | 'requestState'> & {
      _meta?: Partial<M> & JsonObject;
      inputResponses?: P extends { inputResponses?: infer R } ? R : never;
      requestState?: string;
    }
  : P;

const INPUT_REQUIRED = 'input_required';

export class McpClientBase<
  OutRequests extends RequestTable<OutRequests>,
  OutNotifications extends NotificationTable<OutNotifications>,
  InRequests extends RequestTable<InRequests>,
  InNotifications extends NotificationTable<InNotifications>,
> {
  readonly peer: RpcPeer<any, any, InRequests, InNotifications>;
  /** The version agreed with the server (after connect). */
  negotiatedVersion: string | undefined;
  serverInfo: Implementation | undefined;
  serverCapabilities: JsonObject | undefined;
  instructions: string | undefined;
  /** The whole `initialize` or `server/discover` result. */
  serverDescription: JsonObject | undefined;

  readonly #inputHandlers = new Map<string, (params: any, ctx: any) => unknown>();
  /** Tools seen in tools/list results: which arguments each mirrors into `Mcp-Param-*` headers. */
  readonly #toolHeaders = new Map<string, readonly ParamHeaderRule[]>();

  readonly protocol: ProtocolDescription;
  readonly options: McpClientOptions;

  constructor(transport: Transport, protocol: ProtocolDescription, options: McpClientOptions) {
    this.protocol = protocol;
    this.options = options;
    this.peer = new RpcPeer(transport, { ...options, batches: false });
    this.negotiatedVersion = protocol.features.perRequestMeta ? this.#requestedVersion : undefined;
  }

  get #requestedVersion(): string {
    const version = this.options.protocolVersion ?? this.protocol.protocolVersion ?? this.protocol.version;
    if (!version) throw new Error('McpClient: no protocol version known for this schema; pass options.protocolVersion');
    return version;
  }

  /** Capabilities as sent: the explicit ones, else derived from the registered server→client handlers. */
  get capabilities(): JsonObject {
    if (this.options.capabilities) return this.options.capabilities;
    const caps: JsonObject = {};
    const has = (method: string) => this.#inputHandlers.has(method);
    // listChanged is only claimed by passing capabilities explicitly: the client cannot know it will send it.
    if (has('roots/list')) caps['roots'] = {};
    if (has('sampling/createMessage')) caps['sampling'] = {};
    if (has('elicitation/create')) caps['elicitation'] = {};
    return caps;
  }

  /** Start the transport and run the version's handshake. */
  async connect(): Promise<void> {
    await this.peer.start();
    const { features } = this.protocol;
    if (features.initialize) {
      const supported = this.options.supportedProtocolVersions ?? [this.#requestedVersion];
      let result: JsonObject;
      try {
        result = (await this.peer.request('initialize', {
          protocolVersion: this.#requestedVersion,
          capabilities: this.capabilities,
          clientInfo: this.options.clientInfo,
        })) as JsonObject;
      } catch (error) {
        await this.peer.close();
        throw error;
      }
      const version = String(result['protocolVersion']);
      if (!supported.includes(version)) {
        await this.peer.close();
        throw new ProtocolError(
          ErrorCode.InvalidRequest,
          `Server answered with protocol version ${version}; this client supports ${supported.join(', ')}`,
        );
      }
      this.#acceptServer(result, version);
      await this.peer.notify('notifications/initialized');
    } else if (features.perRequestMeta && this.options.discover !== false) {
      let result: JsonObject;
      try {
        result = (await this.request('server/discover' as never, undefined as never)) as JsonObject;
      } catch (error) {
        await this.peer.close();
        throw error;
      }
      const versions = Array.isArray(result['supportedVersions']) ? (result['supportedVersions'] as string[]) : [];
      const version = versions.includes(this.#requestedVersion) ? this.#requestedVersion : undefined;
      if (!version) {
        await this.peer.close();
        throw new ProtocolError(
          ErrorCode.InvalidRequest,
          `Server supports ${versions.join(', ') || 'no versions'}, not ${this.#requestedVersion}`,
        );
      }
      this.#acceptServer(result, version);
    }
  }

  #acceptServer(result: JsonObject, version: string): void {
    this.serverDescription = result;
    this.negotiatedVersion = version;
    // 2026-07-28 on, the server names itself in every result's _meta; before, in the initialize result.
    const meta = isPlainObject(result['_meta']) ? result['_meta'] : undefined;
    const key = this.protocol.facts.metaKeys['serverInfo'];
    const info = meta !== undefined && key !== undefined && isPlainObject(meta[key]) ? meta[key] : result['serverInfo'];
    this.serverInfo = isPlainObject(info) ? (info as Implementation) : undefined;
    this.serverCapabilities = isPlainObject(result['capabilities']) ? result['capabilities'] : undefined;
    this.instructions = typeof result['instructions'] === 'string' ? result['instructions'] : undefined;
    const transport = this.peer.transport as Transport & { setProtocolVersion?: (v: string) => void };
    transport.setProtocolVersion?.(version);
  }

  /** Send a request typed by the client's method table; resolves to the final result. */
  request<M extends keyof OutRequests & string>(
    method: M,
    ...args: ParamsArgs<OutRequests[M], [options?: RequestOptions | undefined]>
  ): Promise<OutRequests[M]['result']>;
  async request(method: string, params?: any, options?: RequestOptions): Promise<unknown> {
    if (method === 'tools/call' && this.#mirrorsToolParams) {
      try {
        return await this.#send(method, params, this.#withParamHeaders(params, options));
      } catch (error) {
        const mismatch = this.protocol.facts.errorCodes['HeaderMismatchError'];
        if (!(error instanceof ProtocolError) || error.code !== mismatch) throw error;
        // The tool's definition may have changed: list the tools again and retry once with fresh headers.
        await this.#relistTools(options);
        return this.#send(method, params, this.#withParamHeaders(params, options));
      }
    }
    const result = await this.#send(method, params, options);
    if (method === 'tools/list' && this.#mirrorsToolParams) return this.#screenTools(result);
    return result;
  }

  /** Whether the transport mirrors tool arguments into headers (Streamable HTTP from 2026-07-28 on). */
  get #mirrorsToolParams(): boolean {
    const transport = this.peer.transport as Transport & { mirrorsToolParams?: boolean };
    return this.protocol.features.perRequestMeta && transport.mirrorsToolParams === true;
  }

  /**
   * Remembers each listed tool's `x-mcp-header` rules and leaves out tools whose annotations are invalid
   * (the transport requires it: one malformed tool must not break the others).
   */
  #screenTools(result: unknown): unknown {
    if (!isPlainObject(result) || !Array.isArray(result['tools'])) return result;
    const kept: unknown[] = [];
    for (const tool of result['tools']) {
      if (!isPlainObject(tool) || typeof tool['name'] !== 'string') continue;
      const rules = paramHeaderRules(tool['inputSchema']);
      if (!rules.ok) {
        this.peer.diagnose('invalid-notification', `Tool ${JSON.stringify(tool['name'])} left out: ${rules.reason}`);
        continue;
      }
      this.#toolHeaders.set(tool['name'], rules.rules);
      kept.push(tool);
    }
    return { ...result, tools: kept };
  }

  async #relistTools(options: RequestOptions | undefined): Promise<void> {
    let cursor: string | undefined;
    do {
      const page = (await this.#send(
        'tools/list',
        cursor === undefined ? undefined : { cursor },
        options,
      )) as JsonObject;
      this.#screenTools(page);
      cursor = typeof page['nextCursor'] === 'string' ? page['nextCursor'] : undefined;
    } while (cursor !== undefined);
  }

  #withParamHeaders(params: JsonObject | undefined, options: RequestOptions | undefined): RequestOptions | undefined {
    const name = params?.['name'];
    const rules = typeof name === 'string' ? this.#toolHeaders.get(name) : undefined;
    if (rules === undefined || rules.length === 0) return options;
    return { ...options, headers: { ...options?.headers, ...paramHeaders(rules, params?.['arguments']) } };
  }

  async #send(method: string, params: any, options: RequestOptions | undefined): Promise<unknown> {
    const { features } = this.protocol;
    let sent = features.perRequestMeta ? this.#withRequestMeta(params) : params;
    if (!features.inputRequests) return this.peer.request(method, sent, options);
    const maxRounds = this.options.maxInputRounds ?? 8;
    for (let round = 0; ; round++) {
      const result = (await this.peer.request(method, sent, options)) as JsonObject;
      if (!isPlainObject(result) || result['resultType'] !== INPUT_REQUIRED) return result;
      if (round >= maxRounds) {
        throw new ProtocolError(
          ErrorCode.InternalError,
          `${method}: server still asks for input after ${maxRounds} rounds`,
        );
      }
      sent = await this.#answerInputRequests(sent ?? {}, result, options?.signal);
    }
  }

  /** Send a notification typed by the client's notification table. */
  notify<M extends keyof OutNotifications & string>(method: M, ...args: ParamsArgs<OutNotifications[M]>): Promise<void>;
  notify(method: string, params?: any): Promise<void> {
    return this.peer.notify(method, params);
  }

  /** Handle a request the server sends (or, 2026-07-28 on, embeds as an input request). */
  setRequestHandler<M extends keyof InRequests & string>(
    method: M,
    handler: RequestHandler<InRequests[M], HandlerContext<any, any>>,
  ): void {
    this.#inputHandlers.set(method, handler as never);
    this.peer.setRequestHandler(method, handler);
  }

  setNotificationHandler<M extends keyof InNotifications & string>(
    method: M,
    handler: NotificationHandler<InNotifications[M]>,
  ): void {
    this.peer.setNotificationHandler(method, handler);
  }

  close(): Promise<void> {
    return this.peer.close();
  }

  /** 2026-07-28 on: every request carries the protocol version, client info and capabilities. */
  #withRequestMeta(params: JsonObject | undefined): JsonObject {
    const given = isPlainObject(params?.['_meta']) ? params['_meta'] : {};
    const keys = this.protocol.facts.metaKeys;
    const meta: JsonObject = {};
    setMeta(meta, keys['protocolVersion'], this.negotiatedVersion ?? this.#requestedVersion);
    setMeta(meta, keys['clientInfo'], this.options.clientInfo);
    setMeta(meta, keys['clientCapabilities'], this.capabilities);
    return { ...params, _meta: { ...meta, ...given } };
  }

  /** Answer each embedded input request with its registered handler; the retry's params. */
  async #answerInputRequests(
    params: JsonObject,
    result: JsonObject,
    signal: AbortSignal | undefined,
  ): Promise<JsonObject> {
    const requests = isPlainObject(result['inputRequests']) ? result['inputRequests'] : {};
    const responses: JsonObject = {};
    for (const [key, request] of Object.entries(requests)) {
      if (!isPlainObject(request) || typeof request['method'] !== 'string') {
        throw new ProtocolError(ErrorCode.InvalidRequest, `input request "${key}" has no method`);
      }
      const handler = this.#inputHandlers.get(request['method']);
      if (!handler) {
        throw new ProtocolError(
          ErrorCode.MethodNotFound,
          `server asks for ${request['method']} input, but no handler is registered for it`,
        );
      }
      const ctx = inputContext(key, request['method'], request['params'], signal);
      responses[key] = await handler(request['params'], ctx);
    }
    const next: JsonObject = { ...params, inputResponses: responses };
    if (typeof result['requestState'] === 'string') next['requestState'] = result['requestState'];
    else delete next['requestState'];
    return next;
  }
}

/** The ctx an input-request handler gets: like a request's, without a way to answer out of band. */
function inputContext(
  key: string,
  method: string,
  params: unknown,
  signal: AbortSignal | undefined,
): HandlerContext<any, any> {
  const never = () =>
    Promise.reject(new ProtocolError(ErrorCode.InvalidRequest, 'input requests cannot send messages'));
  return {
    id: key,
    method,
    signal: signal ?? new AbortController().signal,
    meta: isPlainObject(params) && isPlainObject(params['_meta']) ? params['_meta'] : undefined,
    extra: undefined,
    progress: () => Promise.resolve(),
    notify: never,
    request: never,
    sendRaw: never,
  };
}
