/**
 * Type tests for the generated 2025-11-25 server handlers (`./generated/`), compiled by
 * test/client/types.test.ts; each `@ts-expect-error [tag]` must become unused when the generated
 * `McpServerHandlers` is loosened to `any`.
 */
import { createServer, type CreateTaskResult, type ElicitResult, type McpServerHandlers } from './generated/index.js';

const options = { serverInfo: { name: 'types', version: '0' } };

export const good = createServer(
  {
    'tools/list': () => ({ tools: [] }),
    'tools/call': async (params, ctx) => {
      await ctx.progress(1, 2);
      if (ctx.signal.aborted) return { content: [], isError: true };
      return {
        content: [{ type: 'text', text: params.name.toUpperCase() }],
        structuredContent: { n: ctx.session.protocolVersion },
      };
    },
    'resources/read': (params) => ({ contents: [{ uri: params.uri, text: 'x' }] }),
    'notifications/initialized': () => {},
  },
  options,
);

export const wrongShape = createServer(
  {
    // @ts-expect-error [wrong-result-shape]
    'tools/list': () => ({ tool: [] }),
  },
  options,
);

export const wrongResultType: Partial<McpServerHandlers> = {
  // @ts-expect-error [wrong-result-type]
  'tools/call': async () => ({ content: 'text' }),
};

export const unknownField = createServer(
  {
    'tools/call': (params) => {
      // @ts-expect-error [unknown-params-field]
      const name: string = params.nme;
      return { content: [{ type: 'text', text: name }] };
    },
  },
  options,
);

export const notReceived = createServer(
  {
    // @ts-expect-error [not-received-method]
    'sampling/createMessage': () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }),
  },
  options,
);

// Task-augmented requests (2025-11-25, issue 35 item 7): a tools/call sent with `task` is answered with the
// created task, no cast; and a server asking the client with `task` gets the created task back, typed.
const task = { taskId: 't1', status: 'working', createdAt: '', lastUpdatedAt: '', ttl: 60_000 } as const;

export const taskAugmented = createServer(
  {
    'tools/call': async (params, ctx) => {
      if (params.task === undefined) return { content: [] };
      const asked: CreateTaskResult = await ctx.request('elicitation/create', {
        mode: 'form',
        message: 'Name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        task: { ttl: 1000 },
      });
      const answered: ElicitResult = await ctx.request('elicitation/create', {
        message: 'Name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      void answered;
      return { task: { ...task, statusMessage: asked.task.status } };
    },
  },
  options,
);

export const taskWrongShape: Partial<McpServerHandlers> = {
  // @ts-expect-error [task-handler-wrong-shape]
  'tools/call': () => ({ task: { taskId: 1 } }),
};
