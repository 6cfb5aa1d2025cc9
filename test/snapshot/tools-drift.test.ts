/**
 * Issue 44, item 5: drift. The weather snapshot's typed client (`createToolsClient`) and SDK facade
 * (`sdkTools`) against a real server whose tools move away from the snapshot (the official SDK v2 `McpServer`,
 * over its in-memory transport): `drift.check()` reports added, removed and changed tools on demand, and
 * `drift.on(listener)` on every `notifications/tools/list_changed` the server sends when a tool is registered
 * or removed — never silently.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer, fromJsonSchema, type RegisteredTool } from '@modelcontextprotocol/server';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/generate.js';
import { buildWithTools } from './tools-build.js';

type Json = Record<string, any>;
const WEATHER = join(ROOT, 'test', 'fixtures', 'snapshots', 'weather.snapshot.json');
const listed = JSON.parse(readFileSync(WEATHER, 'utf8')).tools.forecast as Json;

let gen: Json;
let server: McpServer;
let forecast: RegisteredTool;
let client: Json;
let sdk: Client;

/** The snapshot's tool as the server lists it, with this description. */
function registerForecast(description: string): RegisteredTool {
  const config = {
    description,
    inputSchema: fromJsonSchema(listed.inputSchema),
    outputSchema: fromJsonSchema(listed.outputSchema),
  };
  return server.registerTool('forecast', config, () => ({
    content: [],
    structuredContent: { temperature: 1, conditions: 'ok' },
  }));
}

beforeAll(async () => {
  gen = await (await buildWithTools('tools-drift', { tools: WEATHER })).load('index.js');
  server = new McpServer({ name: 'weather', version: '1.1.0' });
  forecast = registerForecast(listed.description);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = gen.createToolsClient(clientSide, { clientInfo: { name: 'drift', version: '1.0.0' } });
  await client.connect();
});

afterAll(async () => {
  await client?.close();
  await sdk?.close();
  await server?.close();
});

/** The next drift a listener is given. */
const nextDrift = (): Promise<Json> =>
  new Promise((resolve) => {
    const stop = client.drift.on((drift: Json, error?: unknown) => {
      stop();
      resolve(error === undefined ? drift : { error });
    });
  });

describe('the typed client', () => {
  it('no drift while the server lists what the snapshot has', async () => {
    expect(await client.drift.check()).toEqual({ added: [], removed: [], changed: [] });
  });

  it('a tool registered: the listener is told it was added', async () => {
    const drift = nextDrift();
    server.registerTool('alerts', { description: 'Weather alerts' }, () => ({ content: [] }));
    expect(await drift).toEqual({ added: ['alerts'], removed: [], changed: [] });
  });

  it('a tool changed and one removed: both named, with the members that changed', async () => {
    let drift = nextDrift();
    forecast.remove();
    expect(await drift).toEqual({ added: ['alerts'], removed: ['forecast'], changed: [] });
    drift = nextDrift();
    forecast = registerForecast('Weather tomorrow');
    expect(await drift).toEqual({
      added: ['alerts'],
      removed: [],
      changed: [{ name: 'forecast', members: ['description'] }],
    });
  });
});

describe('the SDK facade', () => {
  it("drift.check() over the SDK Client's tools/list", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const other = new McpServer({ name: 'weather', version: '1.0.0' });
    other.registerTool('alerts', { description: 'Weather alerts' }, () => ({ content: [] }));
    await other.connect(serverSide);
    sdk = new Client({ name: 'sdk', version: '1.0.0' });
    await sdk.connect(clientSide);
    expect(await gen.sdkTools(sdk).drift.check()).toEqual({ added: ['alerts'], removed: ['forecast'], changed: [] });
  });
});
