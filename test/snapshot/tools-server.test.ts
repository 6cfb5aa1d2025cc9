/**
 * `toolsServer()` generated from the server-everything snapshot, implemented by this test's handlers and
 * plugged into the generated server, against a real client: the official SDK v1 `Client` over the SDK's
 * in-memory transport. The lists are the snapshot's; a call reaches its typed handler with checked
 * arguments; invalid arguments are a tool error (`isError`, the pointer in the text); an unknown tool or
 * prompt is -32602.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWithTools, EVERYTHING_SNAPSHOT } from './tools-build.js';

type Json = Record<string, any>;
const snapshot = JSON.parse(readFileSync(EVERYTHING_SNAPSHOT, 'utf8')) as Json;
const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

describe('SDK Client ↔ generated server with toolsServer (server-everything surface)', () => {
  let client: Client;
  let server: any;
  const seen: Json[] = [];

  beforeAll(async () => {
    const gen = await (await buildWithTools('tools-server', { artifacts: ['server'] })).load('index.js');
    const tools: Json = Object.fromEntries(Object.keys(snapshot.tools).map((name) => [name, () => text(name)]));
    tools.echo = (args: Json) => (seen.push(args), text(`Echo: ${args.message}`));
    tools['get-sum'] = ({ a, b }: Json) => text(String(a + b));
    tools['get-structured-content'] = async ({ location }: Json) => ({
      ...text('weather'),
      // A result that breaks the outputSchema for one location, for the check before sending.
      structuredContent: { temperature: location === 'Los Angeles' ? 'warm' : 21, conditions: 'sunny', humidity: 40 },
    });
    const prompts: Json = Object.fromEntries(
      Object.keys(snapshot.prompts).map((name) => [
        name,
        (args: Json) => ({ messages: [], description: JSON.stringify(args) }),
      ]),
    );
    server = gen.createServer(
      { ...gen.toolsServer({ tools, prompts }), 'resources/read': () => ({ contents: [] }) },
      { serverInfo: { name: 'typed-everything', version: '0.0.0' } },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'sdk', version: '1.0.0' });
    await client.connect(clientSide);
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it('tools/list, prompts/list and resources/templates/list answer the snapshot', async () => {
    const { tools } = await client.listTools();
    expect(tools).toEqual(Object.values(snapshot.tools));
    expect((await client.listPrompts()).prompts).toEqual(Object.values(snapshot.prompts));
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual(Object.values(snapshot.resourceTemplates));
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {} });
  });

  it('a call reaches its handler with the checked arguments; structuredContent passes the SDK check', async () => {
    expect(await client.callTool({ name: 'echo', arguments: { message: 'hi' } })).toEqual(text('Echo: hi'));
    expect(seen).toEqual([{ message: 'hi' }]);
    expect((await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } })).content).toEqual(
      text('42').content,
    );
    const structured = await client.callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } });
    expect(structured.structuredContent).toEqual({ temperature: 21, conditions: 'sunny', humidity: 40 });
  });

  it('invalid arguments: a tool execution error (isError) with the JSON pointer; the handler never runs', async () => {
    const before = seen.length;
    const wrongType = await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 'two' } });
    expect(wrongType).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool get-sum: /b must be number' }],
      isError: true,
    });
    const missing = await client.callTool({ name: 'echo', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain("/message must have required property 'message'");
    expect(seen.length).toBe(before);
  });

  it('an unknown tool or prompt: JSON-RPC error -32602', async () => {
    const tool = client.callTool({ name: 'nope', arguments: {} });
    await expect(tool).rejects.toBeInstanceOf(McpError);
    await expect(tool).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: nope') });
    await expect(client.getPrompt({ name: 'nope' })).rejects.toMatchObject({ code: -32602 });
  });

  it('prompts/get: checked arguments reach the handler; a missing required one is -32602 with its pointer', async () => {
    const got = await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Lisbon' } });
    expect(got.description).toBe('{"city":"Lisbon"}');
    await expect(client.getPrompt({ name: 'args-prompt', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('/city must have required property'),
    });
  });

  it("a handler's structuredContent that breaks the outputSchema is never sent: a tool error names the problem", async () => {
    const result = await client.callTool({ name: 'get-structured-content', arguments: { location: 'Los Angeles' } });
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: 'tool get-structured-content: structuredContent /temperature must be number (not sent)',
        },
      ],
      isError: true,
    });
  });
});
