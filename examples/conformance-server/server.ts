/**
 * The server side of the official MCP conformance suite (@modelcontextprotocol/conformance), built only from
 * generated 2025-11-25 code: the typed handler interface and `createServer`, served over the generated
 * runtime's Streamable HTTP transport, one `server.connect(transport)` per HTTP session.
 *
 *   node server.js [port]        (or PORT=…; default 0: any free port)
 *
 * Listens on 127.0.0.1 only and prints `listening on http://127.0.0.1:<port>/mcp` once ready.
 * Run by scripts/conformance.mjs, which generates `../.generated` first.
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ERROR_CODES,
  ProtocolError,
  createServer,
  createStreamableHttpServer,
  type ContentBlock,
  type LoggingMessageNotificationParams,
  type McpServerHandlers,
  type PrimitiveSchemaDefinition,
  type Prompt,
  type ServerContext,
  type Tool,
} from '../.generated/2025-11-25/index.js';
import type { HttpMessageExtraInfo } from '@mcp-typegen/runtime/node';
import {
  JSON_SCHEMA_2020_12,
  PNG_BASE64,
  RESOURCES,
  RESOURCE_TEMPLATE,
  WAV_BASE64,
  completions,
  resourceContents,
} from './content.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const text = (value: string): ContentBlock => ({ type: 'text', text: value });
const noArguments: Tool['inputSchema'] = { type: 'object', properties: {} };

const TOOLS: Tool[] = [
  { name: 'test_simple_text', description: 'Returns a simple text response', inputSchema: noArguments },
  { name: 'test_image_content', description: 'Returns an image', inputSchema: noArguments },
  { name: 'test_audio_content', description: 'Returns audio', inputSchema: noArguments },
  { name: 'test_embedded_resource', description: 'Returns an embedded resource', inputSchema: noArguments },
  {
    name: 'test_multiple_content_types',
    description: 'Returns text, an image and a resource',
    inputSchema: noArguments,
  },
  { name: 'test_tool_with_logging', description: 'Sends log messages while it runs', inputSchema: noArguments },
  { name: 'test_error_handling', description: 'Always returns an error result', inputSchema: noArguments },
  { name: 'test_tool_with_progress', description: 'Reports progress while it runs', inputSchema: noArguments },
  {
    name: 'test_sampling',
    description: 'Asks the client to sample an LLM',
    inputSchema: {
      type: 'object',
      properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } },
      required: ['prompt'],
    },
  },
  {
    name: 'test_elicitation',
    description: 'Asks the client for user input',
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string', description: 'The message to show the user' } },
      required: ['message'],
    },
  },
  {
    name: 'test_elicitation_sep1034_defaults',
    description: 'Elicitation with defaults (SEP-1034)',
    inputSchema: noArguments,
  },
  {
    name: 'test_elicitation_sep1330_enums',
    description: 'Elicitation with every enum schema (SEP-1330)',
    inputSchema: noArguments,
  },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: JSON_SCHEMA_2020_12,
  },
  {
    name: 'test_reconnection',
    description: 'Closes its SSE stream mid-call, then answers (SSE polling)',
    inputSchema: noArguments,
  },
];

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
];

const SEP1034_SCHEMA: Record<string, PrimitiveSchemaDefinition> = {
  name: { type: 'string', description: 'User name', default: 'John Doe' },
  age: { type: 'integer', description: 'User age', default: 30 },
  score: { type: 'number', description: 'User score', default: 95.5 },
  status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
  verified: { type: 'boolean', description: 'Verification status', default: true },
};

const SEP1330_SCHEMA: Record<string, PrimitiveSchemaDefinition> = {
  untitledSingle: { type: 'string', description: 'Untitled single-select', enum: ['option1', 'option2', 'option3'] },
  titledSingle: {
    type: 'string',
    description: 'Titled single-select',
    oneOf: [
      { const: 'value1', title: 'First Option' },
      { const: 'value2', title: 'Second Option' },
      { const: 'value3', title: 'Third Option' },
    ],
  },
  legacyEnum: {
    type: 'string',
    description: 'Legacy titled enum',
    enum: ['opt1', 'opt2', 'opt3'],
    enumNames: ['Option One', 'Option Two', 'Option Three'],
  },
  untitledMulti: {
    type: 'array',
    description: 'Untitled multi-select',
    items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
  },
  titledMulti: {
    type: 'array',
    description: 'Titled multi-select',
    items: {
      anyOf: [
        { const: 'value1', title: 'First Choice' },
        { const: 'value2', title: 'Second Choice' },
        { const: 'value3', title: 'Third Choice' },
      ],
    },
  },
};

type CallTool = McpServerHandlers['tools/call'];
type LogData = LoggingMessageNotificationParams['data'];

const callTool: CallTool = async ({ name, arguments: args }, ctx) => {
  switch (name) {
    case 'test_simple_text':
      return { content: [text('This is a simple text response for testing.')] };
    case 'test_image_content':
      return { content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }] };
    case 'test_audio_content':
      return { content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }] };
    case 'test_embedded_resource':
      return {
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
      };
    case 'test_multiple_content_types':
      return {
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
      };
    case 'test_tool_with_logging': {
      const steps = ['Tool execution started', 'Tool processing data', 'Tool execution completed'];
      for (const [i, data] of steps.entries()) {
        if (i > 0) await sleep(50);
        // The schema allows any JSON as `data`; the generated type says object (generator issue), hence the cast.
        await ctx.notify('notifications/message', {
          level: 'info',
          logger: 'conformance',
          data: data as unknown as LogData,
        });
      }
      return { content: [text('Tool with logging executed successfully')] };
    }
    case 'test_error_handling':
      return { isError: true, content: [text('This tool intentionally returns an error for testing')] };
    case 'test_tool_with_progress':
      for (const [i, progress] of [0, 50, 100].entries()) {
        if (i > 0) await sleep(50);
        await ctx.progress(progress, 100);
      }
      return { content: [text('Tool with progress executed successfully')] };
    case 'test_sampling': {
      requireCapability(ctx, 'sampling');
      const result = await ctx.request('sampling/createMessage', {
        messages: [{ role: 'user', content: { type: 'text', text: String(args?.prompt ?? '') } }],
        maxTokens: 100,
      });
      const blocks = Array.isArray(result.content) ? result.content : [result.content];
      const reply = blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('');
      return { content: [text(`LLM response: ${reply}`)] };
    }
    case 'test_elicitation': {
      requireCapability(ctx, 'elicitation');
      const result = await ctx.request('elicitation/create', {
        message: String(args?.message ?? ''),
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return {
        content: [text(`User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`)],
      };
    }
    case 'test_elicitation_sep1034_defaults':
    case 'test_elicitation_sep1330_enums': {
      requireCapability(ctx, 'elicitation');
      const sep1034 = name === 'test_elicitation_sep1034_defaults';
      const result = await ctx.request('elicitation/create', {
        message: sep1034 ? 'Please review the defaults (SEP-1034)' : 'Please choose options (SEP-1330)',
        requestedSchema: { type: 'object', properties: sep1034 ? SEP1034_SCHEMA : SEP1330_SCHEMA },
      });
      return {
        content: [
          text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`),
        ],
      };
    }
    case 'json_schema_2020_12_tool':
      return { content: [text(`Received: ${JSON.stringify(args ?? {})}`)] };
    case 'test_reconnection': {
      // Ends this request's SSE stream; the client reconnects with Last-Event-ID and gets the answer.
      (ctx.extra as HttpMessageExtraInfo | undefined)?.closeSSEStream?.();
      await sleep(100);
      return { content: [text('Reconnection test completed successfully')] };
    }
    default:
      return { isError: true, content: [text(`Unknown tool: ${name}`)] };
  }
};

function requireCapability(ctx: ServerContext, capability: 'sampling' | 'elicitation'): void {
  if (!ctx.session.clientCapabilities?.[capability]) {
    throw new Error(`The client did not declare the ${capability} capability`);
  }
}

const handlers: Partial<McpServerHandlers> = {
  'logging/setLevel': () => ({}),
  'completion/complete': ({ ref, argument }) => {
    const values = ref.type === 'ref/prompt' ? completions(ref.name, argument.value) : [];
    return { completion: { values, total: values.length, hasMore: false } };
  },
  'tools/list': () => ({ tools: TOOLS }),
  'tools/call': callTool,
  'resources/list': () => ({ resources: RESOURCES }),
  'resources/templates/list': () => ({ resourceTemplates: [RESOURCE_TEMPLATE] }),
  'resources/read': ({ uri }) => {
    const contents = resourceContents(uri);
    if (!contents) throw new ProtocolError(ERROR_CODES.InvalidParamsError, 'Resource not found', { uri });
    return { contents: [{ uri, ...contents }] };
  },
  'resources/subscribe': () => ({}),
  'resources/unsubscribe': () => ({}),
  'prompts/list': () => ({ prompts: PROMPTS }),
  'prompts/get': ({ name, arguments: args }) => {
    switch (name) {
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
      default:
        throw new Error(`Unknown prompt: ${name}`);
    }
  },
};

const server = createServer(handlers, {
  serverInfo: { name: 'mcp-typegen-conformance-server', version: '0.1.0' },
  onHandlerError: (error, { method }) => console.error(`[server] ${method} failed:`, error),
});

const endpoint = createStreamableHttpServer({ retryMs: 500, server });

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
