/**
 * Extension channels in generated code: for each channel an extension declares (MCP Apps: view ↔ host),
 * a typed peer class per end — the client end in client.ts, the server end in server.ts — on the
 * runtime's ChannelClient / ChannelServer (templates/channel.ts). The client end sends the client→server
 * methods of the version's tables and opens with the channel's handshake, never with `initialize`.
 */
import type { ChannelInfo, MethodInfo, ProtocolModel } from '../../model/types.js';
import type { Statement } from '../shared/ts-project.js';
import { channelTable, methodsOfTable } from '../maps/tables.js';
import { classDecl, type ClassSpec } from '../shared/ts-structures.js';
import { paramsValidatorLiterals } from '../validators/validator-refs.js';
import { call, objectLiteral, ref, str } from '../shared/ts-text.js';

/** The four directions' tables a channel end's class is typed with. */
export const CHANNEL_DIRECTIONS = ['ClientNotifications', 'ClientRequests', 'ServerNotifications', 'ServerRequests'];

/** The methods an end receives: the client end what the server sends, and the other way round. */
export function receivedBy(model: ProtocolModel, end: 'client' | 'server'): MethodInfo[] {
  const names =
    end === 'server' ? ['ClientRequests', 'ClientNotifications'] : ['ServerRequests', 'ServerNotifications'];
  return names.flatMap((name) => methodsOfTable(model, channelTable(model, name)));
}

/**
 * What the runtime's channel peer reads: the extension, its handshake and its initialized notification, and
 * the params validators of the methods this end receives, each by name, so a bundle keeps only those.
 */
function description(model: ProtocolModel, c: ChannelInfo, end: 'client' | 'server', validators: boolean): string {
  const { params, required } = paramsValidatorLiterals(validators ? receivedBy(model, end) : []);
  return objectLiteral([
    { name: 'extension', value: str(c.extension) },
    { name: 'handshake', value: str(c.handshake) },
    ...(c.initialized !== null ? [{ name: 'initialized', value: str(c.initialized) }] : []),
    ...(validators
      ? [
          { name: 'params', value: params },
          { name: 'paramsRequired', value: required },
        ]
      : []),
  ]);
}

/** The channels of the model (none: empty). */
export function channelsOf(model: ProtocolModel): readonly ChannelInfo[] {
  return model.channels ?? [];
}

function channelClass(
  model: ProtocolModel,
  c: ChannelInfo,
  end: 'client' | 'server',
  spec: Pick<ClassSpec, 'name' | 'extends' | 'doc'>,
  options: string,
  validators: boolean,
): Statement {
  return classDecl({
    ...spec,
    properties: [],
    ctor: {
      params: [
        { name: 'transport', type: 'Transport' },
        { name: 'options', type: options, initializer: '{}' },
      ],
      body: [`${call('super', 'transport', description(model, c, end, validators), 'options')};`],
    },
    methods: [],
  });
}

/**
 * The client end of each channel, for client.ts (imports: ChannelClient, PeerOptions, ClientRequests). It
 * checks params only where validators.ts is generated (a client-only output has none).
 */
export function channelClientClasses(model: ProtocolModel, validators: boolean): Statement[] {
  return channelsOf(model).map((c) =>
    channelClass(
      model,
      c,
      'client',
      {
        name: c.clientClass,
        extends: ref(
          'ChannelClient',
          channelTable(model, 'ClientRequests'),
          channelTable(model, 'ClientNotifications'),
          channelTable(model, 'ServerRequests'),
          channelTable(model, 'ServerNotifications'),
          str(c.handshake),
        ),
        doc:
          `The ${c.client} end of the ${c.extension} channel: \`connect(params)\` sends \`${c.handshake}\`` +
          (c.initialized !== null ? ` then \`${c.initialized}\`` : '') +
          ` (no \`initialize\`); then \`request\`/\`notify\` the ${c.server} with the client→server methods, typed.`,
      },
      ref('PeerOptions', channelTable(model, 'ClientRequests'), channelTable(model, 'ClientNotifications')),
      validators,
    ),
  );
}

/** The server end of each channel, for server.ts (imports: ChannelServer, PeerOptions, Client/Server tables). */
export function channelServerClasses(model: ProtocolModel): Statement[] {
  return channelsOf(model).map((c) =>
    channelClass(
      model,
      c,
      'server',
      {
        name: c.serverClass,
        extends: ref(
          'ChannelServer',
          channelTable(model, 'ServerRequests'),
          channelTable(model, 'ServerNotifications'),
          channelTable(model, 'ClientRequests'),
          channelTable(model, 'ClientNotifications'),
        ),
        doc:
          `The ${c.server} end of the ${c.extension} channel: answer \`${c.handshake}\` with \`setRequestHandler\`` +
          ` (every other request is refused until then), handle what the ${c.client} sends, and notify it, typed.`,
      },
      ref('PeerOptions', channelTable(model, 'ServerRequests'), channelTable(model, 'ServerNotifications')),
      true,
    ),
  );
}
