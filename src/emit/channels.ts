/**
 * Extension channels in generated code: for each channel an extension declares (MCP Apps: view ↔ host),
 * a typed peer class per end — the client end in client.ts, the server end in server.ts — on the
 * runtime's ChannelClient / ChannelServer (templates/channel.ts). The client end sends the client→server
 * methods of the version's tables and opens with the channel's handshake, never with `initialize`.
 */
import type { ChannelInfo, ProtocolModel } from '../model/types.js';
import type { Statement } from './ts-project.js';
import { classDecl, type ClassSpec } from './ts-structures.js';
import { call, objectLiteral, ref, str } from './ts-text.js';

/** What the runtime's channel peer reads: the extension, its handshake and its initialized notification. */
function description(c: ChannelInfo): string {
  return objectLiteral([
    { name: 'extension', value: str(c.extension) },
    { name: 'handshake', value: str(c.handshake) },
    ...(c.initialized !== null ? [{ name: 'initialized', value: str(c.initialized) }] : []),
  ]);
}

/** The channels of the model (none: empty). */
export function channelsOf(model: ProtocolModel): readonly ChannelInfo[] {
  return model.channels ?? [];
}

function channelClass(c: ChannelInfo, spec: Pick<ClassSpec, 'name' | 'extends' | 'doc'>, options: string): Statement {
  return classDecl({
    ...spec,
    properties: [],
    ctor: {
      params: [
        { name: 'transport', type: 'Transport' },
        { name: 'options', type: options, initializer: '{}' },
      ],
      body: [`${call('super', 'transport', description(c), 'options')};`],
    },
    methods: [],
  });
}

/** The client end of each channel, for client.ts (imports: ChannelClient, PeerOptions, ClientRequests). */
export function channelClientClasses(model: ProtocolModel): Statement[] {
  return channelsOf(model).map((c) =>
    channelClass(
      c,
      {
        name: c.clientClass,
        extends: ref(
          'ChannelClient',
          'ClientRequests',
          'ClientNotifications',
          'ServerRequests',
          'ServerNotifications',
          str(c.handshake),
        ),
        doc:
          `The ${c.client} end of the ${c.extension} channel: \`connect(params)\` sends \`${c.handshake}\`` +
          (c.initialized !== null ? ` then \`${c.initialized}\`` : '') +
          ` (no \`initialize\`); then \`request\`/\`notify\` the ${c.server} with the client→server methods, typed.`,
      },
      'PeerOptions<ClientRequests, ClientNotifications>',
    ),
  );
}

/** The server end of each channel, for server.ts (imports: ChannelServer, PeerOptions, Client/Server tables). */
export function channelServerClasses(model: ProtocolModel): Statement[] {
  return channelsOf(model).map((c) =>
    channelClass(
      c,
      {
        name: c.serverClass,
        extends: ref('ChannelServer', 'ServerRequests', 'ServerNotifications', 'ClientRequests', 'ClientNotifications'),
        doc:
          `The ${c.server} end of the ${c.extension} channel: answer \`${c.handshake}\` with \`setRequestHandler\`` +
          ` (every other request is refused until then), handle what the ${c.client} sends, and notify it, typed.`,
      },
      'PeerOptions<ServerRequests, ServerNotifications>',
    ),
  );
}
