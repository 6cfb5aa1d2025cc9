/**
 * Who sends what follows what the message unions hold — the handshake, the spec's method tables (who sends
 * each method of the released versions: schema/mcp-versions.json `senders`), the method families a
 * notification announces — before their names: a small schema whose unions are renamed reads as the same
 * protocol, and diffs against the original as "No changes". Names decide only what nothing else tells.
 */
import { describe, expect, test } from 'vitest';
import { diffModels } from '../../src/diff/index.js';
import type { JsonSchema } from '../../src/load/schema-types.js';
import { modelOf } from './helpers.js';

const ref = (name: string): JsonSchema => ({ $ref: `#/$defs/${name}` });
const object = (properties: JsonSchema, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required,
});
const request = (method: string, params?: JsonSchema): JsonSchema =>
  object(
    { jsonrpc: { const: '2.0' }, id: { type: 'integer' }, method: { const: method }, ...(params ? { params } : {}) },
    ['jsonrpc', 'id', 'method', ...(params ? ['params'] : [])],
  );
const notification = (method: string, params?: JsonSchema): JsonSchema =>
  object({ jsonrpc: { const: '2.0' }, method: { const: method }, ...(params ? { params } : {}) }, [
    'jsonrpc',
    'method',
  ]);

/**
 * A small MCP-shaped schema: the client's requests (a handshake among them unless `handshake` is false),
 * one server request, and notifications whose families say nothing (initialized, cancelled, progress,
 * message: no `tools/…` announcement to read a side from). The four unions are named by `names`.
 */
function small(names: [string, string, string, string], handshake = true): JsonSchema {
  const [clientRequests, serverRequests, clientNotifications, serverNotifications] = names;
  const capabilities = object({ protocolVersion: { type: 'string' }, capabilities: object({}) }, [
    'protocolVersion',
    'capabilities',
  ]);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $defs: {
      ...(handshake ? { InitializeRequest: request('initialize', capabilities), InitializeResult: capabilities } : {}),
      ListToolsRequest: request('tools/list'),
      ListToolsResult: object({ tools: { type: 'array', items: { type: 'string' } } }, ['tools']),
      CallToolRequest: request('tools/call', object({ name: { type: 'string' } }, ['name'])),
      CallToolResult: object({ content: { type: 'array' } }, ['content']),
      CreateMessageRequest: request('sampling/createMessage', object({ prompt: { type: 'string' } })),
      CreateMessageResult: object({ text: { type: 'string' } }),
      InitializedNotification: notification('notifications/initialized'),
      CancelledNotification: notification('notifications/cancelled', object({ requestId: { type: 'integer' } })),
      ProgressNotification: notification('notifications/progress', object({ progress: { type: 'number' } })),
      LoggingMessageNotification: notification('notifications/message', object({ data: {} })),
      [clientRequests]: {
        anyOf: [...(handshake ? [ref('InitializeRequest')] : []), ref('ListToolsRequest'), ref('CallToolRequest')],
      },
      [serverRequests]: { anyOf: [ref('CreateMessageRequest')] },
      [clientNotifications]: {
        anyOf: [ref('InitializedNotification'), ref('CancelledNotification'), ref('ProgressNotification')],
      },
      [serverNotifications]: {
        anyOf: [ref('CancelledNotification'), ref('ProgressNotification'), ref('LoggingMessageNotification')],
      },
    },
  };
}

const SPEC_NAMES: [string, string, string, string] = [
  'ClientRequest',
  'ServerRequest',
  'ClientNotification',
  'ServerNotification',
];
const directions = (doc: JsonSchema) =>
  Object.fromEntries(modelOf(doc).methods.map((m) => [m.method, m.directions.join(', ')]));
const EXPECTED = {
  initialize: 'client->server',
  'notifications/cancelled': 'client->server, server->client',
  'notifications/initialized': 'client->server',
  'notifications/message': 'server->client',
  'notifications/progress': 'client->server, server->client',
  'sampling/createMessage': 'server->client',
  'tools/call': 'client->server',
  'tools/list': 'client->server',
};

describe('direction from what the unions hold, not their names', () => {
  test('the spec names: the expected directions', () => {
    expect(directions(small(SPEC_NAMES))).toEqual(EXPECTED);
  });

  test.each([
    ['neutral names', ['Outbound', 'Inbound', 'Told', 'Heard']],
    // The spec's names on the wrong unions: what they hold wins.
    ['the spec names swapped', ['ServerRequest', 'ClientRequest', 'ServerNotification', 'ClientNotification']],
  ] as [string, [string, string, string, string]][])('%s: the same directions', (_name, names) => {
    expect(directions(small(names))).toEqual(EXPECTED);
  });

  test('renamed unions diff against the spec-named schema as "No changes" (every notification used to be removed)', () => {
    const report = diffModels(modelOf(small(SPEC_NAMES)), modelOf(small(['Outbound', 'Inbound', 'Told', 'Heard'])));
    expect(report.facts.map((f) => `${f.rule} ${f.location.method}`)).toEqual([]);
  });

  test('without a handshake, the method tables tell the requests apart too', () => {
    const { initialize: _, ...withoutHandshake } = EXPECTED;
    expect(directions(small(['Outbound', 'Inbound', 'Told', 'Heard'], false))).toEqual(withoutHandshake);
  });

  test('methods of its own that nothing tells apart: the spec names decide, as before', () => {
    const own: JsonSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: {
        FooRequest: request('foo/get'),
        FooResult: object({}),
        BarRequest: request('bar/get'),
        BarResult: object({}),
        ChangedNotification: notification('notifications/foo/changed'),
        ClientRequest: { anyOf: [ref('FooRequest')] },
        ServerRequest: { anyOf: [ref('BarRequest')] },
        ServerNotification: { anyOf: [ref('ChangedNotification')] },
      },
    };
    expect(directions(own)).toEqual({
      'bar/get': 'server->client',
      'foo/get': 'client->server',
      'notifications/foo/changed': 'server->client',
    });
  });
});
