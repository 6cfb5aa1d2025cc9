/**
 * The server side of the official MCP conformance suite for 2026-07-28, built only from generated code
 * (`--spec 2026-07-28 --ext io.modelcontextprotocol/tasks --ext io.modelcontextprotocol/skills`): typed
 * handlers and `createServer`, served over the runtime's Streamable HTTP transport. No sessions: every request
 * carries its own `_meta` (version, client, capabilities), and the server is dual-era, so a client that opens
 * with `initialize` is served too.
 *
 *   node server-2026-07-28.js [port]        (or PORT=…; default 0: any free port)
 *
 * Listens on 127.0.0.1 only and prints `listening on http://127.0.0.1:<port>/mcp` once ready.
 * The fixtures: inputs.ts (input-required), tasks.ts (the tasks extension), skills.ts (the skills extension).
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ERROR_CODES,
  ProtocolError,
  createServer,
  createStreamableHttpServer,
  type DetailedTask,
  type McpServerHandlers,
  type NotificationMetaObject,
  type Prompt,
  type ServerContext,
  type SubscriptionFilter,
  type Tool,
} from '../.generated/2026-07-28/index.js';
import {
  JSON_SCHEMA_2020_12,
  PNG_BASE64,
  RESOURCES,
  RESOURCE_TEMPLATE,
  WAV_BASE64,
  completions,
  resourceContents,
} from './content.js';
import { INPUT_PROMPT, INPUT_TOOLS, inputPrompt, type ToolFixture } from './inputs.js';
import { SKILLS, SKILL_RESOURCES, readSkillFile, skillHandlers } from './skills.js';
import { TASKS, TASK_TOOLS, onTaskChange, taskHandlers } from './tasks.js';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const text = (value: string) => ({ type: 'text' as const, text: value });
const noArguments: Tool['inputSchema'] = { type: 'object', properties: {} };

/** The open `subscriptions/listen` streams: what each asked for, and the context to notify it with. */
const listeners = new Set<{ filter: SubscriptionFilter; ctx: ServerContext }>();

/** Sends a notification to every listen stream whose filter asked for it, tagged with that stream's id. */
function broadcast(
  wants: (filter: SubscriptionFilter) => boolean,
  send: (ctx: ServerContext, meta: NotificationMetaObject) => Promise<void>,
) {
  for (const { filter, ctx } of listeners) {
    if (wants(filter)) void send(ctx, { [SUBSCRIPTION_ID]: ctx.id }).catch(() => undefined);
  }
}

onTaskChange((task: DetailedTask) =>
  broadcast(
    (filter) => filter.taskIds?.includes(task.taskId) ?? false,
    (ctx, _meta) => ctx.notify('notifications/tasks', { ...task, _meta }),
  ),
);

/** A tool and a prompt that come and go: the list-changed notifications have something to announce. */
const dynamic = { tool: false, prompt: false };

const CORE_TOOLS: ToolFixture[] = [
  {
    tool: { name: 'test_simple_text', description: 'Returns a simple text response', inputSchema: noArguments },
    call: () => ({ content: [text('This is a simple text response for testing.')] }),
  },
  {
    tool: { name: 'test_image_content', description: 'Returns an image', inputSchema: noArguments },
    call: () => ({ content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }] }),
  },
  {
    tool: { name: 'test_audio_content', description: 'Returns audio', inputSchema: noArguments },
    call: () => ({ content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }] }),
  },
  {
    tool: { name: 'test_embedded_resource', description: 'Returns an embedded resource', inputSchema: noArguments },
    call: () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  },
  {
    tool: {
      name: 'test_multiple_content_types',
      description: 'Returns text, an image and a resource',
      inputSchema: noArguments,
    },
    call: () => ({
      content: [
        text('Multiple content types test:'),
        { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  },
  {
    tool: { name: 'test_error_handling', description: 'Always returns an error result', inputSchema: noArguments },
    call: () => ({ isError: true, content: [text('This tool intentionally returns an error for testing')] }),
  },
  {
    tool: { name: 'test_tool_with_progress', description: 'Reports progress while it runs', inputSchema: noArguments },
    call: async (_params, ctx) => {
      for (const [i, progress] of [0, 50, 100].entries()) {
        if (i > 0) await sleep(50);
        await ctx.progress(progress, 100);
      }
      return { content: [text('Tool with progress executed successfully')] };
    },
  },
  {
    tool: {
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: JSON_SCHEMA_2020_12,
    },
    call: (params) => ({ content: [text(`Received: ${JSON.stringify(params.arguments ?? {})}`)] }),
  },
  {
    tool: {
      name: 'test_custom_headers',
      description: 'Mirrors its region argument into the Mcp-Param-Region header (x-mcp-header)',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, query: { type: 'string' } },
        required: ['region'],
      },
    },
    call: (params) => ({ content: [text(`Region: ${String(params.arguments?.['region'])}`)] }),
  },
  {
    tool: { name: 'test_logging_tool', description: 'Logs at every level while it runs', inputSchema: noArguments },
    call: async (_params, ctx) => {
      // The runtime sends these only when the request asked for a log level (_meta logLevel), at or above it.
      for (const level of ['debug', 'info', 'error'] as const) {
        await ctx.notify('notifications/message', { level, logger: 'conformance', data: `a ${level} message` });
      }
      return { content: [text('Logged')] };
    },
  },
  {
    tool: { name: 'test_missing_capability', description: 'Needs the sampling capability', inputSchema: noArguments },
    call: (_params, ctx) => {
      if (!ctx.session.clientCapabilities?.sampling) {
        throw new ProtocolError(
          ERROR_CODES.MissingRequiredClientCapabilityError,
          'This tool needs the sampling capability',
          {
            requiredCapabilities: { sampling: {} },
          },
        );
      }
      return { content: [text('The client can sample')] };
    },
  },
  {
    tool: {
      name: 'test_streaming_elicitation',
      description: 'Asks for input on its response stream',
      inputSchema: noArguments,
    },
    call: async (params, ctx) => {
      await ctx.progress(0, 1);
      const round = ctx.inputs(params, {
        confirm: {
          method: 'elicitation/create',
          params: {
            message: 'Continue?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
          },
        },
      });
      return round.complete ? { content: [text(`Answered: ${round.responses.confirm.action}`)] } : round.ask;
    },
  },
  {
    tool: { name: 'test_trigger_tool_change', description: 'Adds or removes a tool', inputSchema: noArguments },
    call: () => {
      dynamic.tool = !dynamic.tool;
      broadcast(
        (filter) => filter.toolsListChanged === true,
        (ctx, _meta) => ctx.notify('notifications/tools/list_changed', { _meta }),
      );
      return { content: [text(dynamic.tool ? 'Added test_dynamic_tool' : 'Removed test_dynamic_tool')] };
    },
  },
  {
    tool: { name: 'test_trigger_prompt_change', description: 'Adds or removes a prompt', inputSchema: noArguments },
    call: () => {
      dynamic.prompt = !dynamic.prompt;
      broadcast(
        (filter) => filter.promptsListChanged === true,
        (ctx, _meta) => ctx.notify('notifications/prompts/list_changed', { _meta }),
      );
      return { content: [text(dynamic.prompt ? 'Added test_dynamic_prompt' : 'Removed test_dynamic_prompt')] };
    },
  },
];

const DYNAMIC_TOOL: ToolFixture = {
  tool: {
    name: 'test_dynamic_tool',
    description: 'Listed while test_trigger_tool_change has added it',
    inputSchema: noArguments,
  },
  call: () => ({ content: [text('Still here')] }),
};

/** Every tool listed now, by name. */
function toolsByName(): Map<string, ToolFixture> {
  const all = [...CORE_TOOLS, ...INPUT_TOOLS, ...TASK_TOOLS, ...(dynamic.tool ? [DYNAMIC_TOOL] : [])];
  return new Map(all.map((fixture) => [fixture.tool.name, fixture]));
}

const PROMPTS: Prompt[] = [
  { name: 'test_simple_prompt', description: 'A simple prompt without arguments' },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  },
  { name: 'test_prompt_with_image', description: 'A prompt with an image' },
  INPUT_PROMPT,
];

const getPrompt: McpServerHandlers['prompts/get'] = (params, ctx) => {
  const args = params.arguments;
  switch (params.name) {
    case 'test_simple_prompt':
      return { messages: [{ role: 'user', content: text('This is a simple prompt for testing.') }] };
    case 'test_prompt_with_arguments':
      return {
        messages: [
          {
            role: 'user',
            content: text(`Prompt with arguments: arg1='${args?.arg1 ?? ''}', arg2='${args?.arg2 ?? ''}'`),
          },
        ],
      };
    case 'test_prompt_with_embedded_resource':
      return {
        messages: [
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: {
                uri: args?.resourceUri ?? 'test://embedded-resource',
                mimeType: 'text/plain',
                text: 'Embedded resource content for testing.',
              },
            },
          },
          { role: 'user', content: text('Please process the embedded resource above.') },
        ],
      };
    case 'test_prompt_with_image':
      return {
        messages: [
          { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
          { role: 'user', content: text('Please analyze the image above.') },
        ],
      };
    case INPUT_PROMPT.name:
      return inputPrompt(params, ctx);
    default:
      throw new ProtocolError(ERROR_CODES.InvalidParamsError, `Unknown prompt: ${params.name}`);
  }
};

const handlers: Partial<McpServerHandlers> = {
  'completion/complete': ({ ref, argument }) => {
    const values = ref.type === 'ref/prompt' ? completions(ref.name, argument.value) : [];
    return { completion: { values, total: values.length, hasMore: false } };
  },
  'tools/list': () => ({ tools: [...toolsByName().values()].map((fixture) => fixture.tool) }),
  'tools/call': (params, ctx) => {
    const fixture = toolsByName().get(params.name);
    if (!fixture) throw new ProtocolError(ERROR_CODES.InvalidParamsError, `Unknown tool: ${params.name}`);
    return fixture.call(params, ctx);
  },
  'resources/list': () => ({ resources: [...RESOURCES, ...SKILL_RESOURCES] }),
  'resources/templates/list': () => ({ resourceTemplates: [RESOURCE_TEMPLATE] }),
  'resources/read': ({ uri }) => {
    const contents = resourceContents(uri) ?? readSkillFile(uri);
    // SEP-2164: an unknown resource is -32602 naming the URI, never an empty result.
    if (!contents) throw new ProtocolError(ERROR_CODES.InvalidParamsError, 'Resource not found', { uri });
    return { contents: [{ uri, ...contents }] };
  },
  'prompts/list': () => ({
    prompts: [...PROMPTS, ...(dynamic.prompt ? [{ name: 'test_dynamic_prompt', description: 'Comes and goes' }] : [])],
  }),
  'prompts/get': getPrompt,
  'subscriptions/listen': async (params, ctx) => {
    const filter = params.notifications;
    const _meta = { [SUBSCRIPTION_ID]: ctx.id };
    await ctx.notify('notifications/subscriptions/acknowledged', { _meta, notifications: filter });
    const listener = { filter, ctx };
    listeners.add(listener);
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    listeners.delete(listener);
    return { resultType: 'complete', _meta };
  },
  ...taskHandlers,
  ...skillHandlers,
};

const server = createServer(handlers, {
  serverInfo: { name: 'mcp-typegen-conformance-server-2026', version: '0.1.0' },
  capabilities: {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    extensions: { [TASKS]: {}, [SKILLS]: { directoryRead: true } },
  },
  onHandlerError: (error, { method }) => console.error(`[server] ${method} failed:`, error),
});

const endpoint = createStreamableHttpServer({ server });

const requested = Number(process.argv[2] ?? process.env.PORT ?? 0);
const http = createHttpServer(endpoint);
http.listen(Number.isInteger(requested) && requested >= 0 ? requested : 0, '127.0.0.1', () => {
  const { port } = http.address() as AddressInfo;
  console.log(`listening on http://127.0.0.1:${port}/mcp`);
});

async function shutdown(): Promise<void> {
  await endpoint.close().catch(() => undefined);
  http.closeAllConnections();
  http.close(() => process.exit(0));
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
