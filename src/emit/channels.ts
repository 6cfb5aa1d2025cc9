/**
 * Extension channels in generated code: for each channel an extension declares (MCP Apps: view ↔ host),
 * a typed peer class per end — the client end in client.ts, the server end in server.ts — on the
 * runtime's ChannelClient / ChannelServer (templates/channel.ts). The client end sends the client→server
 * methods of the version's tables and opens with the channel's handshake, never with `initialize`.
 */
import type { ChannelInfo, ProtocolModel } from '../model/types.js';
import { quote } from './layout.js';
import { atom, classDecl, object, str, type ClassSpec } from './layout-code.js';
import { ref, text } from './layout-types.js';
import type { Doc } from './layout.js';

/** What the runtime's channel peer reads: the extension, its handshake and its initialized notification. */
function description(c: ChannelInfo) {
  return object([
    { name: 'extension', value: str(c.extension) },
    { name: 'handshake', value: str(c.handshake) },
    ...(c.initialized !== null ? [{ name: 'initialized', value: str(c.initialized) }] : []),
  ]);
}

/** The channels of the model (none: empty). */
export function channelsOf(model: ProtocolModel): readonly ChannelInfo[] {
  return model.channels ?? [];
}

function channelClass(c: ChannelInfo, spec: Pick<ClassSpec, 'name' | 'extends' | 'doc'>, options: string): Doc {
  return classDecl({
    ...spec,
    properties: [],
    ctor: {
      params: [
        { name: 'transport', type: text('Transport') },
        { name: 'options', type: text(options), initializer: '{}' },
      ],
      body: [
        { expression: { kind: 'call', callee: 'super', args: [atom('transport'), description(c), atom('options')] } },
      ],
    },
    methods: [],
  });
}

/** The client end of each channel, for client.ts (imports: ChannelClient, PeerOptions, ClientRequests). */
export function channelClientClasses(model: ProtocolModel): Doc[] {
  return channelsOf(model).map((c) =>
    channelClass(
      c,
      {
        name: c.clientClass,
        extends: ref(
          'ChannelClient',
          ...['ClientRequests', 'ClientNotifications', 'ServerRequests', 'ServerNotifications'].map(text),
          text(quote(c.handshake)),
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
export function channelServerClasses(model: ProtocolModel): Doc[] {
  return channelsOf(model).map((c) =>
    channelClass(
      c,
      {
        name: c.serverClass,
        extends: ref(
          'ChannelServer',
          ...['ServerRequests', 'ServerNotifications', 'ClientRequests', 'ClientNotifications'].map(text),
        ),
        doc:
          `The ${c.server} end of the ${c.extension} channel: answer \`${c.handshake}\` with \`setRequestHandler\`` +
          ` (every other request is refused until then), handle what the ${c.client} sends, and notify it, typed.`,
      },
      'PeerOptions<ServerRequests, ServerNotifications>',
    ),
  );
}
