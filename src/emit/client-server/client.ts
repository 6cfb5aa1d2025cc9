/**
 * client.ts: `McpClient`, one typed stub per request the client may send, grouped by the method's path
 * (`client.tools.call`, `client.resources.templates.list`, `client.ping`, `client.acme.jobs.start`),
 * on top of the hand-written runtime/client-base.ts. Built as ts-morph statement structures (ts-structures.ts).
 */
import { isObject } from '../../load/schema.js';
import { resolvePointer } from '../../load/pointer.js';
import type { MethodInfo, ProtocolModel } from '../../model/types.js';
import { methodPath } from '../../model/member-paths.js';
import { withDiscriminant } from './server.js';
import { CHANNEL_DIRECTIONS, channelClientClasses, channelsOf } from './channels.js';
import { paramsValidatorLiterals, validatorsNamespaceImport } from '../validators/validator-refs.js';
import { settingsCheck } from '../maps/settings.js';
import { baseClassMembers } from '../shared/base-members.js';
import { runtimeCheck, runtimeCheckImport, type RuntimeRef } from '../shared/runtime-ref.js';
import { channelTable, hasExtensionSettings, methodsOfTable, optionsType } from '../maps/tables.js';
import { paramsType } from '../types/params-names.js';
import { connectedFunction, eraTypes } from './client-eras.js';
import { legacyCallsOf } from './legacy-calls.js';
import type { Statement, TsFiles } from '../shared/ts-project.js';
import { classDecl, functionDecl, importDecl, typeAlias, type ClassSpec } from '../shared/ts-structures.js';
import {
  and,
  arrow,
  call,
  objectLiteral,
  objectType,
  ref,
  str,
  union,
  type Param,
  type Prop,
} from '../shared/ts-text.js';

/** Requests the client sends, as the caller sees them. */
function clientCalls(model: ProtocolModel): MethodInfo[] {
  return methodsOfTable(model, 'ClientRequests');
}

/**
 * Whether the caller must pass params: 2026-07-28 on, `_meta` is required by the schema but filled in
 * by the client, so params whose only required field is `_meta` become optional for the caller.
 */
function callerParamsRequired(model: ProtocolModel, m: MethodInfo): boolean {
  if (!m.paramsRequired) return false;
  if (!model.features.perRequestMeta) return true;
  const schema = paramsSchema(model, m);
  const required = isObject(schema) && Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  return required.some((r) => r !== '_meta');
}

export function paramsSchema(model: ProtocolModel, m: MethodInfo): unknown {
  if (m.params === null) return undefined;
  if (m.params.kind === 'definition') return model.definitions[m.params.name];
  return resolvePointer(model.definitions, m.params.pointer.slice(`#/${model.defsKeyword}`.length));
}

/** The result the caller gets: input-required rounds are resolved by the client. */
function callerResult(model: ProtocolModel, m: MethodInfo): string {
  const results = (m.result ?? []).filter((r) => !(model.features.inputRequests && r === 'InputRequiredResult'));
  if (results.length === 0) return 'T.Result';
  return union(results.map((r) => withDiscriminant(`T.${r}`, m.discriminants?.[r])));
}

/**
 * The params a caller passes, by name (so an editor shows `CallToolRequestParams`): 2026-07-28 on,
 * wrapped in CallerParams, which makes the `_meta` and retry fields the client fills in optional.
 */
function callerParams(model: ProtocolModel, m: MethodInfo): string {
  const params = paramsType(m, model);
  return model.features.perRequestMeta && m.params !== null ? ref('CallerParams', params) : params;
}

function callsType(model: ProtocolModel): string {
  const rows = clientCalls(model).map((m) => ({
    name: m.method,
    type: objectType([
      { name: 'params', type: callerParams(model, m) },
      { name: 'paramsRequired', type: String(callerParamsRequired(model, m)) },
      { name: 'result', type: callerResult(model, m) },
    ]),
  }));
  return rows.length ? objectType(rows, true) : 'Record<never, never>';
}

export interface StubNode {
  leaf?: MethodInfo;
  children: Map<string, StubNode>;
}

/** `resources/templates/list` → resources.templates.list; `acme/jobs.start` → acme.jobs.start. */
export function stubTree(methods: readonly MethodInfo[], handshake: readonly string[] = []): StubNode {
  const root: StubNode = { children: new Map() };
  for (const m of methods) {
    // The handshake is connect()'s job: a stub would let callers run it twice.
    if (handshake.includes(m.method)) continue;
    let node = root;
    for (const segment of methodPath(m.method)) {
      const child = node.children.get(segment) ?? { children: new Map() };
      node.children.set(segment, child);
      node = child;
    }
    node.leaf = m;
  }
  return root;
}

function stubParams(model: ProtocolModel, m: MethodInfo): Param[] {
  return [
    { name: 'params', type: callerParams(model, m), optional: !callerParamsRequired(model, m) },
    { name: 'options', type: 'RequestOptions', optional: true },
  ];
}

// The base's untyped `call`: the stub's own signature carries the types (see client-base.ts).
const requestCall = (m: MethodInfo): string => call('this.call', str(m.method), 'params', 'options');

function stubFunction(model: ProtocolModel, m: MethodInfo): string {
  if (m.taskResult !== undefined) return taskAugmentedStub(model, m, m.taskResult);
  return arrow(stubParams(model, m), ref('Promise', callerResult(model, m)), requestCall(m));
}

/**
 * A task-augmented request (2025-11-25) as overloads: with `task` it answers with the created task, without
 * it with its result, and with params whose `task` may or may not be set, with either. The stub itself
 * returns what `call` does (`Promise<never>`), so it is assignable to all three.
 */
function taskAugmentedStub(model: ProtocolModel, m: MethodInfo, taskResult: string): string {
  const [params, options] = stubParams(model, m) as [Param, Param];
  const signature = (p: Param, result: string) =>
    `(${p.name}${p.optional ? '?' : ''}: ${p.type}, ${options.name}?: ${options.type}): ${ref('Promise', result)};`;
  const created = `T.${taskResult}`;
  const overloads = [
    signature(
      { ...params, optional: false, type: and(params.type, `{ task: NonNullable<${params.type}['task']> }`) },
      created,
    ),
    signature({ ...params, type: and(params.type, '{ task?: undefined }') }, callerResult(model, m)),
    signature(params, union([callerResult(model, m), created])),
  ];
  return `(${arrow([params, options], 'Promise<never>', requestCall(m))}) as {\n${overloads.join('\n')}\n}`;
}

/** A method's doc comment: its method string and its definition's description (the SDK facade's too). */
export function describe(model: ProtocolModel, m: MethodInfo): string {
  const d = model.definitions[m.definition]?.description;
  return typeof d === 'string' ? `\`${m.method}\`: ${d}` : `\`${m.method}\``;
}

/** A stub that also has stubs under it (`x/list` and `x/list/all`): the function with the group's members. */
const withMembers = (model: ProtocolModel, leaf: MethodInfo, node: StubNode): string =>
  call('Object.assign', stubFunction(model, leaf), groupLiteral(model, node));

/** A stub for a node: its function, its group of stubs, or both. */
function stubValue(model: ProtocolModel, node: StubNode): string {
  if (node.leaf === undefined) return groupLiteral(model, node);
  return node.children.size === 0 ? stubFunction(model, node.leaf) : withMembers(model, node.leaf, node);
}

/** An object literal of stubs for one group (nested groups as nested literals). */
function groupLiteral(model: ProtocolModel, node: StubNode): string {
  const props: Prop[] = [];
  for (const [name, child] of node.children)
    props.push({ name, value: stubValue(model, child), ...(child.leaf ? { doc: describe(model, child.leaf) } : {}) });
  return objectLiteral(props, true);
}

/**
 * The base's constructor arguments: a version of the metadata-header era (2026-07-28 on) also passes the
 * header logic, which only such a client references (so an older client's bundle leaves it out).
 */
function superArgs(model: ProtocolModel): string[] {
  return ['transport', 'PROTOCOL', 'options', ...(model.facts.transport.metadataHeaders ? ['METADATA_HEADERS'] : [])];
}

/**
 * The vendor methods the client receives on its MCP session, with params to check: not those of an extension
 * that has a channel (they travel on the channel, whose ends check them).
 */
function vendorReceived(model: ProtocolModel): MethodInfo[] {
  const channelled = new Set(channelsOf(model).map((c) => c.extension));
  const tables = ['ServerRequests', 'ServerNotifications'];
  return tables
    .flatMap((name) => methodsOfTable(model, name))
    .filter((m) => m.source !== 'mcp' && !channelled.has(m.source) && m.params !== null);
}

/** `checkVendorParams(this.peer, …)`: the vendor methods' validators, each by name (a bundle keeps only those). */
function vendorParamsCheck(model: ProtocolModel, validators: boolean): string[] {
  const received = validators ? vendorReceived(model) : [];
  if (received.length === 0) return [];
  const { params, required } = paramsValidatorLiterals(received);
  return [`${call('checkVendorParams', 'this.peer', params, required)};`];
}

/** Whether an extension offers some method only under a setting (skills' `resources/directory/read`). */
function hasOfferedSettings(model: ProtocolModel): boolean {
  return Object.values(model.facts.extensionRules ?? {}).some((r) => Object.keys(r.settings).length > 0);
}

/**
 * `request`, which every stub goes through, refusing a method the server does not offer (its settings for the
 * extension do not say so) before anything is sent. Only a client of such an extension has it: others' bundles
 * do not carry the check.
 */
function offeredRequest(): ClassSpec['methods'][number] {
  return {
    name: 'request',
    override: true,
    doc: "Sends a request; one an extension offers only under a setting (skills' directoryRead) is refused, before anything is sent, when the server's settings do not say it.",
    typeParams: ['M extends keyof ClientCalls & string'],
    params: [
      { name: 'method', type: 'M' },
      { name: 'args', type: 'ParamsArgs<ClientCalls[M], [options?: RequestOptions | undefined]>', rest: true },
    ],
    returns: "Promise<ClientCalls[M]['result']>",
    body: [
      'const refused = unofferedMethod(PROTOCOL, this.serverCapabilities, method);',
      'if (refused !== undefined) return Promise.reject(new LocalError(ErrorCode.MethodNotFound, refused));',
      'return super.request(method, ...args);',
    ],
  };
}

/** McpClient: one method per request, grouped by the method's path (`client.tools.call(...)`). */
function clientClass(model: ProtocolModel, files: TsFiles, validators: boolean): Statement {
  const tree = stubTree(clientCalls(model), model.facts.handshakeRequests);
  const spec: ClassSpec = {
    name: 'McpClient',
    extends: ref(
      'McpClientBase',
      'ClientCalls',
      'ClientNotifications',
      and('ServerRequests', 'InputRequests'),
      'ServerNotifications',
    ),
    doc:
      `A typed MCP client for spec ${model.version ?? '(unknown version)'}: one method per request, grouped by the method's path.\n` +
      'Call `connect()` first; handlers for what the server sends are registered with `setRequestHandler` / `setNotificationHandler`.',
    ctor: {
      params: [
        { name: 'transport', type: 'Transport' },
        { name: 'options', type: optionsType(model, 'McpClientOptions', 'ClientCapabilities') },
      ],
      body: [
        `${call('super', ...superArgs(model))};`,
        ...settingsCheck(model, 'client', validators),
        ...vendorParamsCheck(model, validators),
      ],
    },
    properties: [],
    methods: hasOfferedSettings(model) ? [offeredRequest()] : [],
  };
  for (const [rawName, node] of tree.children) {
    const name = baseClassMembers(files, 'client-base.ts', 'McpClientBase').has(rawName) ? `${rawName}_` : rawName;
    // A task-augmented stub is an overloaded function value, not a method.
    if (node.children.size === 0 && node.leaf && node.leaf.taskResult === undefined) {
      const m = node.leaf;
      spec.methods.push({
        name,
        doc: describe(model, m),
        params: stubParams(model, m),
        returns: ref('Promise', callerResult(model, m)),
        body: [`return ${requestCall(m)};`],
      });
    } else {
      spec.properties.push({ name, value: stubValue(model, node) });
    }
  }
  return classDecl(spec);
}

/** The imports of client.ts: only what it uses (an unused import fails noUnusedLocals). */
function clientImports(model: ProtocolModel, importExt: string, runtime: RuntimeRef, validators: boolean): Statement[] {
  const channels = channelsOf(model).length > 0;
  return [
    importDecl(true, { namespace: 'T' }, `./types${importExt}`),
    importDecl(
      true,
      [
        ...new Set([
          ...(channels ? CHANNEL_DIRECTIONS.map((name) => channelTable(model, name)) : []),
          'ClientNotifications',
          'InputRequests',
          'ServerNotifications',
          'ServerRequests',
        ]),
      ].sort(),
      `./maps${importExt}`,
    ),
    importDecl(false, ['PROTOCOL'], `./maps${importExt}`),
    ...validatorsNamespaceImport(
      importExt,
      validators,
      channels || hasExtensionSettings(model) || vendorReceived(model).length > 0,
    ),
    importDecl(
      false,
      [
        'McpClientBase',
        ...(model.facts.transport.metadataHeaders ? ['METADATA_HEADERS'] : []),
        ...(channels ? ['ChannelClient', 'type PeerOptions'] : []),
        // CallerParams only where per-request `_meta` exists: an unused import would fail noUnusedLocals.
        ...(model.features.perRequestMeta ? ['type CallerParams'] : []),
        ...(hasExtensionSettings(model) ? ['checkExtensionSettings'] : []),
        ...(validators && vendorReceived(model).length > 0 ? ['checkVendorParams'] : []),
        ...(hasOfferedSettings(model) ? ['ErrorCode', 'LocalError', 'type ParamsArgs', 'unofferedMethod'] : []),
        'type McpClientOptions',
        'type RequestOptions',
        'type Transport',
        ...runtimeCheckImport(runtime),
      ],
      runtime.core,
    ),
    ...runtimeCheck(runtime, 'client.ts'),
  ];
}

export function clientStatements(
  model: ProtocolModel,
  importExt: string,
  runtime: RuntimeRef,
  files: TsFiles,
  validators = true,
): Statement[] {
  return [
    ...clientImports(model, importExt, runtime, validators),
    typeAlias(
      'ClientCalls',
      callsType(model),
      'Requests as the client calls them: params the client fills in itself (per-request `_meta`, input responses) are optional, and results are final.',
    ),
    clientClass(model, files, validators),
    ...eraTypes(model, legacyCallsOf(model)),
    ...connectedOf(model),
    functionDecl({
      name: 'createClient',
      doc: 'Create a client on a transport (stdio, Streamable HTTP, in-memory, or any SDK-compatible Transport).',
      params: [
        { name: 'transport', type: 'Transport' },
        { name: 'options', type: optionsType(model, 'McpClientOptions', 'ClientCapabilities') },
      ],
      returns: 'McpClient',
      body: ['return new McpClient(transport, options);'],
    }),
    ...channelClientClasses(model, validators),
  ];
}

/** `connected(client)` and its era types, for a client that can fall back to a legacy server (client-eras.ts). */
function connectedOf(model: ProtocolModel): Statement[] {
  const legacy = legacyCallsOf(model);
  if (legacy.length === 0) return [];
  const tree = stubTree(clientCalls(model), model.facts.handshakeRequests);
  const groups = new Set([...tree.children].filter(([, node]) => node.children.size > 0).map(([name]) => name));
  return [connectedFunction(model, legacy, groups)];
}
