/**
 * Extension channels in generated code: for each channel an extension declares (MCP Apps: view ↔ host),
 * a typed peer class per end — the client end in client.ts, the server end in server.ts — on the
 * runtime's ChannelClient / ChannelServer (templates/channel.ts). The client end sends the client→server
 * methods of the version's tables and opens with the channel's handshake, never with `initialize`.
 */
import { StructureKind, type ClassDeclarationStructure } from 'ts-morph';
import type { ChannelInfo, ProtocolModel } from '../model/types.js';
import { stringLiteral } from './ts-names.js';

function description(c: ChannelInfo): string {
  return JSON.stringify({
    extension: c.extension,
    handshake: c.handshake,
    ...(c.initialized !== null ? { initialized: c.initialized } : {}),
  });
}

/** The channels of the model (none: empty). */
export function channelsOf(model: ProtocolModel): readonly ChannelInfo[] {
  return model.channels ?? [];
}

/** The client end of each channel, for client.ts (imports: ChannelClient, PeerOptions, ClientRequests). */
export function channelClientClasses(model: ProtocolModel): ClassDeclarationStructure[] {
  return channelsOf(model).map((c) => ({
    kind: StructureKind.Class,
    isExported: true,
    name: c.clientClass,
    extends: `ChannelClient<ClientRequests, ClientNotifications, ServerRequests, ServerNotifications, ${stringLiteral(c.handshake)}>`,
    docs: [
      `The ${c.client} end of the ${c.extension} channel: \`connect(params)\` sends \`${c.handshake}\`` +
        (c.initialized !== null ? ` then \`${c.initialized}\`` : '') +
        ` (no \`initialize\`); then \`request\`/\`notify\` the ${c.server} with the client→server methods, typed.`,
    ],
    ctors: [
      {
        parameters: [
          { name: 'transport', type: 'Transport' },
          { name: 'options', type: 'PeerOptions<ClientRequests, ClientNotifications>', initializer: '{}' },
        ],
        statements: [`super(transport, ${description(c)}, options);`],
      },
    ],
  }));
}

/** The server end of each channel, for server.ts (imports: ChannelServer, PeerOptions, Client/Server tables). */
export function channelServerClasses(model: ProtocolModel): ClassDeclarationStructure[] {
  return channelsOf(model).map((c) => ({
    kind: StructureKind.Class,
    isExported: true,
    name: c.serverClass,
    extends: 'ChannelServer<ServerRequests, ServerNotifications, ClientRequests, ClientNotifications>',
    docs: [
      `The ${c.server} end of the ${c.extension} channel: answer \`${c.handshake}\` with \`setRequestHandler\`` +
        ` (every other request is refused until then), handle what the ${c.client} sends, and notify it, typed.`,
    ],
    ctors: [
      {
        parameters: [
          { name: 'transport', type: 'Transport' },
          { name: 'options', type: 'PeerOptions<ServerRequests, ServerNotifications>', initializer: '{}' },
        ],
        statements: [`super(transport, ${description(c)}, options);`],
      },
    ],
  }));
}
