/**
 * The snapshot client against servers of every spec version, in-process over the in-memory pair: servers
 * built on the runtime's McpServerBase with each version's protocol facts (as generated code passes them).
 * It negotiates the server's version (initialize for 2024-11-05 … 2025-11-25, server/discover for
 * 2026-07-28), follows `nextCursor` through every page, reads only the lists the server offers, and
 * refuses a list naming one entry twice.
 */
import { describe, expect, it } from 'vitest';
import {
  McpServerBase,
  createInMemoryPair,
  type ServerProtocolDescription,
  type ServerTables,
} from '../../templates/index.js';
import { captureOver } from '../../src/snapshot/capture.js';
import { clientProtocol } from '../../src/snapshot/protocol.js';
import { parseSnapshot, renderSnapshot } from '../../src/load/snapshot-file.js';
import type { ProtocolModel } from '../../src/model/types.js';
import { generated, SCHEMA_DIR, VERSIONS, type Version } from '../helpers/generate.js';

type Json = { [key: string]: unknown };
type Handler = (params: Json) => unknown;

const protocolOf = (model: ProtocolModel): ServerProtocolDescription => ({
  version: model.version,
  protocolVersion: model.protocolVersion,
  features: model.features,
  facts: model.facts as ServerProtocolDescription['facts'],
});

function tablesOf(model: ProtocolModel): ServerTables {
  const received = (kind: string) =>
    model.methods.filter((m) => m.kind === kind && m.directions.includes('client->server')).map((m) => m.method);
  return {
    paramsValidators: {},
    resultValidators: {},
    results: {},
    requestMethods: received('request'),
    notificationMethods: received('notification'),
    extensionMethods: {},
  };
}

/** tools/list in pages of one, by cursor: the client must follow every `nextCursor`. */
const TOOLS = ['b-tool', 'a-tool', 'c-tool'].map((name) => ({ name, inputSchema: { type: 'object' } }));
const pagedTools: Handler = (params) => {
  const at = typeof params.cursor === 'string' ? Number(params.cursor) : 0;
  return { tools: [TOOLS[at]], ...(at + 1 < TOOLS.length ? { nextCursor: String(at + 1) } : {}) };
};

async function capture(version: Version, handlers: Record<string, Handler>, capabilities: Json) {
  const { model } = await generated(version, { artifacts: ['types'] });
  const server = new McpServerBase(protocolOf(model), tablesOf(model), handlers, {
    serverInfo: { name: 'paged', version: '1.2.3' },
    capabilities,
    validateParams: false,
  });
  const [clientSide, serverSide] = createInMemoryPair();
  await server.connect(serverSide);
  const protocol = await clientProtocol({ schemaDir: SCHEMA_DIR, offline: true });
  return captureOver(clientSide, 'in-memory', protocol, '0.0.0');
}

describe('snapshot client', () => {
  it.each(VERSIONS)('negotiates %s and pages through tools/list', async (version) => {
    const snapshot = await capture(version, { 'tools/list': pagedTools }, { tools: {} });
    expect(snapshot.protocolVersion).toBe(version);
    expect(snapshot.server).toMatchObject({ name: 'paged', version: '1.2.3' });
    expect(Object.keys(snapshot.tools)).toEqual(['b-tool', 'a-tool', 'c-tool']);
    // Sorted when written, whatever the server's order.
    expect(Object.keys((JSON.parse(renderSnapshot(snapshot)) as { tools: Json }).tools)).toEqual([
      'a-tool',
      'b-tool',
      'c-tool',
    ]);
    expect(snapshot).not.toHaveProperty('prompts');
  });

  it('reads prompts, resources and templates only where offered; a list naming one entry twice is refused', async () => {
    const snapshot = await capture(
      '2025-11-25',
      {
        'tools/list': () => ({ tools: [] }),
        'resources/list': () => ({ resources: [{ uri: 'x://1', name: 'one' }] }),
        'resources/templates/list': () => ({ resourceTemplates: [{ uriTemplate: 'x://{id}', name: 'any' }] }),
      },
      { tools: {}, resources: {} },
    );
    expect(snapshot.resources).toEqual({ 'x://1': { uri: 'x://1', name: 'one' } });
    expect(Object.keys(snapshot.resourceTemplates ?? {})).toEqual(['x://{id}']);
    expect(snapshot).not.toHaveProperty('prompts');

    const twice = capture('2025-11-25', { 'tools/list': () => ({ tools: [TOOLS[0], TOOLS[0]] }) }, { tools: {} });
    await expect(twice).rejects.toThrow('in-memory (tools/list)#/tools/1: tools lists "b-tool" twice');
  });

  it('an optional list the server answers with -32601 is recorded as absent (resources offered for templates only)', async () => {
    const snapshot = await capture(
      '2025-11-25',
      {
        'tools/list': () => ({ tools: [] }),
        'resources/templates/list': () => ({ resourceTemplates: [{ uriTemplate: 'x://{id}', name: 'any' }] }),
      },
      { tools: {}, resources: {} },
    );
    expect(snapshot).not.toHaveProperty('resources');
    expect(Object.keys(snapshot.resourceTemplates ?? {})).toEqual(['x://{id}']);
    // tools/list is no optional list: the format requires it.
    const noTools = capture('2025-11-25', {}, { tools: {} });
    await expect(noTools).rejects.toThrow(/tools\/list failed/);
  });

  it('every name the spec allows survives: __proto__, constructor, leading digits, written and read back', async () => {
    const names = ['__proto__', 'constructor', 'toString', '1st-tool'];
    // Parsed, as a server's frame is: JSON.parse makes `__proto__` an own property (an object literal would not).
    const tool = (name: string) =>
      `{"name":"${name}","inputSchema":{"type":"object","properties":{"__proto__":{"type":"string"}}}}`;
    const listed = JSON.parse(`{"tools":[${names.map(tool).join(',')}]}`) as Json;
    const snapshot = await capture('2025-11-25', { 'tools/list': () => listed }, { tools: {} });
    expect(Object.keys(snapshot.tools).sort()).toEqual([...names].sort());
    const text = renderSnapshot(snapshot);
    const back = parseSnapshot(text, 'back.json');
    expect(Object.keys(back.tools).sort()).toEqual([...names].sort());
    expect(Object.hasOwn(back.tools, '__proto__')).toBe(true);
    const properties = (back.tools['__proto__']?.inputSchema as { properties: object }).properties;
    expect(Object.keys(properties)).toEqual(['__proto__']);
    expect(renderSnapshot(back)).toBe(text);
  });
});
