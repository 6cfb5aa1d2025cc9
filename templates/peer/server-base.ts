/**
 * The MCP server lifecycle on top of RpcPeer, for every spec version:
 * - versions with `initialize`: version negotiation, and every request but `ping` refused until then;
 * - 2026-07-28 on: `server/discover`, and the per-request `_meta` protocol version checked;
 * - dual-era (a modern server that also accepts legacy versions, the default): a connection that opens with
 *   `initialize` is served as a legacy session — see `legacy` below and the mapping table in
 *   docs/transports-and-versions.md;
 * - capabilities follow from the handlers given; params are checked by the compiled validators
 *   (-32602 with the JSON pointer of the first failing field); results optionally too.
 *
 * Hand-written runtime copied into generated output. The generated
 * `server.ts` gives it the version's handler interface and validators.
 */
import { ErrorCode, ProtocolError, isPlainObject } from '../core/jsonrpc.js';
import { RpcPeer, type HandlerContext, type NotificationContext, type ParamsIssue } from '../core/peer.js';
import type { PeerOptions } from '../core/peer.js';
import { isThenable } from '../core/peer-messages.js';
import {
  speakableVersions,
  type Era,
  type ServerProtocolDescription,
  type Implementation,
  type VersionFact,
} from './protocol.js';
import { capabilitiesAt, hasExtensionsCapability, mergeCapabilities } from './capabilities.js';
import { checkMandatoryMethods, requestCapabilities, withExtensionIds, withOfferedSettings } from './capabilities.js';
import { checkParamHeaders } from './param-header-check.js';
import { callTool } from './tool-call.js';
import type { Transport } from '../core/transport.js';
import { paramsIssue, resultIssue, type CompiledValidator } from './validation.js';
import { answerInputsInline, checkReadingAnswers, inputRound } from './input-round.js';
import { legacyCapabilities, legacyInitializeIssue, withSessionMeta, withoutResultType } from './legacy-session.js';
import { guardNestedRequests } from './nested-requests.js';
import { LOG_LEVELS, gateLogs } from './log-gate.js';
import { withAuth } from './auth-info.js';

export type { WithDefaults } from './result-defaults.js';
import { fillResult, resultFills, type ResultFill } from './result-defaults.js';
export { inputRound, type InputAsk, type InputResponsesOf, type InputRound, type InputsHelper } from './input-round.js';

type JsonObject = { [key: string]: unknown };
/** A user's handler as the dispatcher calls it (the generated Handlers type is the typed view). */
type UserHandler = (params: unknown, ctx: HandlerContext) => unknown;
/** A request handler as `connect` registers it, with what its results are given (`#fillOf`). */
interface Route {
  readonly method: string;
  readonly handler: UserHandler;
  readonly fill: ResultFill | undefined;
}

export interface McpServerOptions extends Omit<PeerOptions, 'batches' | 'validateParams'> {
  serverInfo: Implementation;
  instructions?: string;
  /** Merged over the capabilities derived from the handlers (an `extensions` entry adds to theirs). */
  capabilities?: object;
  /**
   * Versions this server speaks, in any era; default every known version up to the generated one (a
   * 2026-07-28 server then also serves clients that open with `initialize`). Narrow it to refuse them.
   */
  supportedProtocolVersions?: string[];
  /** Check params with the compiled validators (default true). */
  validateParams?: boolean;
  /** Check handler results with the compiled validators — for development (default false). */
  validateResults?: boolean;
}

/** What a handler knows of the connection it serves. */
export interface SessionInfo {
  /** The version of this connection: from `initialize`, or the last request's `_meta` (modern). */
  protocolVersion: string | undefined;
  /** `legacy` once the client opened with `initialize`; else `modern` (a modern server) or `legacy`. */
  era: Era;
  clientInfo: Implementation | undefined;
  clientCapabilities: JsonObject | undefined;
  initialized: boolean;
  /** The least severe log level the client wants (`logging/setLevel`); undefined: every level. */
  logLevel?: string | undefined;
}

export interface ServerTables {
  paramsValidators: Record<string, CompiledValidator>;
  resultValidators: Record<string, CompiledValidator>;
  /** method → result definition names, for result validation. */
  results: Record<string, readonly string[]>;
  /** Request methods the server may receive (the rest are unknown: -32601). */
  requestMethods: readonly string[];
  notificationMethods: readonly string[];
  /** Vendor extension methods → extension id (capabilities.extensions in 2026-07-28 on). */
  extensionMethods: Record<string, string>;
  /** Task-augmented requests (2025-11-25) → the result a request sent with `params.task` is answered with. */
  taskResults?: Record<string, string>;
  /** Received methods whose params the schema requires: a message without them is invalid params. */
  paramsRequired?: readonly string[];
}

export class McpServerBase<Handlers extends object> {
  readonly sessions: Set<{ peer: RpcPeer<any, any, any, any>; session: SessionInfo }> = new Set();

  readonly protocol: ServerProtocolDescription;
  readonly tables: ServerTables;
  readonly handlers: Partial<Handlers>;
  readonly options: McpServerOptions;
  readonly #missingCapabilityCode: number;
  /** Sessions whose `initialize` has been answered. */
  readonly #opened = new WeakSet<SessionInfo>();
  readonly #supported: readonly VersionFact[];
  /** What a method's results are given (result-defaults.ts), prepared on first use. */
  readonly #fillOf: (method: string) => ResultFill | undefined;
  readonly #modern: string[];
  readonly #legacy: string[];

  constructor(
    protocol: ServerProtocolDescription,
    tables: ServerTables,
    handlers: Partial<Handlers>,
    options: McpServerOptions,
  ) {
    this.protocol = protocol;
    this.tables = tables;
    this.handlers = handlers;
    this.options = options;
    this.#supported = speakableVersions(protocol, options.supportedProtocolVersions);
    this.#missingCapabilityCode = protocol.facts.errorCodes['MissingRequiredClientCapabilityError'] ?? -32600;
    this.#modern = this.#supported.filter((v) => v.era === 'modern').map((v) => v.version);
    this.#legacy = this.#supported.filter((v) => v.era === 'legacy').map((v) => v.version);
    this.#fillOf = resultFills(protocol, options.serverInfo);
    for (const method of Object.keys(handlers)) {
      if (!tables.requestMethods.includes(method) && !tables.notificationMethods.includes(method)) {
        throw new Error(`createServer: "${method}" is not a method this server receives`);
      }
    }
    if (protocol.facts.extensionRules) checkMandatoryMethods(protocol, this.capabilities, Object.keys(handlers));
  }

  /** Whether a request of `method` is one of this server's (its version's) requests. */
  receives(method: string): boolean {
    return this.tables.requestMethods.includes(method);
  }

  /** Versions this server speaks, newest first. */
  get supportedVersions(): string[] {
    return this.#supported.map((v) => v.version);
  }

  /** The same, with their eras (computed once: the options do not change). */
  get supportedFacts(): readonly VersionFact[] {
    return this.#supported;
  }

  #versionsOf(era: Era): string[] {
    return era === 'modern' ? this.#modern : this.#legacy;
  }

  /** A modern server that also accepts `initialize` (some legacy version is supported). */
  get dualEra(): boolean {
    return this.protocol.features.perRequestMeta && this.#versionsOf('legacy').length > 0;
  }

  /** Capabilities: from the handlers given, plus the explicit ones. */
  get capabilities(): JsonObject {
    const caps: JsonObject = {};
    const methods = Object.keys(this.handlers);
    for (const [prefix, capability] of Object.entries(this.protocol.facts.capabilityOf)) {
      if (methods.some((m) => m.startsWith(prefix))) caps[capability] = {};
    }
    if (methods.includes('resources/subscribe'))
      caps['resources'] = { ...(caps['resources'] as JsonObject), subscribe: true };
    const extensionIds = new Set(methods.map((m) => this.tables.extensionMethods[m]).filter((id) => id !== undefined));
    const derived = hasExtensionsCapability(this.protocol) ? withExtensionIds(caps, extensionIds) : caps;
    return mergeCapabilities(withOfferedSettings(this.protocol, derived, methods), this.options.capabilities);
  }

  /**
   * Serve one connection. Call once per transport (each HTTP session or stdio pipe). `facts`, when given, is
   * the object this session's facts are kept in (the caller reads what `initialize` and `logging/setLevel`
   * set, and may change `logLevel`); one that names a `protocolVersion` is a session opened elsewhere (by
   * another process serving the same sessions), served as initialized with those facts: no second `initialize`.
   */
  async connect(transport: Transport, facts?: Partial<SessionInfo>): Promise<RpcPeer<any, any, any, any>> {
    const session = this.#sessionOf(facts);
    const peer = new RpcPeer<any, any, any, any>(transport, {
      ...this.options,
      batches: this.protocol.features.batches,
      validateParams:
        this.options.validateParams === false
          ? undefined
          : (method, params) => {
              const check = (p: JsonObject | undefined) => this.checkParams(method, this.paramsFor(session, method, p));
              return this.protocol.features.inputRequests ? checkReadingAnswers(params, check) : check(params);
            },
    });
    const entry = { peer, session };
    this.sessions.add(entry);
    const previousOnClose = peer.onclose;
    peer.onclose = () => {
      this.sessions.delete(entry);
      previousOnClose?.();
    };
    peer.beforeRequest = (method, _params, ctx) =>
      method === 'initialize' && (ctx as { batch?: unknown }).batch !== undefined
        ? new ProtocolError(ErrorCode.InvalidRequest, 'Invalid Request: initialize must be sent alone, not in a batch')
        : this.admit(method, ctx.meta, session);
    this.installLifecycle(peer, session);
    if (this.#opened.has(session)) this.#agreed(peer, session.protocolVersion ?? '');
    for (const [method, handler] of Object.entries(this.handlers) as [string, (...args: unknown[]) => unknown][]) {
      // The lifecycle owns notifications/initialized and calls the user's handler itself.
      if (typeof handler !== 'function' || method === 'notifications/initialized') continue;
      if (this.tables.notificationMethods.includes(method) && !this.tables.requestMethods.includes(method)) {
        peer.setNotificationHandler(method, async (params: unknown, ctx: NotificationContext) => {
          await handler(this.paramsFor(session, method, params as JsonObject | undefined), withAuth(ctx));
        });
      } else {
        const route: Route = { method, handler: handler as UserHandler, fill: this.#fillOf(method) };
        peer.setRequestHandler(method, (received: JsonObject | undefined, ctx: HandlerContext) =>
          this.serve(route, session, received, ctx),
        );
      }
    }
    await peer.start();
    return peer;
  }

  /** A new session's facts, or an adopted one's (see `connect`), in the object given. */
  #sessionOf(facts: Partial<SessionInfo> | undefined): SessionInfo {
    const session = (facts ?? {}) as SessionInfo;
    if (typeof session.protocolVersion === 'string') {
      Object.assign(session, { era: 'legacy', initialized: true });
      this.#opened.add(session);
      return session;
    }
    return Object.assign(session, {
      protocolVersion: this.protocol.features.initialize ? undefined : this.#versionsOf('modern')[0],
      era: this.protocol.features.initialize ? 'legacy' : 'modern',
      clientInfo: undefined,
      clientCapabilities: undefined,
      initialized: !this.protocol.features.initialize,
    });
  }

  /** What follows from the version agreed: batches (only 2025-03-26 has them), and the transport told. */
  #agreed(peer: RpcPeer<any, any, any, any>, version: string): void {
    const fact = this.protocol.facts.versions.find((v) => v.version === version);
    if (fact !== undefined) peer.batches = fact.batches === true;
    const transport = peer.transport as Transport & { setProtocolVersion?: (v: string) => void };
    transport.setProtocolVersion?.(version);
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions].map(({ peer }) => peer.close()));
  }

  /** What a handler's answer is checked against: with `task`, a task-augmented request's created task (2025-11-25). */
  #expected(method: string, received: JsonObject | undefined): readonly string[] {
    const task = this.tables.taskResults?.[method];
    return task !== undefined && received?.['task'] !== undefined ? [task] : (this.tables.results[method] ?? []);
  }

  /**
   * One request to a user's handler. Synchronous until something has to be awaited (a handler's promise, a
   * header check over HTTP), so a plain handler's call adds no promise of its own to the round trip.
   */
  private serve(route: Route, session: SessionInfo, received: JsonObject | undefined, ctx: HandlerContext): unknown {
    const method = route.method;
    // A modern request stands alone: its handler sees the capabilities this request declares, never
    // those of an earlier one (nor of a request running beside it).
    const seen: SessionInfo =
      session.era !== 'modern'
        ? session
        : {
            protocolVersion: session.protocolVersion,
            era: 'modern',
            clientInfo: session.clientInfo,
            clientCapabilities: requestCapabilities(this.protocol, ctx.meta),
            initialized: session.initialized,
            logLevel: session.logLevel,
          };
    (ctx as unknown as { session: SessionInfo }).session = seen;
    withAuth(ctx);
    guardNestedRequests(ctx, seen.clientCapabilities, this.#missingCapabilityCode, this.tables.extensionMethods);
    if (this.protocol.features.inputRequests) (ctx as unknown as { inputs: unknown }).inputs = inputRound;
    const params = this.paramsFor(session, method, received);
    if (method === 'logging/setLevel' && isPlainObject(params) && typeof params['level'] === 'string') {
      session.logLevel = params['level'];
    }
    gateLogs(ctx, this.protocol, session.logLevel, params);
    // Only a request of the metadata-header era carries Mcp-Param-* headers: a legacy client of a dual-era
    // server sends none, and must not be refused for it.
    const checked =
      method === 'tools/call' && session.era === 'modern'
        ? checkParamHeaders(this.handlers, this.protocol, params, ctx)
        : undefined;
    const results = this.#expected(method, received);
    if (checked !== undefined) return checked.then(() => this.answer(route, results, session, params, ctx));
    return this.answer(route, results, session, params, ctx);
  }

  /** Runs the handler and shapes its result for the session's version. */
  private answer(
    route: Route,
    results: readonly string[],
    session: SessionInfo,
    params: JsonObject | undefined,
    ctx: HandlerContext,
  ): unknown {
    const { method, handler } = route;
    if (this.legacyOnModern(session)) {
      // The whole exchange is the call: a tool's inputs the client cannot answer (a capability it lacks) end in
      // its isError, as a 2025-11-25 handler's own request does (nested-requests.ts).
      const exchange = (p: unknown): Promise<unknown> =>
        Promise.resolve(handler(p, ctx)).then((first) =>
          answerInputsInline((q) => handler(q, ctx), params, first, ctx),
        );
      const result =
        method === 'tools/call' ? callTool(exchange, params, ctx, this.options.onHandlerError) : exchange(params);
      return Promise.resolve(result).then((value) => withoutResultType(this.checked(method, results, value)));
    }
    const result =
      method === 'tools/call' ? callTool(handler, params, ctx, this.options.onHandlerError) : handler(params, ctx);
    if (isThenable(result)) return Promise.resolve(result).then((value) => this.shaped(route, results, value));
    return this.shaped(route, results, result);
  }

  /** A result as this version answers it: defaults and serverInfo filled in (in place), checked when asked. */
  private shaped(route: Route, results: readonly string[], value: unknown): unknown {
    return this.checked(route.method, results, route.fill === undefined ? value : fillResult(value, route.fill));
  }

  /** The result, after checking it against the method's result schemas when `validateResults` asks. */
  private checked(method: string, results: readonly string[], result: unknown): unknown {
    if (this.options.validateResults) this.checkResult(method, results, result);
    return result;
  }

  /** `result` with its method's fill (lifecycle results, whose handlers are the runtime's). */
  #filled(method: string, result: JsonObject): unknown {
    const fill = this.#fillOf(method);
    return fill === undefined ? result : fillResult(result, fill);
  }

  /**
   * `initialize`: agrees on a legacy version (the client's if spoken, else our newest) and opens the session;
   * once only (a second one is refused, whatever version it names).
   */
  private initialize(peer: RpcPeer<any, any, any, any>, session: SessionInfo, params: JsonObject): JsonObject {
    if (this.#opened.has(session)) throw new ProtocolError(ErrorCode.InvalidRequest, 'Already initialized');
    const legacyVersions = this.#versionsOf('legacy');
    const requested = typeof params?.['protocolVersion'] === 'string' ? params['protocolVersion'] : '';
    if (legacyVersions.length === 0) {
      // A modern-only server names what it speaks: the legacy client's only diagnostic.
      throw new ProtocolError(
        ErrorCode.InvalidRequest,
        `This server does not accept initialize; it speaks ${this.supportedVersions.join(', ')}`,
        { supported: this.supportedVersions, requested },
      );
    }
    // The client's version if we speak it, else our newest legacy one: the client then decides.
    const version = legacyVersions.includes(requested) ? requested : (legacyVersions[0] ?? requested);
    this.#opened.add(session);
    session.era = 'legacy';
    session.protocolVersion = version;
    session.clientInfo = isPlainObject(params?.['clientInfo']) ? (params['clientInfo'] as Implementation) : undefined;
    session.clientCapabilities = isPlainObject(params?.['capabilities']) ? params['capabilities'] : undefined;
    this.#agreed(peer, version);
    return {
      protocolVersion: version,
      capabilities: capabilitiesAt(
        this.protocol,
        version,
        this.legacyOnModern(session)
          ? legacyCapabilities(this.capabilities, this.protocol.facts, version)
          : this.capabilities,
      ),
      serverInfo: this.options.serverInfo,
      ...(this.options.instructions ? { instructions: this.options.instructions } : {}),
    };
  }

  private installLifecycle(peer: RpcPeer<any, any, any, any>, session: SessionInfo): void {
    peer.setRequestHandler('ping', () => {
      // A modern request for a method its version removed (ping, 2026-07-28): -32601, and 404 over HTTP.
      if (session.era === 'modern' && !this.receives('ping')) {
        throw new ProtocolError(ErrorCode.MethodNotFound, 'Method not found: ping');
      }
      return this.legacyOnModern(session) ? {} : this.#filled('ping', {});
    });
    // A modern-only server answers initialize too, with an error that names what it speaks.
    if (this.protocol.features.initialize || this.protocol.features.perRequestMeta) {
      peer.setRequestHandler('initialize', (params: JsonObject) => this.initialize(peer, session, params));
      peer.setNotificationHandler('notifications/initialized', async (params: unknown, ctx: NotificationContext) => {
        session.initialized = true;
        const user = (this.handlers as Record<string, unknown>)['notifications/initialized'];
        if (typeof user === 'function') await user(params, withAuth(ctx));
      });
    }
    if (this.dualEra && !this.tables.requestMethods.includes('logging/setLevel')) {
      // Legacy clients set one log level per session; their requests then carry it as the modern key would.
      peer.setRequestHandler('logging/setLevel', (params: JsonObject | undefined) => {
        if (!this.legacyOnModern(session)) throw new ProtocolError(ErrorCode.MethodNotFound, 'Method not found');
        if (typeof params?.['level'] !== 'string' || !LOG_LEVELS.includes(params['level'])) {
          throw new ProtocolError(ErrorCode.InvalidParams, 'logging/setLevel needs a level');
        }
        session.logLevel = params['level'];
        return {};
      });
    }
    if (this.protocol.features.perRequestMeta && this.tables.requestMethods.includes('server/discover')) {
      peer.setRequestHandler('server/discover', () =>
        this.#filled('server/discover', {
          resultType: 'complete',
          supportedVersions: this.supportedVersions,
          capabilities: this.capabilities,
          cacheScope: 'public',
          ttlMs: 0,
          ...(this.options.instructions ? { instructions: this.options.instructions } : {}),
        }),
      );
    }
  }

  /** Lifecycle gate before any handler runs. */
  private admit(method: string, meta: JsonObject | undefined, session: SessionInfo): ProtocolError | undefined {
    if (method === 'initialize') return this.#initializeRefusal(meta, session);
    if (this.protocol.features.initialize || session.era === 'legacy') {
      if (method === 'initialize' || method === 'ping') return undefined;
      if (session.protocolVersion === undefined) {
        return new ProtocolError(
          ErrorCode.InvalidRequest,
          `Server not initialized: send "initialize" before "${method}"`,
        );
      }
      return undefined;
    }
    if (this.protocol.features.perRequestMeta) {
      const { metaKeys, errorCodes } = this.protocol.facts;
      const requested = meta?.[metaKeys['protocolVersion'] ?? ''];
      if (typeof requested === 'string' && !this.#versionsOf('modern').includes(requested)) {
        const code = errorCodes['UnsupportedProtocolVersionError'] ?? ErrorCode.InvalidRequest;
        return new ProtocolError(code, `Unsupported protocol version ${requested}`, {
          requested,
          supported: this.supportedVersions,
        });
      }
      if (meta !== undefined) {
        const info = meta[metaKeys['clientInfo'] ?? ''];
        const capabilities = meta[metaKeys['clientCapabilities'] ?? ''];
        session.clientInfo = isPlainObject(info) ? (info as Implementation) : session.clientInfo;
        session.clientCapabilities = isPlainObject(capabilities) ? capabilities : session.clientCapabilities;
        if (typeof requested === 'string') session.protocolVersion = requested;
      }
    }
    return undefined;
  }

  /**
   * Why an `initialize` is refused before its params are read, or undefined. One that carries the per-request
   * `_meta` version is a modern request, served as its version, which has no initialize (versioning.mdx):
   * -32601. A second one is a lifecycle error whatever its params say: -32600, as on every transport.
   */
  #initializeRefusal(meta: JsonObject | undefined, session: SessionInfo): ProtocolError | undefined {
    const key = this.protocol.facts.metaKeys['protocolVersion'];
    if (this.protocol.features.perRequestMeta && key !== undefined && typeof meta?.[key] === 'string') {
      return new ProtocolError(
        ErrorCode.MethodNotFound,
        `Method not found: initialize (a request with _meta["${key}"] is served as ${String(meta[key])}, which has no initialize)`,
      );
    }
    if (this.#opened.has(session)) return new ProtocolError(ErrorCode.InvalidRequest, 'Already initialized');
    return undefined;
  }

  /** A legacy session on a modern server (opened with `initialize`). */
  private legacyOnModern(session: SessionInfo): boolean {
    return session.era === 'legacy' && this.protocol.features.perRequestMeta;
  }

  /** What a handler (and the validator) sees of a request: a legacy client's on a modern server gets the modern `_meta`. */
  private paramsFor(session: SessionInfo, method: string, params: JsonObject | undefined): JsonObject | undefined {
    if (!this.legacyOnModern(session) || this.protocol.facts.lifecycleMethods.includes(method)) return params;
    if (method === 'initialize' || method === 'logging/setLevel') return params;
    return withSessionMeta(this.protocol.facts.metaKeys, session, params);
  }

  private checkParams(method: string, params: JsonObject | undefined): ParamsIssue | null {
    // The lifecycle's own messages carry nothing to validate, except the two that open a conversation.
    const lifecycle = this.protocol.facts.lifecycleMethods;
    if (lifecycle.includes(method) && method !== 'initialize' && method !== 'server/discover') return null;
    // A schema without initialize (2026-07-28) still serves legacy clients: their handshake is checked by hand.
    if (method === 'initialize' && !Object.hasOwn(this.tables.paramsValidators, method)) {
      return legacyInitializeIssue(params);
    }
    return paramsIssue(this.tables, method, params, this.tables.paramsRequired?.includes(method) ?? false);
  }

  private checkResult(method: string, results: readonly string[], result: unknown): void {
    const issue = resultIssue(this.tables, results, result);
    if (issue !== undefined) throw new Error(`${method} handler returned an invalid result (${issue})`);
  }
}
