/**
 * Type tests for the generated 2025-11-25 server handlers (`./generated/`), compiled by
 * test/client/types.test.ts; each `@ts-expect-error [tag]` must become unused when the generated
 * `McpServerHandlers` is loosened to `any`.
 */
import { createServer, type McpServerHandlers } from './generated/index.js';

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
