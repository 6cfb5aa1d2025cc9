/**
 * The fixed parts of sdk.ts: the SDK peers it accepts (matched structurally, as the SDK declares them),
 * the parameter and argument types it shares with sdk-v1.ts, and three small Standard Schema combinators.
 */
import type { Statement } from '../shared/ts-project.js';
import { constDecl, functionDecl, typeAlias } from '../shared/ts-structures.js';
import { objectType } from '../shared/ts-text.js';

/**
 * Types and helpers every sdk.ts carries: the peers it accepts, as the SDK declares them (the client with its
 * `transport` where the adapter taps it: see sdkRequester).
 */
export const preamble = (tapped: boolean): Statement[] => [
  typeAlias(
    'SdkPeer',
    objectType(
      [
        {
          name: 'setRequestHandler',
          type: '(method: string, schemas: { params: StandardSchemaV1; result?: StandardSchemaV1 }, handler: (params: any, ctx: any) => any) => void',
        },
        {
          name: 'setNotificationHandler',
          type: '(method: string, schemas: { params: StandardSchemaV1 }, handler: (params: any, notification: any) => any) => void',
        },
      ],
      true,
    ),
    "What registering needs of an SDK v2 `Server`, `Client` (or an `McpServer`'s `server`): the schema form of its handler setters.",
  ),
  typeAlias(
    'ContextOf<P>',
    'P extends { setRequestHandler(method: string, schemas: any, handler: (params: any, ctx: infer C) => any): void } ? C : never',
    'The context an SDK peer gives its handlers (`ServerContext` of a `Server`).',
  ),
  sdkRequester(tapped),
  typeAlias(
    'OptionsOf<C>',
    'C extends { request(request: any, resultSchema: any, options?: infer O): any } ? O : never',
    "The request options of an SDK client (`RequestOptions`): the facades' types read them only where a call passes options.",
  ),
  typeAlias(
    'Caller<P>',
    "P extends { _meta: infer M } ? Omit<P, '_meta'> & { _meta?: M } : P",
    'Params as a caller passes them: the SDK fills in a required `_meta` (2026-07-28 on).',
  ),
  typeAlias(
    'ArgsOf<R extends { params: unknown; paramsRequired: boolean }, O>',
    "R['paramsRequired'] extends true ? [params: Caller<R['params']>, options?: O] : [params?: Caller<R['params']>, options?: O]",
    'The arguments of `request(method, …)` for one row of a method map: params required where the schema requires them.',
  ),
];

/**
 * What the facade needs of an SDK v2 `Client`: its `request` with a result schema, `notification`, and (where
 * an extension adds a result kind the SDK refuses) its `transport`, to read that result off the wire.
 */
function sdkRequester(tapped: boolean): Statement {
  return typeAlias(
    'SdkRequester',
    objectType(
      [
        { name: 'request', type: 'unknown', doc: REQUEST_UNTYPED },
        {
          name: 'notification',
          type: '(notification: { method: string; params?: Record<string, unknown> }) => Promise<void>',
        },
        ...(tapped ? [{ name: 'transport', type: 'SdkTransport | undefined', optional: true, readonly: true }] : []),
      ],
      true,
    ),
    `What the facade needs of an SDK v2 \`Client\`: its \`request\` with a result schema${tapped ? ', `notification`, and its `transport`' : ', and `notification`'}.`,
  );
}

/**
 * Why the requesters leave `request` untyped: relating a client to any type of it (even a function type)
 * resolves the SDK's own overloads of it, about 8,000 type instantiations and 0.1 s of every tsc run that
 * calls the facade; `unknown` is related without reading it. The adapter calls it as `Requesting` declares.
 */
export const REQUEST_UNTYPED =
  "`request(request, resultSchema, options)`: not typed here, so that passing a client never makes tsc resolve the SDK's overloads of it (`OptionsOf` reads its options where a call passes some).";

/** How the adapters call a requester's untyped `request`: with a message, a result schema and options. */
export const REQUESTING = typeAlias(
  'Requesting',
  '{ request(request: { method: string; params?: Record<string, unknown> }, resultSchema: unknown, options?: unknown): Promise<unknown> }',
  "A requester's `request`, as the adapter calls it (the requester types leave it untyped).",
);

/** `client.request(…)` through `Requesting`: the expression an adapter calls `request` on. */
export const requesting = (peer: string): string => `(${peer} as unknown as Requesting)`;

/** Types of the task-augmented requests (2025-11-25): sent with `params.task`, answered with the created task. */
export const TASK_AUGMENTED: Statement[] = [
  typeAlias(
    'TaskAugmented<Map>',
    '{ [K in keyof Map]: Map[K] extends { taskResult: unknown } ? K : never }[keyof Map] & string',
    'The requests of a method map a peer may send with `params.task` (2025-11-25): answered with the task they create.',
  ),
  typeAlias(
    'TaskRequest<R>',
    'R extends { params: infer P; taskResult: infer T } ? { params: Caller<P> & { task: NonNullable<P extends { task?: infer K } ? K : never> }; result: T } : never',
    "A task-augmented request's row as sent with `params.task`: its params, and the created task it is answered with.",
  ),
];

/** `anyOf(a, b)`: a Standard Schema accepting what one of several accepts (a result that is a union). */
export const ANY_OF = functionDecl({
  name: 'anyOf',
  params: [{ name: '...schemas', type: 'StandardSchemaV1[]' }],
  returns: 'StandardSchemaV1',
  body: [
    'const validate = (value: unknown): StandardSchemaV1Result<unknown> => {',
    '  let first: StandardSchemaV1Result<unknown> | undefined;',
    '  for (const schema of schemas) {',
    "    const result = schema['~standard'].validate(value) as StandardSchemaV1Result<unknown>;",
    '    if (result.issues === undefined) return result;',
    '    first ??= result;',
    '  }',
    '  return first ?? { value };',
    '};',
    "return { '~standard': { version: 1, vendor: 'mcp-typegen', validate } };",
  ],
});

/** `optional(schema)`: also accepts no value at all (params a method may leave out). */
export const OPTIONAL = functionDecl({
  name: 'optional',
  params: [{ name: 'schema', type: 'StandardSchemaV1' }],
  returns: 'StandardSchemaV1',
  body: [
    "const validate = (value: unknown) => (value === undefined ? { value } : schema['~standard'].validate(value));",
    "return { '~standard': { version: 1, vendor: 'mcp-typegen', validate } };",
  ],
});

/** The params schema of a vendor method that declares none: anything the SDK passes (an object or nothing). */
export const NO_PARAMS = constDecl(
  'NO_PARAMS',
  "{ '~standard': { version: 1, vendor: 'mcp-typegen', validate: (value: unknown) => ({ value }) } }",
  { exported: false, type: 'StandardSchemaV1' },
);

/** `message(method, params)`: a request or notification as the SDK sends it (no `params` when there are none). */
export const MESSAGE = functionDecl({
  name: 'message',
  params: [
    { name: 'method', type: 'string' },
    { name: 'params', type: 'unknown' },
  ],
  returns: '{ method: string; params?: Record<string, unknown> }',
  body: ['return params === undefined ? { method } : { method, params: params as Record<string, unknown> };'],
});
