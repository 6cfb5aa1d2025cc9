/**
 * The typed client generated from the committed snapshot of @modelcontextprotocol/server-everything
 * (fixtures/everything.snapshot.json, as `mcp-typegen snapshot` wrote it) against the real server over stdio:
 * every tool it lists to a client without capabilities is called through `client.tool[name]`, each
 * result checked by the generated validators (structuredContent against its outputSchema), except one that
 * requires task augmentation (its `execution.taskSupport`), which a plain call cannot run; a bad argument is
 * refused before anything is sent; every prompt is got through `client.prompt[name]`.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING_BIN } from '../client/helpers/build.js';
import { buildWithTools, EVERYTHING_SNAPSHOT } from './tools-build.js';

type Gen = any;
const snapshot = JSON.parse(readFileSync(EVERYTHING_SNAPSHOT, 'utf8')) as {
  tools: Record<string, { execution?: { taskSupport?: string } }>;
  prompts: Record<string, unknown>;
};
/** Tools only a task-augmented call runs (2025-11-25 tasks): not called plainly. */
const TASK_ONLY = Object.keys(snapshot.tools).filter((n) => snapshot.tools[n]?.execution?.taskSupport === 'required');

/** Arguments for each tool: its required ones, and what keeps a call short and off the network. */
const ARGUMENTS: Record<string, Record<string, unknown>> = {
  echo: { message: 'typed ✓' },
  'get-annotated-message': { messageType: 'success', includeImage: false },
  'get-env': {},
  'get-resource-links': { count: 2 },
  'get-resource-reference': { resourceId: 3, resourceType: 'Text' },
  'get-structured-content': { location: 'Chicago' },
  'get-sum': { a: 2, b: 40 },
  'get-tiny-image': {},
  'gzip-file-as-resource': { data: 'data:text/plain;base64,aGVsbG8=', name: 'hello.txt', outputType: 'resource' },
  'toggle-simulated-logging': {},
  'toggle-subscriber-updates': {},
  'trigger-long-running-operation': { duration: 0.2, steps: 2 },
};

const PROMPT_ARGUMENTS: Record<string, Record<string, string>> = {
  'args-prompt': { city: 'Lisbon' },
  'completable-prompt': { department: 'Engineering', name: 'Alice' },
  'resource-prompt': { resourceType: 'Text', resourceId: '1' },
  'simple-prompt': {},
};

describe('generated typed client ↔ server-everything (stdio)', () => {
  let gen: Gen;
  let client: any;

  beforeAll(async () => {
    gen = await (await buildWithTools('tools-everything')).load('index.js');
    const transport = new gen.StdioClientTransport({
      command: process.execPath,
      args: [EVERYTHING_BIN, 'stdio'],
      stderr: 'ignore',
    });
    client = gen.createToolsClient(transport, { clientInfo: { name: 'typed-tools-test', version: '0.0.0' } });
    await client.connect();
  });

  afterAll(async () => {
    await client?.close();
  });

  it('the fixture lists every tool this test calls (and the task-only ones), the server exactly those', async () => {
    expect(TASK_ONLY).toEqual(['simulate-research-query']);
    expect([...Object.keys(ARGUMENTS), ...TASK_ONLY].sort()).toEqual(Object.keys(snapshot.tools).sort());
    const { tools } = await client.tools.list();
    expect(tools.map((t: { name: string }) => t.name).sort()).toEqual(Object.keys(snapshot.tools).sort());
  });

  it.each(Object.keys(ARGUMENTS))('tool %s: a result, checked against the generated validators', async (name) => {
    const result = await client.tool[name](ARGUMENTS[name]);
    expect(result.isError ?? false, JSON.stringify(result).slice(0, 300)).toBe(false);
    expect(Array.isArray(result.content)).toBe(true);
  });

  it('a task-only tool called plainly: the server answers with an error result, typed like any other', async () => {
    const result = await client.tool['simulate-research-query']({ topic: 'typed tools' });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/requires task augmentation/);
  });

  it('echo and get-sum answer with what was asked', async () => {
    expect((await client.tool.echo({ message: 'hi' })).content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
    const sum = await client.tool['get-sum']({ a: 2, b: 40 });
    expect(JSON.stringify(sum.content)).toContain('42');
  });

  it('get-structured-content: structuredContent matches its outputSchema (validated) and is typed', async () => {
    const result = await client.tool['get-structured-content']({ location: 'Chicago' });
    expect(result.structuredContent).toEqual({
      temperature: expect.any(Number),
      conditions: expect.any(String),
      humidity: expect.any(Number),
    });
  });

  it('a bad argument is refused before sending: -32602 with its pointer', async () => {
    const sent: unknown[] = [];
    const call = client.tool['get-sum']({ a: 1, b: 'two' }, { onProgress: (p: unknown) => sent.push(p) });
    await expect(call).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/\/b must be number/) });
    await expect(client.tool.echo({})).rejects.toThrow(/tool echo: invalid arguments, \/message must have required/);
    await expect(client.tool['get-structured-content']({ location: 'Paris' })).rejects.toThrow(/\/location must be/);
  });

  it.each(Object.keys(PROMPT_ARGUMENTS))('prompt %s: messages', async (name) => {
    const result = await client.prompt[name](PROMPT_ARGUMENTS[name]);
    expect(result.messages.length).toBeGreaterThan(0);
  });

  it('a prompt missing a required argument is refused before sending', async () => {
    await expect(client.prompt['args-prompt']({})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/\/city must have required property/),
    });
  });
});
