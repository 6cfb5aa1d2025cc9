/**
 * The method tables, the type of a method's result (its params': types/params-names.ts), and the names
 * maps.ts exports (index.ts re-exports them; the other families list their modules' own).
 */
import type { Direction, MethodInfo, ProtocolModel } from '../../model/types.js';
import { settingsDefinitionName } from '../../model/extension-names.js';
import { and, objectType, union } from '../shared/ts-text.js';

export interface Table {
  name: string;
  doc: string;
  listName: string;
  select: (m: MethodInfo) => boolean;
  /** A channel table: the MCP table of the same direction with the extension channels' own methods. */
  channel?: boolean;
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

/**
 * An extension channel's ends (MCP Apps' view and host) are typed with tables of their own: the channels' own
 * methods (`ui/*`) and the MCP methods the channel carries (`channel.mcpMethods` in the extension file; absent:
 * all of them), in MCP's directions, and those it carries against them (`channel.mcpMethodsReversed`). From
 * 2026-07-28 on, the channels' methods also keep out of the MCP tables: on an MCP session they would be requests
 * a sessionless server cannot send and a client has no business calling.
 */
const CHANNEL_TABLES: readonly Table[] = TABLES.filter((t) => t.name !== 'InputRequests').map((t) => ({
  ...t,
  name: `Channel${t.name}`,
  listName: `CHANNEL_${t.listName}`,
  doc: `${t.doc.replace(/\.$/, '')}, over the extension channels: their own methods and the MCP methods they carry.`,
  channel: true,
}));

/** Whether the model has channel tables (any version with a channel). */
export function hasChannelTables(model: ProtocolModel): boolean {
  return (model.channels ?? []).length > 0;
}

/** Whether the channels' methods keep out of the MCP tables (2026-07-28 on, with a channel). */
function channelMethodsApart(model: ProtocolModel): boolean {
  return model.features.perRequestMeta && hasChannelTables(model);
}

/** The tables maps.ts declares for the model: MCP's, then the channels' where there are channels. */
export function tablesOf(model: ProtocolModel): readonly Table[] {
  return hasChannelTables(model) ? [...TABLES, ...CHANNEL_TABLES] : TABLES;
}

/**
 * The methods of a table: an MCP table leaves out the channels' methods where they keep apart; a channel table
 * holds the channels' methods and, of the others, those a channel carries.
 */
export function tableMethods(model: ProtocolModel, table: Table): MethodInfo[] {
  const channels = model.channels ?? [];
  const own = new Set(channels.map((c) => c.extension));
  if (table.channel === true) {
    const carried = channels.some((c) => c.mcpMethods === null)
      ? null
      : new Set(channels.flatMap((c) => c.mcpMethods ?? []));
    const reversed = new Set(channels.flatMap((c) => c.mcpMethodsReversed));
    return model.methods.filter((m) => {
      if (own.has(m.source)) return table.select(m);
      const forward = (carried === null || carried.has(m.method)) && table.select(m);
      return forward || (reversed.has(m.method) && table.select(againstDirection(m)));
    });
  }
  const apart = channelMethodsApart(model);
  return model.methods.filter((m) => table.select(m) && !(apart && own.has(m.source)));
}

/**
 * A method as a channel carries it against MCP's direction: what the server sends (a request or, from
 * 2026-07-28 on, an input request the server embeds) the client end sends, and the other way round.
 */
function againstDirection(m: MethodInfo): MethodInfo {
  const directions = m.directions.map((d): Direction => (d === 'client->server' ? 'server->client' : 'client->server'));
  return { ...m, directions: [...new Set(directions)] };
}

/** The methods of the table named `name` (one of TABLES or of the channel tables). */
export function methodsOfTable(model: ProtocolModel, name: string): MethodInfo[] {
  const table = tablesOf(model).find((t) => t.name === name);
  return table === undefined ? [] : tableMethods(model, table);
}

/** The table a channel end reads for a direction (`ClientRequests` → `ChannelClientRequests` where it exists). */
export function channelTable(model: ProtocolModel, name: string): string {
  return hasChannelTables(model) ? `Channel${name}` : name;
}

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
  const tables = model ? tablesOf(model) : TABLES;
  return {
    types: [...tables.map((t) => t.name), ...ALIASES.map(([name]) => name.replace(/<.*$/, '')), ...settings.types],
    values: [...tables.map((t) => t.listName), 'METHODS', 'PROTOCOL', 'ERROR_CODES', ...settings.values],
  };
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
