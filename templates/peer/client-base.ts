/**
 * The MCP client lifecycle on top of RpcEngine (core/engine.ts), for every spec version:
 * - versions with `initialize`: the handshake, version negotiation and `notifications/initialized`;
 * - 2026-07-28 on: per-request `_meta` (protocol version, client info, capabilities), `server/discover`,
 *   and the input-required loop: when a result asks for input, the registered handlers answer each
 *   embedded request and the call is retried with `inputResponses` and `requestState`, so a call
 *   resolves to its final result.
 *
 * Hand-written runtime copied into generated output. The generated
 * `client.ts` subclasses it with the version's method tables and one typed stub per request.
 */
import {
  ErrorCode,
  LocalError,
  ProtocolError,
  isPlainObject,
  type NotificationTable,
  type ParamsArgs,
  type RequestTable,
} from '../core/jsonrpc.js';
import { RpcEngine } from '../core/engine.js';
import type { HandlerContext, NotificationHandler, RequestHandler, RequestOptions } from '../core/peer-types.js';
import type { Finish, Finishing } from '../core/peer-calls.js';
import { ListedTools } from './client-tools.js';
import type { MetadataFacts, MetadataHeaders } from './http-headers.js';
import { describe, metaOf, withKey } from '../core/peer-messages.js';
import { sealJson } from '../core/json-size.js';
import { answerInputRequests, isInputRequired, type InputHandlers } from './client-input.js';
import {
  setMeta,
  speakableVersions,
  type Era,
  type Implementation,
  type ProtocolDescription,
  type VersionFact,
} from './protocol.js';
import { hasExtensionsCapability, mergeCapabilities, withExtensionIds } from './capabilities.js';
import { fromLegacy, stringsOf } from './client-era.js';
import type { EraCache, McpClientOptions, SessionRenewal } from './client-options.js';
import type { Transport } from '../core/transport.js';

type JsonObject = { [key: string]: unknown };

export * from './protocol.js';
export type { CallerParams, EraCache, McpClientOptions, SessionRenewal } from './client-options.js';

const SHARED_ERA_CACHE: EraCache = new Map();

type UntypedRequest = { request(method: string, params: unknown, options: RequestOptions | undefined): Promise<never> };

export class McpClientBase<
  OutRequests extends RequestTable<OutRequests>,
  OutNotifications extends NotificationTable<OutNotifications>,
  InRequests extends RequestTable<InRequests>,
  InNotifications extends NotificationTable<InNotifications>,
> {
  declare readonly peer: RpcEngine<any, any, InRequests, InNotifications>;
  /** The version agreed with the server (after connect). */
  declare negotiatedVersion: string | undefined;
  /** The era of the server found by connect(): `modern` (per-request `_meta`) or `legacy` (`initialize`). */
  declare era: Era | undefined;
  declare serverInfo: Implementation | undefined;
  declare serverCapabilities: JsonObject | undefined;
  declare instructions: string | undefined;
  /** The whole `initialize` or `server/discover` result. */
  declare serverDescription: JsonObject | undefined;

  readonly #inputHandlers: InputHandlers = new Map();
  /** A new session being opened after the server forgot ours: calls wait for it. */
  #renewal: Promise<void> | undefined;
  /** What tools/list results said: each tool's `Mcp-Param-*` rules. */
  readonly #tools = new ListedTools();
  /** The per-request `_meta` of 2026-07-28, built once per version (and again after a handler changes the capabilities). */
  #envelope: { version: string | undefined; meta: JsonObject } | undefined;

  declare readonly protocol: ProtocolDescription;
  declare readonly options: McpClientOptions;
  readonly #supported: readonly VersionFact[];

  readonly #metadataHeaders: MetadataHeaders | undefined;

  /**
   * `metadataHeaders`: given by generated code of the metadata-header era (METADATA_HEADERS, 2026-07-28 on);
   * a client of an older version leaves it out, and so does its bundle.
   */
  constructor(
    transport: Transport,
    protocol: ProtocolDescription,
    options: McpClientOptions,
    metadataHeaders?: MetadataHeaders,
  ) {
    this.protocol = protocol;
    this.options = options;
    this.#supported = speakableVersions(protocol, options.supportedProtocolVersions);
    const check = options.validate;
    this.peer = new RpcEngine(transport, {
      ...options,
      validateParams: check ? (method, params) => check.params(method, params) : undefined,
    });
    // The transport writes the metadata headers, mirroring params into Mcp-Name by the model's table
    // (extension methods included) and reading a request's version under the model's `_meta` key.
    this.#metadataHeaders = metadataHeaders;
    const writer = transport as Transport & { setMetadataHeaders?: (h: MetadataHeaders, f: MetadataFacts) => void };
    if (metadataHeaders) writer.setMetadataHeaders?.(metadataHeaders, protocol.facts);
    if (protocol.features.perRequestMeta) {
      this.negotiatedVersion = this.#newest('modern');
      this.era = 'modern';
    }
  }

  /** The protocol version in use with this server (after connect()); the same as `negotiatedVersion`. */
  get protocolVersion(): string | undefined {
    return this.negotiatedVersion;
  }

  /** Versions this client accepts, newest first, with their eras (computed once: the options do not change). */
  get supportedVersions(): readonly VersionFact[] {
    return this.#supported;
  }

  /** The versions this client accepts in an era, newest first. */
  #versionsOf(era: Era): string[] {
    return this.#supported.filter((v) => v.era === era).map((v) => v.version);
  }

  /** Every version this client accepts, for error messages. */
  get #accepted(): string {
    return this.#supported.map((v) => v.version).join(', ');
  }

  /** The version to ask for first in an era: `protocolVersion` when it is of that era, else the newest. */
  #newest(era: Era): string | undefined {
    const versions = this.#versionsOf(era);
    const asked = this.options.protocolVersion;
    return asked && versions.includes(asked) ? asked : versions[0];
  }

  /**
   * Capabilities as sent: derived from the registered server→client handlers and the extensions generated
   * in, with the explicit ones merged over them.
   */
  get capabilities(): JsonObject {
    let caps: JsonObject = {};
    const has = (method: string) => this.#inputHandlers.has(method);
    // listChanged is only claimed by passing capabilities explicitly: the client cannot know it will send it.
    if (has('roots/list')) caps['roots'] = {};
    if (has('sampling/createMessage')) caps['sampling'] = {};
    if (has('elicitation/create')) caps['elicitation'] = {};
    if (hasExtensionsCapability(this.protocol))
      caps = withExtensionIds(caps, Object.keys(this.protocol.facts.extensions ?? {}));
    return mergeCapabilities(caps, this.options.capabilities);
  }

  /**
   * Start the transport and find what the server speaks. A client with modern versions probes with
   * `server/discover`; a recognised modern error makes it retry with a version the server lists, any other
   * error (or silence) marks a legacy server, and the client falls back to `initialize` when it accepts a
   * legacy version. The era found is remembered per server (`eraCache`).
   */
  async connect(): Promise<void> {
    await this.peer.start();
    try {
      await this.#negotiate();
    } catch (error) {
      await this.peer.close();
      throw error;
    }
  }

  async #negotiate(): Promise<void> {
    const modern = this.#newest('modern');
    const legacy = this.#newest('legacy');
    const key = (this.peer.transport as Transport & { serverKey?: string }).serverKey;
    const cache = this.options.eraCache ?? SHARED_ERA_CACHE;
    if (modern !== undefined && this.protocol.features.perRequestMeta) {
      if (this.options.discover === false) return;
      if (legacy === undefined || key === undefined || cache.get(key) !== 'legacy') {
        const found = await this.#probe(modern, legacy !== undefined);
        if (found) {
          if (key !== undefined) cache.set(key, 'modern');
          return;
        }
      }
    }
    if (legacy === undefined) {
      throw new ProtocolError(ErrorCode.InvalidRequest, `No version to speak: this client accepts ${this.#accepted}`);
    }
    await this.#initialize(legacy).catch((error: { data?: { supported?: unknown } } | undefined) => {
      // A modern-only server refusing initialize names the versions it speaks (versioning.mdx): one of ours there
      // means the probe missed it (answered after probeTimeout). Ask again: the era is a property of the server.
      const named = stringsOf(error?.data?.supported);
      const next = this.#versionsOf('modern').find((v) => named.includes(v));
      if (next === undefined) throw error;
      return this.#probe(next, false);
    });
    if (key !== undefined) cache.set(key, this.era as Era); // legacy, or modern once asked again
  }

  /**
   * `server/discover`: true when the server is modern (and a version was agreed), false when it is legacy. A modern
   * server that refuses the version asked for, naming those it speaks, is asked once more with one of ours it names
   * (the one asked too: a refusal may not last).
   */
  async #probe(asked: string, canFallBack: boolean, retry = true): Promise<boolean> {
    const modern = this.#versionsOf('modern');
    this.negotiatedVersion = asked;
    let result: JsonObject;
    try {
      result = (await this.peer.request('server/discover', this.#withRequestMeta(undefined), {
        timeout: this.options.probeTimeout ?? 10_000,
      })) as JsonObject;
    } catch (error) {
      // Refused here (an AuthorizationError): no sign of a legacy server; initialize would only ask again.
      if (error instanceof LocalError && error.code === ErrorCode.InvalidRequest) throw error;
      const { modernErrorCodes, errorCodes } = this.protocol.facts;
      if (!(error instanceof ProtocolError && modernErrorCodes.includes(error.code))) {
        this.negotiatedVersion = undefined;
        if (canFallBack) return false;
        throw new ProtocolError(
          ErrorCode.InvalidRequest,
          `Not a ${asked} server (server/discover: ${describe(error)}); this client accepts ${this.#accepted}; for older servers add an initialize-era version to supportedProtocolVersions`,
        );
      }
      const supported = stringsOf((error.data as { supported?: unknown } | undefined)?.supported);
      const next = modern.find((v) => supported.includes(v));
      if (error.code !== errorCodes['UnsupportedProtocolVersionError'] || next === undefined || !retry) throw error;
      return this.#probe(next, canFallBack, false);
    }
    const versions = stringsOf(result['supportedVersions']);
    const agreed = versions.includes(asked) ? asked : modern.find((v) => versions.includes(v));
    if (agreed === undefined) {
      this.negotiatedVersion = undefined;
      // A dual-era server that lists only legacy versions we share: speak one of those.
      if (canFallBack && this.supportedVersions.some((v) => v.era === 'legacy' && versions.includes(v.version))) {
        return false;
      }
      throw new ProtocolError(
        ErrorCode.InvalidRequest,
        `Server supports ${versions.join(', ') || 'no versions'}; this client accepts ${this.#accepted}`,
      );
    }
    this.era = 'modern';
    this.#acceptServer(result, agreed);
    return true;
  }

  /** The `initialize` handshake of the legacy era. */
  async #initialize(version: string): Promise<void> {
    const accepted = this.#versionsOf('legacy');
    this.era = 'legacy';
    this.negotiatedVersion = undefined;
    const result = (await this.peer.request('initialize', {
      protocolVersion: version,
      capabilities: this.capabilities,
      clientInfo: this.options.clientInfo,
    })) as JsonObject;
    const answered = String(result['protocolVersion']);
    if (!accepted.includes(answered)) {
      throw new ProtocolError(
        ErrorCode.InvalidRequest,
        `Server answered with protocol version ${answered}; this client accepts ${accepted.join(', ')}`,
      );
    }
    this.#acceptServer(result, answered);
    await this.peer.notify('notifications/initialized');
  }

  #acceptServer(result: JsonObject, version: string): void {
    this.serverDescription = result;
    this.negotiatedVersion = version;
    // 2026-07-28 on, the server names itself in every result's _meta; before, in the initialize result.
    const key = this.protocol.facts.metaKeys['serverInfo'] ?? '';
    const info = metaOf(result)?.[key] ?? result['serverInfo'];
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
  request(method: string, params?: any, options?: RequestOptions): Promise<unknown> {
    try {
      this.#checkAvailable(method);
      const renewal = this.#renewal;
      return renewal
        ? renewal.then(() => this.#checked(method, params, options))
        : this.#checked(method, params, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** A call, its result checked and a lost session renewed if need be. Not async: 2 promise turns to the caller, not 4. */
  #checked(method: string, params: any, options: RequestOptions | undefined): Promise<unknown> {
    const session = this.peer.transport.sessionId;
    const { validate, validateResults, validateStructuredContent } = this.options;
    const call = this.#requestUnchecked(method, params, options);
    if (!session && !(validate && validateResults) && !validateStructuredContent) return call;
    return call.then(
      (result) => this.#checkResult(method, params, result),
      (error: unknown) => {
        throw this.#renewSession(error, session);
      },
    );
  }

  /**
   * The server answered 404 for our session, and the transport forgot its id (Streamable HTTP, which the
   * transport document says must then start a new session): open one with `initialize`, one renewal at a time.
   * The failed call is not retried — it may not be idempotent. Returns the error, for the caller to throw.
   */
  #renewSession(error: unknown, previousSessionId: string | undefined): unknown {
    const transport = this.peer.transport;
    if ((error as { status?: unknown }).status !== 404 || !previousSessionId || transport.sessionId || this.#renewal)
      return error;
    const tell = (event: Partial<SessionRenewal>) => this.options.onSessionRenewed?.({ ...event, previousSessionId });
    this.#renewal = this.#initialize(this.#newest('legacy') ?? '')
      .then(
        () => tell({ sessionId: transport.sessionId }),
        (error: unknown) => tell({ error }),
      )
      .finally(() => (this.#renewal = undefined));
    return error;
  }

  /**
   * `request` as the generated stubs call it: untyped, because each stub declares its own params and result
   * types; resolving the typed overload again in every stub body only made the output slower to compile.
   */
  protected call(method: string, params: unknown, options: RequestOptions | undefined): Promise<never> {
    return (this as unknown as UntypedRequest).request(method, params, options);
  }

  #requestUnchecked(method: string, params: any, options: RequestOptions | undefined): Promise<unknown> {
    const headers = this.#toolHeaders;
    if (method === 'tools/call' && headers) return this.#callWithHeaders(params, options, headers);
    const result = this.#send(method, params, options);
    if (method !== 'tools/list') return result;
    return result.then((list) => {
      this.options.validateStructuredContent?.listed(list);
      return headers ? this.#screenTools(list, headers) : list;
    });
  }

  async #callWithHeaders(params: any, options: RequestOptions | undefined, headers: MetadataHeaders): Promise<unknown> {
    try {
      return await this.#send('tools/call', params, this.#tools.withParamHeaders(params, options, headers));
    } catch (error) {
      const mismatch = this.protocol.facts.errorCodes['HeaderMismatchError'];
      if (!(error instanceof ProtocolError) || error.code !== mismatch) throw error;
      // The tool's definition may have changed: list the tools again and retry once with fresh headers.
      await this.#relistTools(options, headers);
      return this.#send('tools/call', params, this.#tools.withParamHeaders(params, options, headers));
    }
  }

  /** `validateResults` and `validateStructuredContent`: a result that does not match fails the call. */
  #checkResult(method: string, params: JsonObject | undefined, result: unknown): unknown {
    const { validate, validateResults, validateStructuredContent } = this.options;
    if (validate !== undefined && validateResults === true) {
      const issue = validate.result(method, result);
      if (issue !== undefined) {
        throw new ProtocolError(ErrorCode.InternalError, `${method}: the server's result is invalid (${issue})`);
      }
    }
    if (method === 'tools/call') validateStructuredContent?.called(params, result);
    return result;
  }

  /**
   * A method the negotiated version does not have fails here, without a round trip (the model lists a method
   * with the versions that have it, its own version always among them).
   */
  #checkAvailable(method: string): void {
    const versions = this.protocol.facts.methodVersions;
    const having = Object.hasOwn(versions, method) ? versions[method] : undefined;
    const version = this.negotiatedVersion;
    if (having === undefined || version === undefined || having.includes(version)) return;
    throw new LocalError(
      ErrorCode.MethodNotFound,
      `${method} is not part of MCP ${version}, the version agreed with this server (it is in ${having.join(', ')})`,
    );
  }

  /** Whether this conversation is modern (per-request `_meta`, input-required results). */
  get #modern(): boolean {
    return this.era === 'modern' && this.protocol.features.perRequestMeta;
  }

  /** The header logic, when the transport mirrors tool arguments into headers (Streamable HTTP from 2026-07-28 on). */
  get #toolHeaders(): MetadataHeaders | undefined {
    const transport = this.peer.transport as Transport & { mirrorsToolParams?: boolean };
    return this.#modern && transport.mirrorsToolParams === true ? this.#metadataHeaders : undefined;
  }

  /** Remembers the listed tools' header rules; tools with invalid annotations are left out (diagnosed). */
  #screenTools(result: unknown, headers: MetadataHeaders): unknown {
    return this.#tools.screen(result, headers, (message) => this.peer.diagnose('invalid-notification', message));
  }

  async #relistTools(options: RequestOptions | undefined, headers: MetadataHeaders): Promise<void> {
    let cursor: string | undefined;
    do {
      const page = (await this.#send(
        'tools/list',
        cursor === undefined ? undefined : { cursor },
        options,
      )) as JsonObject;
      this.#screenTools(page, headers);
      cursor = typeof page['nextCursor'] === 'string' ? page['nextCursor'] : undefined;
    } while (cursor !== undefined);
  }

  /**
   * One call, resolving to its final result. Not async, and the result is looked at as it arrives (the engine's
   * `finish`): only a result that asks for input gets a promise more.
   */
  #send(method: string, params: any, options: RequestOptions | undefined): Promise<unknown> {
    const modern = this.#modern;
    const { perRequestMeta, inputRequests } = this.protocol.features;
    const sent = modern ? this.#withRequestMeta(params) : params;
    let finish: Finish | undefined;
    if (modern && inputRequests)
      finish = (first) => (isInputRequired(first) ? this.#inputRounds(method, sent, first, options) : first);
    else if (!modern && perRequestMeta) finish = (first) => fromLegacy(this.protocol.facts, method, first);
    return (this.peer as unknown as Finishing).request(method, sent, options, finish);
  }

  /** Answers the server's input requests and asks again, until the result is final (at most `maxInputRounds`). */
  async #inputRounds(method: string, sent: any, first: unknown, options: RequestOptions | undefined): Promise<unknown> {
    const maxRounds = this.options.maxInputRounds ?? 8;
    let result = first;
    for (let round = 0; isInputRequired(result); round++) {
      if (round >= maxRounds) {
        throw new ProtocolError(
          ErrorCode.InternalError,
          `${method}: server still asks for input after ${maxRounds} rounds`,
        );
      }
      sent = await answerInputRequests(sent ?? {}, result, this.#inputHandlers, this.options.validate, options?.signal);
      result = await this.peer.request(method, sent, options);
    }
    return result;
  }

  /** Send a notification typed by the client's notification table. */
  notify<M extends keyof OutNotifications & string>(method: M, ...args: ParamsArgs<OutNotifications[M]>): Promise<void>;
  notify(method: string, params?: any): Promise<void> {
    this.#checkAvailable(method);
    return this.peer.notify(method, params);
  }

  /** Handle a request the server sends (or, 2026-07-28 on, embeds as an input request). */
  setRequestHandler<M extends keyof InRequests & string>(
    method: M,
    handler: RequestHandler<InRequests[M], HandlerContext<any, any>>,
  ): void {
    this.#inputHandlers.set(method, handler as never);
    this.#envelope = undefined; // the capabilities follow the handlers
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

  /** 2026-07-28 on: every request's `_meta` (version, client info, capabilities), built once and sealed (json-size.ts). */
  #withRequestMeta(params: JsonObject | undefined): JsonObject {
    const version = this.negotiatedVersion; // from construction on: the newest modern, the one probed, the agreed one
    let envelope = this.#envelope;
    if (envelope === undefined || envelope.version !== version) {
      const keys = this.protocol.facts.metaKeys;
      const meta: JsonObject = {};
      setMeta(meta, keys['protocolVersion'], version);
      setMeta(meta, keys['clientInfo'], this.options.clientInfo);
      setMeta(meta, keys['clientCapabilities'], this.capabilities);
      envelope = this.#envelope = { version, meta: sealJson(meta) };
    }
    const given = metaOf(params);
    return withKey(params, '_meta', given === undefined ? envelope.meta : { ...envelope.meta, ...given });
  }
}
