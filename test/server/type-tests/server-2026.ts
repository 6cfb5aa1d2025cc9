/**
 * Type tests for the generated 2026-07-28 server handlers (`./generated-2026/`): the result fields the
 * runtime fills in (`resultType`, a list result's `cacheScope` and `ttlMs`) may be left out; everything
 * else a result requires may not. Each `@ts-expect-error [tag]` must become unused when the generated
 * `McpServerHandlers` is loosened to `any`.
 */
import { createServer, type McpServerHandlers, type ServerContext } from './generated-2026/index.js';

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

// ctx.inputs: named inputs asked for by method, answers typed by that method's result (no casts).
const CONFIRM = {
  method: 'elicitation/create',
  params: { message: 'Deploy?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
} as const;

export const asksForInputs = createServer(
  {
    'tools/call': (params, ctx) => {
      const round = ctx.inputs(params, { confirm: CONFIRM, roots: { method: 'roots/list' } }, { requestState: 's1' });
      if (!round.complete) return round.ask;
      const action: 'accept' | 'decline' | 'cancel' = round.responses.confirm.action;
      const uris: string[] = round.responses.roots.roots.map((root: { uri: string }) => root.uri);
      // @ts-expect-error [2026-input-response-typed]
      const wrong: string = round.responses.confirm.roots;
      // @ts-expect-error [2026-input-unknown-name]
      const unknown: unknown = round.responses.other;
      return { content: [{ type: 'text', text: `${action} ${uris.join(',')} ${String(wrong)} ${String(unknown)}` }] };
    },
  },
  options,
);

export const wrongInputMethod: Partial<McpServerHandlers> = {
  'tools/call': (params, ctx) => {
    // @ts-expect-error [2026-input-not-an-input-method]
    const round = ctx.inputs(params, { list: { method: 'tools/list' } });
    return round.complete ? { content: [] } : round.ask;
  },
};

export const wrongInputParams: Partial<McpServerHandlers> = {
  'tools/call': (params, ctx) => {
    // @ts-expect-error [2026-input-wrong-params]
    const round = ctx.inputs(params, { confirm: { method: 'elicitation/create', params: { message: 1 } } });
    return round.complete ? { content: [] } : round.ask;
  },
};

export const askOnlyWhereAllowed: Partial<McpServerHandlers> = {
  // Parameters typed by hand: with the tables loosened to any, nothing else may fail on this line.
  // @ts-expect-error [2026-input-ask-not-a-list-result]
  'tools/list': (params: object, ctx: ServerContext) => {
    const round = ctx.inputs(params, { confirm: CONFIRM });
    return round.complete ? { tools: [] } : round.ask;
  },
};
