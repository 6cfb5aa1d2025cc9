/**
 * The names client.ts and server.ts export, for index.ts (the registry reads them). No ts-morph here: the
 * registry is loaded on `--check` too.
 */
import type { ProtocolModel } from '../../model/types.js';
import { legacyCallsOf } from './legacy-calls.js';

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
