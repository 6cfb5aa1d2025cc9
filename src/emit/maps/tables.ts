/**
 * The method tables, the type of a method's result (its params': types/params-names.ts), and the names
 * each generated module exports (index.ts re-exports them).
 */
import type { Direction, MethodInfo, ProtocolModel } from '../../model/types.js';
import { legacyCallsOf } from '../client-server/legacy-calls.js';
import { settingsDefinitionName } from '../../model/extension-names.js';
import { and, objectType, union } from '../shared/ts-text.js';
import type { EmitContext } from '../shared/context.js';

export interface Table {
  name: string;
  doc: string;
  listName: string;
  select: (m: MethodInfo) => boolean;
}

const byDirection = (kind: MethodInfo['kind'], direction: Direction) => (m: MethodInfo) =>
  m.kind === kind && m.directions.includes(direction);

export const TABLES: readonly Table[] = [
  {
    name: 'ClientRequests',
    listName: 'CLIENT_REQUEST_METHODS',
    doc: 'Requests the client sends to the server.',
    select: byDirection('request', 'client->server'),
  },
  {
    name: 'ServerRequests',
    listName: 'SERVER_REQUEST_METHODS',
    doc: 'Requests the server sends to the client.',
    select: byDirection('request', 'server->client'),
  },
  {
    name: 'InputRequests',
    listName: 'INPUT_REQUEST_METHODS',
    doc: 'Input requests the server embeds in an InputRequiredResult; the client answers them in `inputResponses` when it retries.',
    select: byDirection('request', 'input'),
  },
  {
    name: 'ClientNotifications',
    listName: 'CLIENT_NOTIFICATION_METHODS',
    doc: 'Notifications the client sends to the server.',
    select: byDirection('notification', 'client->server'),
  },
  {
    name: 'ServerNotifications',
    listName: 'SERVER_NOTIFICATION_METHODS',
    doc: 'Notifications the server sends to the client.',
    select: byDirection('notification', 'server->client'),
  },
];

/** Helper types: [name with type parameters, type, doc]. */
export const ALIASES: readonly (readonly [string, string, string])[] = [
  ['ClientRequestMethod', 'keyof ClientRequests & string', 'Methods the client may request.'],
  ['ServerRequestMethod', 'keyof ServerRequests & string', 'Methods the server may request.'],
  [
    'InputRequestMethod',
    'keyof InputRequests & string',
    'Input requests the server may embed in an InputRequiredResult.',
  ],
  ['ClientNotificationMethod', 'keyof ClientNotifications & string', 'Notifications the client may send.'],
  ['ServerNotificationMethod', 'keyof ServerNotifications & string', 'Notifications the server may send.'],
  ['Requests', 'ClientRequests & ServerRequests & InputRequests', 'Every request, whoever sends it.'],
  ['Notifications', 'ClientNotifications & ServerNotifications', 'Every notification, whoever sends it.'],
  ['RequestMethod', 'keyof Requests & string', 'Every request method.'],
  ['NotificationMethod', 'keyof Notifications & string', 'Every notification method.'],
  ['Method', 'RequestMethod | NotificationMethod', 'Every method.'],
  // Not a conditional type on RequestMethod / NotificationMethod: checking that made tsc resolve both big
  // unions of table rows (a third of maps.ts's check time). Request and notification names never overlap,
  // so indexing the intersection gives the same type, a union for a union of methods, never for never.
  ['ParamsOf<M extends Method>', "(Requests & Notifications)[M]['params']", 'The params type of a method.'],
  ['ResultOf<M extends RequestMethod>', "Requests[M]['result']", 'The result type of a request method.'],
  [
    'RequestOf<M extends RequestMethod>',
    [
      '{',
      "  jsonrpc: '2.0';",
      '  id: T.RequestId;',
      '  method: M;',
      "} & (Requests[M]['paramsRequired'] extends true",
      "  ? { params: Requests[M]['params'] }",
      "  : { params?: Requests[M]['params'] })",
    ].join('\n'),
    'A JSON-RPC request for one method: the envelope with the literal method and its params.',
  ],
  [
    'NotificationOf<M extends NotificationMethod>',
    [
      '{',
      "  jsonrpc: '2.0';",
      '  method: M;',
      "} & (Notifications[M]['paramsRequired'] extends true",
      "  ? { params: Notifications[M]['params'] }",
      "  : { params?: Notifications[M]['params'] })",
    ].join('\n'),
    'A JSON-RPC notification for one method: no id, so it is never answered.',
  ],
  [
    'ResponseOf<M extends RequestMethod>',
    "{ jsonrpc: '2.0'; id: T.RequestId; result: ResultOf<M> }",
    'A successful JSON-RPC response to a request of method M.',
  ],
];

export function resultType(m: MethodInfo): string {
  const results = (m.result ?? []).map((r) => `T.${r}`);
  return results.length === 0 ? 'never' : union(results);
}

/** Every name maps.ts exports, so index.ts can re-export them without clashing with definition names. */
export function mapsExports(model?: ProtocolModel): { types: string[]; values: string[] } {
  const settings = settingsExports(model);
  return {
    types: [...TABLES.map((t) => t.name), ...ALIASES.map(([name]) => name.replace(/<.*$/, '')), ...settings.types],
    values: [...TABLES.map((t) => t.listName), 'METHODS', 'PROTOCOL', 'ERROR_CODES', ...settings.values],
  };
}

/** The era types client.ts declares when the client can fall back to a legacy server (client-eras.ts). */
const ERA_TYPES = ['LegacyCalls', 'ModernMcpClient', 'LegacyMcpClient', 'ConnectedMcpClient'];

/** Every name client.ts exports. */
export function clientExports(model?: ProtocolModel): { types: string[]; values: string[] } {
  const channels = (model?.channels ?? []).map((c) => c.clientClass);
  const eras = model && legacyCallsOf(model).length > 0 ? ERA_TYPES : [];
  const connected = eras.length > 0 ? ['connected'] : [];
  return { types: ['ClientCalls', ...eras], values: ['McpClient', 'createClient', ...connected, ...channels] };
}

/** Every name server.ts exports. */
export function serverExports(model?: ProtocolModel): { types: string[]; values: string[] } {
  const channels = (model?.channels ?? []).map((c) => c.serverClass);
  return { types: ['McpServerHandlers', 'ServerContext'], values: ['McpServer', 'createServer', ...channels] };
}

/**
 * A peer's options type: the runtime's (`McpClientOptions`, `McpServerOptions`) with `capabilities` typed as
 * this version's definition (extension settings included), when the schema has one.
 */
export function optionsType(model: ProtocolModel, options: string, capabilities: string): string {
  return capabilities in model.definitions
    ? and(options, objectType([{ name: 'capabilities', optional: true, type: `T.${capabilities}` }]))
    : options;
}

/** Vendor methods one side receives (what the SDK adapters register handlers for). */
function vendorReceived(model: ProtocolModel | undefined, sender: Direction): boolean {
  return (model?.methods ?? []).some((m) => m.source !== 'mcp' && m.directions.includes(sender));
}

/** Every name sdk.ts (the SDK v2 adapter) exports. */
export function sdkExports(model?: ProtocolModel): { types: string[]; values: string[] } {
  const server = vendorReceived(model, 'client->server');
  const client = vendorReceived(model, 'server->client');
  const settings = model !== undefined && hasExtensionSettings(model);
  return {
    types: [
      'SdkPeer',
      'ContextOf',
      'SdkRequester',
      'OptionsOf',
      'Caller',
      'ArgsOf',
      'SdkClient',
      'SdkRequest',
      'SdkServer',
      ...(server ? ['ServerHandlers'] : []),
      ...(client ? ['ClientHandlers'] : []),
      ...(settings ? ['JsonObject'] : []),
    ],
    values: [
      'METHOD_NAMES',
      'RESULT_SCHEMAS',
      'SERVER_RESULT_SCHEMAS',
      'sdkClient',
      'sdkRequest',
      'sdkServer',
      ...(server ? ['registerServerHandlers'] : []),
      ...(client ? ['registerClientHandlers'] : []),
      ...(settings ? ['extensionCapabilities'] : []),
    ],
  };
}

/** Every name sdk-v1.ts (the SDK v1 adapter, through zod) exports. */
export function sdkV1Exports(model?: ProtocolModel): { types: string[]; values: string[] } {
  const server = vendorReceived(model, 'client->server');
  const client = vendorReceived(model, 'server->client');
  return {
    types: ['SdkV1Peer', 'ExtraOf', 'SdkV1Requester'],
    values: [
      'zodSchema',
      'sdkClientV1',
      'sdkRequestV1',
      'sdkServerV1',
      ...(server ? ['registerServerHandlersV1'] : []),
      ...(client ? ['registerClientHandlersV1'] : []),
    ],
  };
}

/** The names tools.ts exports besides the surface's own types (index.ts re-exports them). */
export function toolsExports(ctx: Pick<EmitContext, 'tools' | 'artifacts'>): { types: string[]; values: string[] } {
  const surface = ctx.tools;
  if (surface === undefined) return { types: [], values: [] };
  const client = ctx.artifacts.includes('client');
  const server = ctx.artifacts.includes('server');
  const prompts = (names: string[]) => (surface.prompts ? names : []);
  const own = surface.tools
    .flatMap((t) => [t.input, ...(t.output ? [t.output] : [])])
    .concat([...(surface.prompts ?? []), ...(surface.resourceTemplates ?? [])].map((e) => e.input))
    .flatMap((n) => [n.name, ...n.defs.map((d) => d.named.name)]);
  return {
    types: [
      ...own,
      'ResourceTemplateVariables',
      ...(client ? ['ToolCallResult', ...prompts(['PromptCallResult']), 'TypedToolResult', 'ToolCalls'] : []),
      ...(client ? prompts(['PromptCalls']) : []),
      ...(server ? ['ToolHandlerResult', ...prompts(['PromptHandlerResult']), 'TypedToolReturn', 'ToolHandlers'] : []),
      ...(server ? [...prompts(['PromptHandlers']), 'ToolsImplementation', 'ToolsServerHandlers'] : []),
    ],
    values: [...(client ? ['ToolsClient', 'createToolsClient'] : []), ...(server ? ['toolsServer'] : [])],
  };
}

/** The names no surface type may take: tools.ts's own exports (the surface's types are named around them). */
export const TOOLS_FIXED_EXPORTS: readonly string[] = [
  'ResourceTemplateVariables',
  'ToolCallResult',
  'PromptCallResult',
  'ToolHandlerResult',
  'PromptHandlerResult',
  'TypedToolResult',
  'ToolCalls',
  'PromptCalls',
  'TypedToolReturn',
  'ToolHandlers',
  'PromptHandlers',
  'ToolsImplementation',
  'ToolsServerHandlers',
  'ToolsClient',
  'createToolsClient',
  'toolsServer',
];

/** The extensions generated in, each with the definition its settings have (sorted by id). */
export function extensionSettingsOf(model: ProtocolModel): { id: string; definition: string }[] {
  return Object.keys(model.facts.extensions ?? {})
    .map((id) => ({ id, definition: settingsDefinitionName(id) }))
    .filter((e) => Object.hasOwn(model.definitions, e.definition));
}

/** Whether the output has extension settings to type and check (settings.ts). */
export function hasExtensionSettings(model: ProtocolModel): boolean {
  return extensionSettingsOf(model).length > 0;
}

/** The names maps.ts exports for settings (none without extensions). */
function settingsExports(model: ProtocolModel | undefined): { types: string[]; values: string[] } {
  return model && hasExtensionSettings(model)
    ? { types: ['ExtensionSettings'], values: ['extensionSettings'] }
    : { types: [], values: [] };
}
