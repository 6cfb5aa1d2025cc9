/**
 * Issue 44, item 1: the typed tools over the official SDKs. The weather snapshot's output is generated; its
 * `registerSdkTools` registers the tool on the SDK v2 `McpServer` (the prompt with the generated
 * `promptSchemas`), and `sdkTools(client)` calls it through the SDK's `Client`, v1 (`@modelcontextprotocol/sdk`)
 * and v2 (`@modelcontextprotocol/client`), in memory, over Streamable HTTP (the SDK v2's createMcpHandler on
 * 127.0.0.1) and over stdio (a child process serving the same registration). Arguments are checked before sending, a structured result after; a handler's structured result
 * that breaks the outputSchema is never sent. Type tests (sdk-tools/type-tests/sdk-tools.ts).
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import {
  Client as ClientV2,
  InMemoryTransport,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { cpSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir, type RunResult } from '../helpers/generate.js';
import { tscProjects } from '../helpers/tsc-build.js';
import { replaceDeclaration, taggedDirectives, unusedDirectives } from '../helpers/type-tests.js';
import { buildWithTools, type ToolsBuild } from '../snapshot/tools-build.js';

const WEATHER = join(ROOT, 'test', 'fixtures', 'snapshots', 'weather.snapshot.json');
const TYPE_TESTS = join(ROOT, 'test', 'interop', 'sdk-tools', 'type-tests');

type Json = Record<string, any>;
let build: ToolsBuild;
let schemas: Json;
let tools: Json;
const received: Json[] = [];

/** An SDK v2 McpServer with the snapshot's tool and prompt registered from the generated module. */
function weatherServer(): McpServer {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  schemas.registerSdkTools(server, {
    forecast: (args: Json) => {
      received.push(args);
      // A result that breaks the outputSchema, for the check before sending.
      const temperature = args.city === 'Nowhere' ? 'warm' : 21;
      const structuredContent = { temperature, conditions: `sunny in ${args.city}` };
      return { content: [{ type: 'text' as const, text: JSON.stringify(structuredContent) }], structuredContent };
    },
  });
  server.registerPrompt('trip-advice', { argsSchema: schemas.promptSchemas['trip-advice'] }, (args: Json) => ({
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `Plan a trip to ${args.city}` } }],
  }));
  return server;
}

let http: HttpServer;
let url: URL;
let stdioServer: string;

/** A child's SDK v2 server over stdio, registered from the generated module beside it. */
const STDIO_SERVER = `import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { promptSchemas, registerSdkTools } from './tool-schemas.js';
const server = new McpServer({ name: 'weather', version: '1.0.0' });
registerSdkTools(server, {
  forecast: ({ city }) => {
    const structuredContent = { temperature: city === 'Nowhere' ? 'warm' : 21, conditions: 'sunny in ' + city };
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  },
});
server.registerPrompt('trip-advice', { argsSchema: promptSchemas['trip-advice'] }, ({ city }) => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'Plan a trip to ' + city } }],
}));
await server.connect(new StdioServerTransport());
`;

beforeAll(async () => {
  build = await buildWithTools('sdk-tools', { tools: WEATHER });
  [schemas, tools] = await Promise.all([build.load('tool-schemas.js'), build.load('sdk-tools.js')]);
  stdioServer = join(build.dir, 'js', 'generated', 'stdio-server.mjs');
  writeFileSync(stdioServer, STDIO_SERVER);
  const handler = createMcpHandler(weatherServer);
  http = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const response = await handler.fetch(
      new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, ...(body ? { body } : {}) }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
    res.end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
});

afterAll(async () => {
  await new Promise((resolve) => http?.close(resolve));
});

interface Connected {
  client: { callTool(params: Json): Promise<unknown>; close(): Promise<void> };
  close(): Promise<void>;
}

const connections: Record<string, () => Promise<Connected>> = {
  'v1 in memory': async () => {
    const server = weatherServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV1({ name: 'v1', version: '1.0.0' });
    await client.connect(clientSide as never);
    return { client, close: async () => (await client.close(), await server.close()) };
  },
  'v2 in memory': async () => {
    const server = weatherServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV2({ name: 'v2', version: '1.0.0' });
    await client.connect(clientSide);
    return { client, close: async () => (await client.close(), await server.close()) };
  },
  'v1 over Streamable HTTP': async () => {
    const client = new ClientV1({ name: 'v1', version: '1.0.0' });
    await client.connect(new HttpV1(url));
    return { client, close: () => client.close() };
  },
  'v1 over stdio': async () => {
    const client = new ClientV1({ name: 'v1', version: '1.0.0' });
    await client.connect(new StdioV1({ command: process.execPath, args: [stdioServer] }));
    return { client, close: () => client.close() };
  },
  'v2 over stdio': async () => {
    const client = new ClientV2({ name: 'v2', version: '1.0.0' });
    await client.connect(new StdioV2({ command: process.execPath, args: [stdioServer] }));
    return { client, close: () => client.close() };
  },
  'v2 over Streamable HTTP': async () => {
    const client = new ClientV2({ name: 'v2', version: '1.0.0' });
    await client.connect(new HttpV2(url));
    return { client, close: () => client.close() };
  },
};

describe.each(Object.keys(connections))('sdkTools over the SDK Client, %s, against registerSdkTools', (how) => {
  let connected: Connected;
  let typed: Json;
  beforeAll(async () => {
    connected = await connections[how]!();
    typed = tools.sdkTools(connected.client);
  });
  afterAll(() => connected?.close());

  it('a call reaches the handler with the checked arguments; the structured result is checked and returned', async () => {
    const result = await typed.tool.forecast({ city: 'Porto', unit: 'celsius' });
    // The child process's handler records nothing here.
    if (!how.includes('stdio')) expect(received.at(-1)).toEqual({ city: 'Porto', unit: 'celsius' });
    expect(result.structuredContent).toEqual({ temperature: 21, conditions: 'sunny in Porto' });
    expect(result.isError).toBeFalsy();
  });

  it('bad arguments are refused before sending: -32602, every problem named', async () => {
    const before = received.length;
    const error = await typed.tool.forecast({ city: 3, unit: 'kelvin' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32602 });
    expect((error as Error).message).toMatch(/tool forecast: invalid arguments, \/city must be string \(not sent\)/);
    expect(received).toHaveLength(before);
  });

  it('a prompt, its arguments checked before sending', async () => {
    const prompt = await typed.prompt['trip-advice']({ city: 'Lisbon' });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Plan a trip to Lisbon' } }]);
    await expect(typed.prompt['trip-advice']({})).rejects.toMatchObject({ code: -32602 });
  });

  it("a handler's structuredContent that breaks the outputSchema is not sent: the caller gets a tool error", async () => {
    const result = await typed.tool.forecast({ city: 'Nowhere' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.stringify(result.content)).toContain(
      'tool forecast: structuredContent /temperature must be number (not sent)',
    );
  });
});

describe('registerSdkTools', () => {
  it('every tool needs its handler', () => {
    const server = new McpServer({ name: 'weather', version: '1.0.0' });
    expect(() => schemas.registerSdkTools(server, {})).toThrow('registerSdkTools: no handler for tool forecast');
    expect(() => schemas.registerSdkTools(server, Object.create({ forecast: () => ({}) }))).toThrow(/no handler/);
  });

  it('lists the tool as the snapshot has it', async () => {
    const server = weatherServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV2({ name: 'v2', version: '1.0.0' });
    await client.connect(clientSide);
    const { tools: listed } = await client.listTools();
    expect(listed).toMatchObject([
      {
        name: 'forecast',
        description: "Tomorrow's weather in a city",
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        outputSchema: { type: 'object', required: ['temperature', 'conditions'] },
      },
    ]);
    await client.close();
    await server.close();
  });
});

describe('types', () => {
  let results: Promise<readonly [RunResult, RunResult]>;
  beforeAll(() => {
    const strict = tempDir('sdk-tools-types');
    const loose = tempDir('sdk-tools-types-loose');
    for (const dir of [strict, loose]) {
      cpSync(join(build.dir, 'generated'), join(dir, 'generated'), { recursive: true });
      cpSync(TYPE_TESTS, dir, { recursive: true });
    }
    for (const name of ['ForecastArguments', 'ForecastStructuredContent', 'TripAdvicePromptArguments'])
      replaceDeclaration(join(loose, 'generated', 'tool-types.ts'), name, `export type ${name} = any;`);
    replaceDeclaration(
      join(loose, 'generated', 'tool-schemas.d.ts'),
      'SdkToolHandlers',
      'export type SdkToolHandlers<Ctx = unknown> = any;',
    );
    replaceDeclaration(join(loose, 'generated', 'sdk-tools.ts'), 'SdkToolCalls', 'export type SdkToolCalls = any;');
    results = tscProjects([
      [strict, { skipLibCheck: true }],
      [loose, { skipLibCheck: true }],
    ] as const);
  });

  it('compiles; every expected error happens', { timeout: 120_000 }, async () => {
    const [strict] = await results;
    expect(`${strict.stdout}${strict.stderr}`).toBe('');
    expect(strict.code).toBe(0);
    expect([...taggedDirectives(TYPE_TESTS).values()].sort()).toEqual(
      [
        'drift-name',
        'missing-handler',
        'wrong-args',
        'wrong-handler-args',
        'wrong-prompt',
        'wrong-result',
        'wrong-structured',
      ].sort(),
    );
  });

  it(
    'with the types loosened to any, every directive is unused: none passes by accident',
    { timeout: 120_000 },
    async () => {
      const [, loose] = await results;
      const lines = `${loose.stdout}${loose.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l));
      expect(unusedDirectives(lines).sort()).toEqual([...taggedDirectives(TYPE_TESTS).keys()].sort());
    },
  );
});
