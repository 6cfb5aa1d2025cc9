/**
 * The names the SDK adapters (sdk.ts, sdk-v1.ts) export, for index.ts (the registry reads them). No
 * ts-morph here: the registry is loaded on `--check` too.
 */
import type { Direction, ProtocolModel } from '../../model/types.js';
import { hasExtensionSettings } from '../maps/tables.js';

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
