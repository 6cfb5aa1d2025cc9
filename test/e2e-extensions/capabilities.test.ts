/**
 * Extension capabilities, negotiated per version (SEP-2133, SEP-2663), in-process over the in-memory pair
 * with the runtime package and the protocol facts generated for each case:
 * - both sides advertise the extensions they were generated with (the server: those it handles), merged
 *   with — never replaced by — what the user passes;
 * - 2026-07-28: a handler sees the client capabilities of its own request only;
 * - a 2026-07-28 server with the tasks extension advertises no legacy `tasks`/`subscriptions` capability,
 *   and a legacy client that opens with `initialize` is told of no extension;
 * - 2025-06-18 and 2025-11-25 negotiate `extensions` in `initialize` too (the model adds the map).
 */
import { describe, expect, it } from 'vitest';
import {
  McpClientBase,
  McpServerBase,
  RpcPeer,
  createInMemoryPair,
  type AnyNotificationTable,
  type AnyRequestTable,
  type ServerProtocolDescription,
  type ServerTables,
} from '@mcp-typegen/runtime';
import type { ProtocolModel } from '../../src/model/types.js';
import { generated, type Version } from '../helpers/generate.js';
import { ACME } from './helpers.js';

const TASKS = 'io.modelcontextprotocol/tasks';
type Json = { [key: string]: unknown };

function describeProtocol(model: ProtocolModel): ServerProtocolDescription {
  return {
    version: model.version,
    protocolVersion: model.protocolVersion,
    features: model.features,
    facts: model.facts,
  };
}

/** The tables the generated server.ts would pass, without validators (validation is not the point here). */
function tablesOf(model: ProtocolModel): ServerTables {
  const received = (kind: string) =>
    model.methods.filter((m) => m.kind === kind && m.directions.includes('client->server')).map((m) => m.method);
  return {
    paramsValidators: {},
    resultValidators: {},
    results: {},
    requestMethods: received('request'),
    notificationMethods: received('notification'),
    extensionMethods: Object.fromEntries(
      model.methods.filter((m) => m.source !== 'mcp').map((m) => [m.method, m.source]),
    ),
  };
}

async function pair(
  version: Version,
  extensions: string[],
  handlers: Record<string, (params: Json, ctx: { session: { clientCapabilities?: Json } }) => unknown>,
  options: { server?: object; client?: object } = {},
) {
  const { model } = await generated(version, { extensions, artifacts: ['types'] });
  const protocol = describeProtocol(model);
  const server = new McpServerBase(protocol, tablesOf(model), handlers, {
    serverInfo: { name: 's', version: '1' },
    validateParams: false,
    ...(options.server ? { capabilities: options.server } : {}),
  });
  const [clientSide, serverSide] = createInMemoryPair();
  await server.connect(serverSide);
  const client = new McpClientBase<AnyRequestTable, AnyNotificationTable, AnyRequestTable, AnyNotificationTable>(
    clientSide,
    protocol,
    {
      clientInfo: { name: 'c', version: '1' },
      ...(options.client ? { capabilities: options.client } : {}),
    },
  );
  return { model, protocol, server, client, clientSide };
}

describe('2026-07-28 with the tasks extension and the acme example', () => {
  it('each side advertises its extensions merged with the options; no legacy tasks/subscriptions capability', async () => {
    const seen: (Json | undefined)[] = [];
    const { client, server } = await pair(
      '2026-07-28',
      [TASKS, ACME],
      {
        'tools/call': (_params, ctx) => {
          seen.push(ctx.session.clientCapabilities);
          return { content: [] };
        },
        'tasks/get': () => ({}),
        'subscriptions/listen': () => ({}),
      },
      {
        server: { tools: { listChanged: true }, extensions: { 'acme/jobs': { pipelines: ['nightly'] } } },
        client: { extensions: { 'acme/jobs': { maxConcurrentJobs: 2 } } },
      },
    );
    expect(server.capabilities).toEqual({
      tools: { listChanged: true },
      extensions: { [TASKS]: {}, 'acme/jobs': { pipelines: ['nightly'] } },
    });
    await client.connect();
    // What server/discover told the client: the same, and nothing the tasks extension replaces.
    expect(client.serverCapabilities).toEqual(server.capabilities);
    expect(client.serverCapabilities).not.toHaveProperty('tasks');
    expect(client.serverCapabilities).not.toHaveProperty('subscriptions');
    // The client was generated with both extensions: it advertises both, the user's settings merged in.
    expect(client.capabilities).toEqual({ extensions: { 'acme/jobs': { maxConcurrentJobs: 2 }, [TASKS]: {} } });
    await client.request('tools/call', { name: 'x' });
    expect(seen).toEqual([{ extensions: { 'acme/jobs': { maxConcurrentJobs: 2 }, [TASKS]: {} } }]);
    await client.close();
  });

  it('a handler sees the capabilities of its own request only, never those of an earlier one', async () => {
    const seen: (Json | undefined)[] = [];
    const { clientSide } = await pair('2026-07-28', [TASKS], {
      'tools/call': (_params, ctx) => {
        seen.push(ctx.session.clientCapabilities);
        return { content: [] };
      },
    });
    const raw = new RpcPeer(clientSide);
    await raw.start();
    const meta = (capabilities?: Json) => ({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      ...(capabilities ? { 'io.modelcontextprotocol/clientCapabilities': capabilities } : {}),
    });
    await raw.request('tools/call', { name: 'x', _meta: meta({ extensions: { [TASKS]: {} } }) });
    await raw.request('tools/call', { name: 'x', _meta: meta() });
    await raw.request('tools/call', { name: 'x', _meta: meta({}) });
    expect(seen).toEqual([{ extensions: { [TASKS]: {} } }, undefined, {}]);
    await raw.close();
  });

  it('a legacy client that opens with initialize is told of no extension and no tasks capability', async () => {
    const { clientSide } = await pair('2026-07-28', [TASKS], { 'tasks/get': () => ({}), 'tools/call': () => ({}) });
    const raw = new RpcPeer(clientSide);
    await raw.start();
    const result = (await raw.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'old', version: '1' },
    })) as Json;
    expect(result.capabilities).toEqual({ tools: {}, logging: {} });
    await raw.close();
  });
});

describe.each(['2025-06-18', '2025-11-25'] as const)('%s negotiates extension settings in initialize', (version) => {
  it('both sides send capabilities.extensions, typed by the model from the settings schema', async () => {
    const { client, server, model } = await pair(
      version,
      [ACME],
      { 'acme/jobs.status': () => ({}) },
      {
        server: { extensions: { 'acme/jobs': { pipelines: ['a'] } } },
        client: { extensions: { 'acme/jobs': { maxConcurrentJobs: 1 } } },
      },
    );
    await client.connect();
    // initialize is answered before connect() resolves: the session holds what the client sent.
    const sent = [...server.sessions][0]?.session.clientCapabilities;
    expect(client.negotiatedVersion).toBe(version);
    expect(client.serverCapabilities).toEqual({ extensions: { 'acme/jobs': { pipelines: ['a'] } } });
    expect(sent).toEqual({ extensions: { 'acme/jobs': { maxConcurrentJobs: 1 } } });
    // The schema has no extensions map in this version: the model adds it, with the settings typed.
    const caps = model.definitions.ClientCapabilities as { properties: Record<string, { properties?: object }> };
    expect(caps.properties.extensions!.properties).toEqual({
      'acme/jobs': { $ref: `#/${model.defsKeyword}/AcmeJobsSettings` },
    });
    await client.close();
  });
});
