/**
 * Type tests for the generated 2026-07-28 server handlers (`./generated-2026/`): the result fields the
 * runtime fills in (`resultType`, a list result's `cacheScope` and `ttlMs`) may be left out; everything
 * else a result requires may not. Each `@ts-expect-error [tag]` must become unused when the generated
 * `McpServerHandlers` is loosened to `any`.
 */
import { createServer, type McpServerHandlers } from './generated-2026/index.js';

const options = { serverInfo: { name: 'types-2026', version: '0' } };

export const defaulted = createServer(
  {
    'tools/list': () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }),
    'tools/call': (params) => ({ content: [{ type: 'text', text: params.name }] }),
    'resources/read': () => ({ resultType: 'input_required', inputRequests: {}, requestState: 's' }),
  },
  options,
);

export const explicit: Partial<McpServerHandlers> = {
  'tools/list': () => ({ resultType: 'complete', tools: [], cacheScope: 'public', ttlMs: 60_000 }),
};

export const missingRequired: Partial<McpServerHandlers> = {
  // @ts-expect-error [defaults-keep-required-fields]
  'tools/list': () => ({ cacheScope: 'public' }),
};

export const wrongCacheScope: Partial<McpServerHandlers> = {
  // @ts-expect-error [defaulted-field-still-typed]
  'tools/list': () => ({ tools: [], cacheScope: 'everyone' }),
};
