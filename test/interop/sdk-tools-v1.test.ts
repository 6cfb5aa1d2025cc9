/**
 * Issue 44, item 1, on SDK v1: the weather snapshot's output with the `sdk-v1` artifact gives tool-schemas-v1.js,
 * whose `registerSdkToolsV1` registers the tool on the SDK v1 `McpServer` (`@modelcontextprotocol/sdk` 1.32)
 * with zod objects that run the generated validators. Reached by the SDK v1 and v2 `Client`s — in memory, over
 * Streamable HTTP (SDK v1's own server transport on 127.0.0.1) and over stdio (a child process serving the same
 * registration) — through `sdkTools(client)` and through the SDK's own `callTool`, which sends bad arguments the
 * facade would refuse: the server then answers with a tool error naming every path. The tool is listed with the
 * snapshot's JSON Schema. Type tests: sdk-tools-v1/type-tests/sdk-tools-v1.ts (a missing handler does not
 * compile).
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir, type RunResult } from '../helpers/generate.js';
import { tscProjects } from '../helpers/tsc-build.js';
import { replaceDeclaration, taggedDirectives, unusedDirectives } from '../helpers/type-tests.js';
import { buildWithTools, type ToolsBuild } from '../snapshot/tools-build.js';

const WEATHER = join(ROOT, 'test', 'fixtures', 'snapshots', 'weather.snapshot.json');
const TYPE_TESTS = join(ROOT, 'test', 'interop', 'sdk-tools-v1', 'type-tests');
const SNAPSHOT = JSON.parse(readFileSync(WEATHER, 'utf8'));
const LISTED = SNAPSHOT.tools.forecast;

type Json = Record<string, any>;
let build: ToolsBuild;
let v1: Json;
let tools: Json;
const received: Json[] = [];

/** The forecast handler: a city named Nowhere gets a structured result that breaks the outputSchema. */
const forecast = (args: Json) => {
  received.push(args);
  const structuredContent = { temperature: args.city === 'Nowhere' ? 'warm' : 21, conditions: `sunny in ${args.city}` };
  return { content: [{ type: 'text' as const, text: JSON.stringify(structuredContent) }], structuredContent };
};

/** An SDK v1 McpServer with the snapshot's tool registered from the generated module, and its prompt. */
function weatherServer(): McpServer {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  v1.registerSdkToolsV1(server, { forecast });
  server.registerPrompt('trip-advice', { argsSchema: v1.promptSchemasV1['trip-advice'] }, ({ city }: Json) => ({
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `Plan a trip to ${city}` } }],
  }));
  return server;
}

/** The same registration in a child process over stdio (SDK v1's StdioServerTransport). */
const STDIO_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { promptSchemasV1, registerSdkToolsV1 } from './tool-schemas-v1.js';
const server = new McpServer({ name: 'weather', version: '1.0.0' });
registerSdkToolsV1(server, {
  forecast: ({ city }) => {
    const structuredContent = { temperature: city === 'Nowhere' ? 'warm' : 21, conditions: 'sunny in ' + city };
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  },
});
server.registerPrompt('trip-advice', { argsSchema: promptSchemasV1['trip-advice'] }, ({ city }) => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'Plan a trip to ' + city } }],
}));
await server.connect(new StdioServerTransport());
`;

let http: HttpServer;
let url: URL;
let stdioServer: string;

beforeAll(async () => {
  build = await buildWithTools('sdk-tools-v1', { tools: WEATHER, artifacts: ['client', 'server', 'sdk-v1'] });
  [v1, tools] = await Promise.all([build.load('tool-schemas-v1.js'), build.load('sdk-tools.js')]);
  stdioServer = join(build.dir, 'js', 'generated', 'stdio-server-v1.mjs');
  writeFileSync(stdioServer, STDIO_SERVER);
  // Stateless Streamable HTTP: a server and a transport per request, as SDK v1's examples do.
  http = createServer(async (req, res) => {
    const server = weatherServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
});

afterAll(async () => {
  await new Promise((resolve) => http?.close(resolve));
});

interface Connected {
  client: {
    callTool(params: Json): Promise<Json>;
    listTools(): Promise<Json>;
    listPrompts(): Promise<Json>;
    getPrompt(params: Json): Promise<Json>;
    close(): Promise<void>;
  };
  close(): Promise<void>;
}

const connections: Record<string, () => Promise<Connected>> = {
  'v1 in memory': async () => {
    const server = weatherServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV1({ name: 'v1', version: '1.0.0' });
    await client.connect(clientSide);
    return { client: client as never, close: async () => (await client.close(), await server.close()) };
  },
  'v2 in memory': async () => {
    const server = weatherServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new ClientV2({ name: 'v2', version: '1.0.0' });
    await client.connect(clientSide as never);
    return { client: client as never, close: async () => (await client.close(), await server.close()) };
  },
  'v1 over Streamable HTTP': async () => {
    const client = new ClientV1({ name: 'v1', version: '1.0.0' });
    await client.connect(new HttpV1(url));
    return { client: client as never, close: () => client.close() };
  },
  'v2 over Streamable HTTP': async () => {
    const client = new ClientV2({ name: 'v2', version: '1.0.0' });
    await client.connect(new HttpV2(url));
    return { client: client as never, close: () => client.close() };
  },
  'v1 over stdio': async () => {
    const client = new ClientV1({ name: 'v1', version: '1.0.0' });
    await client.connect(new StdioV1({ command: process.execPath, args: [stdioServer] }));
    return { client: client as never, close: () => client.close() };
  },
  'v2 over stdio': async () => {
    const client = new ClientV2({ name: 'v2', version: '1.0.0' });
    await client.connect(new StdioV2({ command: process.execPath, args: [stdioServer] }));
    return { client: client as never, close: () => client.close() };
  },
};

describe.each(Object.keys(connections))('registerSdkToolsV1 on the SDK v1 McpServer, %s', (how) => {
  let connected: Connected;
  let typed: Json;
  // The in-process servers record what their handler got; the HTTP and stdio ones are checked by their answers.
  const local = how.includes('in memory');
  beforeAll(async () => {
    connected = await connections[how]!();
    typed = tools.sdkTools(connected.client);
  });
  afterAll(() => connected?.close());

  it('lists the tool with the snapshot’s schemas, title and description', async () => {
    const { tools: listed } = await connected.client.listTools();
    // Over the wire as JSON (the in-memory pair hands objects over as they are).
    expect(JSON.parse(JSON.stringify(listed))).toEqual([
      {
        name: 'forecast',
        description: LISTED.description,
        inputSchema: LISTED.inputSchema,
        outputSchema: LISTED.outputSchema,
        execution: { taskSupport: 'forbidden' },
      },
    ]);
  });

  it('a call through sdkTools reaches the handler with the checked arguments; its structured result is typed', async () => {
    const result = await typed.tool.forecast({ city: 'Porto', unit: 'celsius' });
    if (local) expect(received.at(-1)).toEqual({ city: 'Porto', unit: 'celsius' });
    expect(result.structuredContent).toEqual({ temperature: 21, conditions: 'sunny in Porto' });
    expect(result.isError).toBeFalsy();
  });

  it('bad arguments sent past the facade: the server refuses them with every problem at its path', async () => {
    const before = received.length;
    const result = await connected.client.callTool({ name: 'forecast', arguments: { city: 3, unit: 'kelvin' } });
    expect(result.isError).toBe(true);
    const text = String(result.content[0].text);
    expect(text).toContain('Invalid arguments for tool forecast');
    expect(text).toMatch(/must be string at city/);
    expect(text).toMatch(/must be equal to one of the allowed values at unit/);
    expect(received).toHaveLength(before);
  });

  it('a missing required argument is refused by the generated validator', async () => {
    const result = await connected.client.callTool({ name: 'forecast', arguments: {} });
    expect(result.isError).toBe(true);
    expect(String(result.content[0].text)).toMatch(/must have required property 'city'/);
  });

  it('a prompt registered with promptSchemasV1: listed with the snapshot’s arguments, called through sdkTools', async () => {
    const { prompts } = await connected.client.listPrompts();
    expect(prompts).toEqual([{ name: 'trip-advice', arguments: SNAPSHOT.prompts['trip-advice'].arguments }]);
    const prompt = await typed.prompt['trip-advice']({ city: 'Lisbon' });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Plan a trip to Lisbon' } }]);
  });

  it("a handler's structuredContent that breaks the outputSchema is not sent: the caller gets a tool error", async () => {
    const result = await typed.tool.forecast({ city: 'Nowhere' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(String(result.content[0].text)).toMatch(
      /Invalid structured content for tool forecast: must be number at temperature/,
    );
  });
});

describe('registerSdkToolsV1', () => {
  it('every tool needs its handler, an own one', () => {
    const server = new McpServer({ name: 'weather', version: '1.0.0' });
    expect(() => v1.registerSdkToolsV1(server, {})).toThrow('registerSdkToolsV1: no handler for tool forecast');
    expect(() => v1.registerSdkToolsV1(server, Object.create({ forecast }))).toThrow(/no handler/);
  });

  it('the zod objects run the generated validators: every issue, each at its path', () => {
    const parsed = v1.toolSchemasV1.forecast.inputSchema.safeParse({ city: 3, unit: 'kelvin', extra: true });
    expect(parsed.success).toBe(false);
    expect(parsed.error.issues.map((i: Json) => [i.path, i.message])).toEqual([
      [['city'], 'must be string'],
      [['unit'], 'must be equal to one of the allowed values'],
    ]);
    expect(v1.toolSchemasV1.forecast.outputSchema.safeParse({ temperature: 1, conditions: 'c' })).toMatchObject({
      success: true,
      data: { temperature: 1, conditions: 'c' },
    });
  });
});

describe('types', () => {
  let results: Promise<readonly [RunResult, RunResult]>;
  beforeAll(() => {
    const strict = tempDir('sdk-tools-v1-types');
    const loose = tempDir('sdk-tools-v1-types-loose');
    for (const dir of [strict, loose]) {
      cpSync(join(build.dir, 'generated'), join(dir, 'generated'), { recursive: true });
      cpSync(TYPE_TESTS, dir, { recursive: true });
    }
    replaceDeclaration(
      join(loose, 'generated', 'tool-schemas-v1.d.ts'),
      'PromptSchemasV1',
      'export type PromptSchemasV1 = any;',
    );
    for (const name of ['ForecastArguments', 'ForecastStructuredContent'])
      replaceDeclaration(join(loose, 'generated', 'tool-types.ts'), name, `export type ${name} = any;`);
    replaceDeclaration(
      join(loose, 'generated', 'tool-schemas.d.ts'),
      'SdkToolHandlers',
      'export type SdkToolHandlers<Ctx = unknown> = any;',
    );
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
      ['missing-handler', 'wrong-handler-args', 'wrong-prompt-argument', 'wrong-result', 'wrong-schema-type'].sort(),
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
