/**
 * Issue 44, item 2: the AI SDK's MCP client (`@ai-sdk/mcp`) takes the generated tool-schemas.js as its
 * `schemas`. The weather snapshot's output is generated; a real MCP server (the official SDK v2 `McpServer`,
 * its tool registered with the same generated Standard Schemas) serves the tool over the SDK's in-memory
 * transport, which @ai-sdk/mcp accepts as its transport; `generateText` (`ai`) runs with the AI SDK's mock
 * language model, which asks for the tool, and the AI SDK checks the model's input with the generated validator
 * before calling the server. Type tests (ai-sdk/type-tests/ai-sdk.ts): every tool's input and output are the
 * generated types, and a wrong input type does not compile (then, loosened, every directive must be unused).
 */
import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir, type RunResult } from '../helpers/generate.js';
import { tscProjects } from '../helpers/tsc-build.js';
import { replaceDeclaration, taggedDirectives, unusedDirectives } from '../helpers/type-tests.js';
import { buildWithTools, type ToolsBuild } from '../snapshot/tools-build.js';

const WEATHER = join(ROOT, 'test', 'fixtures', 'snapshots', 'weather.snapshot.json');
const TYPE_TESTS = join(ROOT, 'test', 'interop', 'ai-sdk', 'type-tests');

type Json = Record<string, any>;
let build: ToolsBuild;
let schemas: Json;
let server: McpServer;
let mcp: MCPClient;
const received: unknown[] = [];

/** A model that asks for `forecast` with `input` first, then answers with the text of what the tool gave. */
function modelCalling(input: string): MockLanguageModelV3 {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      step += 1;
      if (step === 1)
        return {
          content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'forecast', input }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        };
      const last = options.prompt.at(-1);
      const part = last?.role === 'tool' ? last.content[0] : undefined;
      const output = part?.type === 'tool-result' ? part.output : undefined;
      return {
        content: [{ type: 'text', text: JSON.stringify(output) }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

beforeAll(async () => {
  build = await buildWithTools('ai-sdk', { tools: WEATHER });
  schemas = await build.load('tool-schemas.js');
  server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool(
    'forecast',
    {
      description: "Tomorrow's weather in a city",
      inputSchema: schemas.toolSchemas.forecast.inputSchema,
      outputSchema: schemas.toolSchemas.forecast.outputSchema,
    },
    (args: Json) => {
      received.push(args);
      const structuredContent = {
        temperature: args.unit === 'fahrenheit' ? 70 : 21,
        conditions: `sunny in ${args.city}`,
      };
      return { content: [{ type: 'text' as const, text: JSON.stringify(structuredContent) }], structuredContent };
    },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  mcp = await createMCPClient({ transport: clientSide });
});

afterAll(async () => {
  await mcp?.close();
  await server?.close();
});

describe('@ai-sdk/mcp with the generated tool schemas, against the SDK v2 McpServer', () => {
  it('the server lists the schema as the snapshot has it (the SDK v2 reads the 2020-12 form)', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name)).toEqual(['forecast']);
    expect(tools[0]?.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] } },
      required: ['city'],
    });
  });

  it('generateText: the mock model calls the tool, the server gets the input, the model reads the structured result', async () => {
    const model = modelCalling('{"city":"Porto","unit":"celsius"}');
    const tools = await mcp.tools({ schemas: schemas.toolSchemas });
    const result = await generateText({ model, tools, prompt: 'Weather in Porto?', stopWhen: stepCountIs(2) });
    expect(received.at(-1)).toEqual({ city: 'Porto', unit: 'celsius' });
    const toolResult = result.steps[0]?.toolResults[0];
    expect(toolResult).toMatchObject({ toolName: 'forecast', input: { city: 'Porto', unit: 'celsius' } });
    expect(toolResult?.output).toEqual({ temperature: 21, conditions: 'sunny in Porto' });
    // What the model was told: the tool's input schema, in the draft-07 form the AI SDK asked for.
    const offered = model.doGenerateCalls[0]?.tools?.[0];
    expect(offered).toMatchObject({
      type: 'function',
      name: 'forecast',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
    expect(result.text).toBe(JSON.stringify({ type: 'json', value: toolResult?.output }));
  });

  it("a model's input the generated validator refuses never reaches the server: a tool error the model reads", async () => {
    const before = received.length;
    const model = modelCalling('{"city":3,"unit":"kelvin"}');
    const tools = await mcp.tools({ schemas: schemas.toolSchemas });
    const result = await generateText({ model, tools, prompt: 'Weather?', stopWhen: stepCountIs(2) });
    expect(received).toHaveLength(before);
    const error = result.steps[0]?.content.find((part) => part.type === 'tool-error');
    expect(error).toMatchObject({ type: 'tool-error', toolName: 'forecast' });
    const message = String((error as { error?: unknown }).error);
    expect(message).toContain('must be string');
    expect(message).toContain('must be equal to one of the allowed values');
  });
});

describe('types: what the AI SDK infers from the generated schemas', () => {
  let results: Promise<readonly [RunResult, RunResult]>;
  beforeAll(() => {
    const strict = tempDir('ai-sdk-types');
    const loose = tempDir('ai-sdk-types-loose');
    for (const dir of [strict, loose]) {
      cpSync(join(build.dir, 'generated'), join(dir, 'generated'), { recursive: true });
      cpSync(TYPE_TESTS, dir, { recursive: true });
    }
    replaceDeclaration(
      join(loose, 'generated', 'tool-types.ts'),
      'ForecastArguments',
      'export type ForecastArguments = any;',
    );
    replaceDeclaration(
      join(loose, 'generated', 'tool-types.ts'),
      'ForecastStructuredContent',
      'export type ForecastStructuredContent = any;',
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
    expect([...taggedDirectives(TYPE_TESTS).values()].sort()).toEqual(['wrong-input', 'wrong-output']);
  });

  it('with the types loosened to any, every directive is unused: none passes by accident', async () => {
    const [, loose] = await results;
    const lines = `${loose.stdout}${loose.stderr}`.split('\n').filter((l) => /error TS\d+/.test(l));
    expect(unusedDirectives(lines).sort()).toEqual([...taggedDirectives(TYPE_TESTS).keys()].sort());
  });
});
