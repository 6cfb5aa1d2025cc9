/**
 * The MCP server lifecycle on top of RpcPeer, for every spec version:
 * - versions with `initialize`: version negotiation, and every request but `ping` refused until then;
 * - 2026-07-28 on: `server/discover`, and the per-request `_meta` protocol version checked;
 * - capabilities follow from the handlers given; params are checked by the compiled validators
 *   (-32602 with the JSON pointer of the first failing field); results optionally too.
 *
 * Hand-written runtime copied into generated output as `runtime/server-base.ts`. The generated
 * `server.ts` gives it the version's handler interface and validators.
 */
import { ErrorCode, ProtocolError, isPlainObject } from './jsonrpc.js';
import { RpcPeer, type HandlerContext, type ParamsIssue, type PeerOptions } from './peer.js';
import type { ProtocolDescription, Implementation } from './client-base.js';
import { paramHeaderMismatch, paramHeaderRules } from './http-headers.js';
import type { Transport } from './transport.js';

type JsonObject = { [key: string]: unknown };

/** A compiled validator as emitted in validators.js. */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: null | { instancePath: string; keyword: string; params: Record<string, unknown>; message?: string }[];
}

export interface McpServerOptions extends Omit<PeerOptions, 'batches' | 'validateParams'> {
  serverInfo: Implementation;
  instructions?: string;
  /** Added to the capabilities derived from the handlers. */
  capabilities?: JsonObject;
  /** Versions this server speaks; default the generated spec's version. */
  supportedProtocolVersions?: string[];
  /** Check params with the compiled validators (default true). */
  validateParams?: boolean;
  /** Check handler results with the compiled validators — for development (default false). */
  validateResults?: boolean;
}

/** What a handler knows of the connection it serves. */
export interface SessionInfo {
  protocolVersion: string | undefined;
  clientInfo: Implementation | undefined;
  clientCapabilities: JsonObject | undefined;
  initialized: boolean;
  /** The least severe log level the client wants (`logging/setLevel`); undefined: every level. */
  logLevel?: string | undefined;
}

/** Syslog severities, least severe first (the order `logging/setLevel` filters by). */
const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

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
  /** Received methods whose params the schema requires: a message without them is invalid params. */
  paramsRequired?: readonly string[];
}

export class McpServerBase<Handlers extends object> {
  readonly sessions: Set<{ peer: RpcPeer<any, any, any, any>; session: SessionInfo }> = new Set();

  readonly protocol: ProtocolDescription;
  readonly tables: ServerTables;
  readonly handlers: Partial<Handlers>;
  readonly options: McpServerOptions;

  constructor(
    protocol: ProtocolDescription,
    tables: ServerTables,
    handlers: Partial<Handlers>,
    options: McpServerOptions,
  ) {
    this.protocol = protocol;
    this.tables = tables;
    this.handlers = handlers;
    this.options = options;
    for (const method of Object.keys(handlers)) {
      if (!tables.requestMethods.includes(method) && !tables.notificationMethods.includes(method)) {
        throw new Error(`createServer: "${method}" is not a method this server receives`);
      }
    }
  }

  get supportedVersions(): string[] {
    const own = this.protocol.protocolVersion ?? this.protocol.version;
    return this.options.supportedProtocolVersions ?? (own ? [own] : []);
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
    const extensionIds = [
      ...new Set(methods.map((m) => this.tables.extensionMethods[m]).filter((id): id is string => Boolean(id))),
    ];
    if (extensionIds.length > 0 && this.protocol.features.capabilityExtensions) {
      caps['extensions'] = Object.fromEntries(extensionIds.map((id) => [id, {}]));
    }
    return { ...caps, ...this.options.capabilities };
  }

  /** Serve one connection. Call once per transport (each HTTP session or stdio pipe). */
  async connect(transport: Transport): Promise<RpcPeer<any, any, any, any>> {
    const session: SessionInfo = {
      protocolVersion: this.protocol.features.initialize ? undefined : (this.supportedVersions[0] ?? undefined),
      clientInfo: undefined,
      clientCapabilities: undefined,
      initialized: !this.protocol.features.initialize,
    };
    const peer = new RpcPeer<any, any, any, any>(transport, {
      ...this.options,
      batches: this.protocol.features.batches,
      validateParams:
        this.options.validateParams === false ? undefined : (method, params) => this.checkParams(method, params),
    });
    const entry = { peer, session };
    this.sessions.add(entry);
    const previousOnClose = peer.onclose;
    peer.onclose = () => {
      this.sessions.delete(entry);
      previousOnClose?.();
    };
    peer.beforeRequest = (method, params) => this.admit(method, params, session);
    this.installLifecycle(peer, session);
    for (const [method, handler] of Object.entries(this.handlers) as [string, (...args: unknown[]) => unknown][]) {
      // The lifecycle owns notifications/initialized and calls the user's handler itself.
      if (typeof handler !== 'function' || method === 'notifications/initialized') continue;
      if (this.tables.notificationMethods.includes(method) && !this.tables.requestMethods.includes(method)) {
        peer.setNotificationHandler(method, async (params: unknown, ctx: unknown) => {
          await handler(params, ctx);
        });
      } else {
        const results = this.tables.results[method] ?? [];
        peer.setRequestHandler(method, async (params: unknown, ctx: HandlerContext) => {
          (ctx as unknown as { session: SessionInfo }).session = session;
          if (method === 'logging/setLevel' && isPlainObject(params) && typeof params['level'] === 'string') {
            session.logLevel = params['level'];
          }
          this.gateLogs(ctx, session, params);
          let result: unknown;
          if (method === 'tools/call') {
            await this.checkParamHeaders(params, ctx);
            result = await this.callTool(handler, params, ctx);
          } else result = await handler(params, ctx);
          if (this.options.validateResults) this.checkResult(method, results, result);
          return this.withServerInfo(result) as JsonObject;
        });
      }
    }
    await peer.start();
    return peer;
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions].map(({ peer }) => peer.close()));
  }

  /**
   * A tools/call handler that throws answers with an `isError` result carrying the message — what a model
   * needs to see and correct its call. Throw a ProtocolError to answer with a JSON-RPC error instead.
   */
  private async callTool(
    handler: (...args: unknown[]) => unknown,
    params: unknown,
    ctx: HandlerContext,
  ): Promise<unknown> {
    try {
      return await handler(params, ctx);
    } catch (error) {
      if (error instanceof ProtocolError || (error instanceof Error && error.name === 'ProtocolError')) throw error;
      if (ctx.signal.aborted) throw error;
      this.options.onHandlerError?.(error, { method: 'tools/call', id: ctx.id });
      const text = error instanceof Error ? error.message : String(error);
      return { content: [{ type: 'text', text }], isError: true };
    }
  }

  /**
   * Log notifications a handler sends through `ctx.notify('notifications/message', …)` are dropped below the
   * level the client asked for: its `logging/setLevel` before 2026-07-28, the request's own `logLevel` _meta
   * key from then on (no key: no log notifications for that request).
   */
  private gateLogs(ctx: HandlerContext, session: SessionInfo, params: unknown): void {
    const perRequest = this.protocol.features.perRequestMeta;
    let threshold: string | undefined;
    if (perRequest) {
      const key = this.protocol.facts.metaKeys['logLevel'];
      const meta = isPlainObject(params) && isPlainObject(params['_meta']) ? params['_meta'] : undefined;
      const level = key === undefined ? undefined : meta?.[key];
      threshold = typeof level === 'string' ? level : 'none';
    } else threshold = session.logLevel;
    if (threshold === undefined) return;
    const minimum = LOG_LEVELS.indexOf(threshold);
    const notify = ctx.notify.bind(ctx) as (method: string, params?: unknown) => Promise<void>;
    (ctx as { notify: unknown }).notify = (method: string, notifyParams?: unknown): Promise<void> => {
      if (method === 'notifications/message') {
        const level = isPlainObject(notifyParams) ? notifyParams['level'] : undefined;
        const rank = typeof level === 'string' ? LOG_LEVELS.indexOf(level) : -1;
        if (minimum === -1 || rank < minimum) return Promise.resolve();
      }
      return notify(method, notifyParams);
    };
  }

  /** 2026-07-28 on: every result names the server in its `_meta`. */
  private withServerInfo(result: unknown): unknown {
    if (!this.protocol.features.perRequestMeta || !isPlainObject(result)) return result;
    const meta = isPlainObject(result['_meta']) ? result['_meta'] : {};
    const key = this.protocol.facts.metaKeys['serverInfo'];
    if (key === undefined) return result;
    return { ...result, _meta: { ...meta, [key]: this.options.serverInfo } };
  }

  /**
   * Over Streamable HTTP (2026-07-28 on), the `Mcp-Param-*` headers a tool's `x-mcp-header` annotations ask
   * for must match the arguments: checked against the definition this server lists for the tool.
   */
  private async checkParamHeaders(params: unknown, ctx: HandlerContext): Promise<void> {
    const headers = ctx.extra?.requestInfo?.headers;
    const list = (this.handlers as Record<string, unknown>)['tools/list'];
    if (!this.protocol.features.perRequestMeta || headers === undefined || typeof list !== 'function') return;
    const name = isPlainObject(params) ? params['name'] : undefined;
    if (typeof name !== 'string') return;
    let cursor: string | undefined;
    do {
      const page = (await list(cursor === undefined ? {} : { cursor }, ctx)) as JsonObject;
      const tools = Array.isArray(page?.['tools']) ? page['tools'] : [];
      const tool = tools.find((t) => isPlainObject(t) && t['name'] === name) as JsonObject | undefined;
      if (tool !== undefined) {
        const rules = paramHeaderRules(tool['inputSchema']);
        if (!rules.ok) return;
        const header = (key: string): string | undefined => {
          const value = headers[key];
          return Array.isArray(value) ? value[0] : value;
        };
        const args = isPlainObject(params) ? params['arguments'] : undefined;
        const mismatch = paramHeaderMismatch(rules.rules, args, header);
        const code = this.protocol.facts.errorCodes['HeaderMismatchError'] ?? ErrorCode.InvalidRequest;
        if (mismatch !== undefined) throw new ProtocolError(code, `Header mismatch: ${mismatch}`);
        return;
      }
      cursor = typeof page?.['nextCursor'] === 'string' ? page['nextCursor'] : undefined;
    } while (cursor !== undefined);
  }

  private installLifecycle(peer: RpcPeer<any, any, any, any>, session: SessionInfo): void {
    peer.setRequestHandler('ping', () => this.withServerInfo({}));
    if (this.protocol.features.initialize) {
      peer.setRequestHandler('initialize', (params: JsonObject) => {
        const requested = typeof params?.['protocolVersion'] === 'string' ? params['protocolVersion'] : '';
        // The client's version if we speak it, else our newest: the client then decides.
        const version = this.supportedVersions.includes(requested) ? requested : this.supportedVersions[0]!;
        session.protocolVersion = version;
        session.clientInfo = isPlainObject(params?.['clientInfo'])
          ? (params['clientInfo'] as Implementation)
          : undefined;
        session.clientCapabilities = isPlainObject(params?.['capabilities']) ? params['capabilities'] : undefined;
        const transport = peer.transport as Transport & { setProtocolVersion?: (v: string) => void };
        transport.setProtocolVersion?.(version);
        return {
          protocolVersion: version,
          capabilities: this.capabilities,
          serverInfo: this.options.serverInfo,
          ...(this.options.instructions ? { instructions: this.options.instructions } : {}),
        };
      });
      peer.setNotificationHandler('notifications/initialized', async (params: unknown, ctx: unknown) => {
        session.initialized = true;
        const user = (this.handlers as Record<string, unknown>)['notifications/initialized'];
        if (typeof user === 'function') await user(params, ctx);
      });
    }
    if (this.protocol.features.perRequestMeta && this.tables.requestMethods.includes('server/discover')) {
      peer.setRequestHandler('server/discover', () =>
        this.withServerInfo({
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
  private admit(method: string, params: JsonObject | undefined, session: SessionInfo): ProtocolError | undefined {
    if (this.protocol.features.initialize) {
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
      const meta = isPlainObject(params?.['_meta']) ? params['_meta'] : undefined;
      const { metaKeys, errorCodes } = this.protocol.facts;
      const requested = meta?.[metaKeys['protocolVersion'] ?? ''];
      if (typeof requested === 'string' && !this.supportedVersions.includes(requested)) {
        const code = errorCodes['UnsupportedProtocolVersionError'] ?? ErrorCode.InvalidRequest;
        return new ProtocolError(code, `Unsupported protocol version ${requested}`, {
          requested,
          supported: this.supportedVersions,
        });
      }
      if (isPlainObject(meta)) {
        const info = meta[metaKeys['clientInfo'] ?? ''];
        const capabilities = meta[metaKeys['clientCapabilities'] ?? ''];
        session.clientInfo = isPlainObject(info) ? (info as Implementation) : session.clientInfo;
        session.clientCapabilities = isPlainObject(capabilities) ? capabilities : session.clientCapabilities;
        if (typeof requested === 'string') session.protocolVersion = requested;
      }
    }
    return undefined;
  }

  private checkParams(method: string, params: JsonObject | undefined): ParamsIssue | null {
    // The lifecycle's own messages carry nothing to validate, except the two that open a conversation.
    const lifecycle = this.protocol.facts.lifecycleMethods;
    if (lifecycle.includes(method) && method !== 'initialize' && method !== 'server/discover') return null;
    const validate = Object.hasOwn(this.tables.paramsValidators, method)
      ? this.tables.paramsValidators[method]
      : undefined;
    if (!validate) return null;
    if (params === undefined) {
      // Absent params are fine where the schema allows it; elsewhere they fail like `{}` would (the
      // handler's types promise it a params object).
      if (!this.tables.paramsRequired?.includes(method)) return null;
      if (validate({})) return null;
    } else if (validate(params)) return null;
    const first = validate.errors?.[0];
    const pointer = first ? first.instancePath + missingProperty(first.params) : '';
    return { pointer, message: first?.message ?? 'invalid', keyword: first?.keyword };
  }

  private checkResult(method: string, results: readonly string[], result: unknown): void {
    if (results.length === 0) return;
    const failures: string[] = [];
    for (const name of results) {
      const validate = this.tables.resultValidators[name];
      if (!validate || validate(result)) return;
      const first = validate.errors?.[0];
      failures.push(`${name}: ${first?.instancePath || '/'} ${first?.message ?? 'invalid'}`);
    }
    throw new Error(`${method} handler returned an invalid result (${failures.join('; ')})`);
  }
}

/** ajv reports a missing property at its parent; point at the property itself. */
function missingProperty(params: Record<string, unknown>): string {
  const name = params['missingProperty'];
  return typeof name === 'string' ? `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}` : '';
}
