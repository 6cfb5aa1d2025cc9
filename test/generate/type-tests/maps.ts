/**
 * Type tests for the generated method maps (2025-11-25). Not part of the repo's own typecheck: the
 * test copies this directory next to freshly generated output (`./generated/`) and runs tsc on it.
 *
 * Every `@ts-expect-error` is tagged `[name]`; type-tests.test.ts loosens the generated helpers and
 * checks that the tagged lines then fail, so these tests cannot pass by accident.
 */
import type {
  CallToolRequestParams,
  CallToolResult,
  ClientRequestMethod,
  EmptyResult,
  NotificationOf,
  ParamsOf,
  ProgressNotificationParams,
  RequestId,
  RequestOf,
  ResponseOf,
  ResultOf,
  ServerRequestMethod,
} from './generated/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

// ---- positive ----------------------------------------------------------------------------------

export const call: RequestOf<'tools/call'> = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'hi' } },
};
export const callWithStringId: RequestOf<'tools/call'> = { ...call, id: 'req-1' };
export const pingWithoutParams: RequestOf<'ping'> = { jsonrpc: '2.0', id: 7, method: 'ping' };
export const progress: NotificationOf<'notifications/progress'> = {
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 'p', progress: 1 },
};
export const response: ResponseOf<'tools/call'> = { jsonrpc: '2.0', id: 'x', result: { content: [] } };
export const clientMethod: ClientRequestMethod = 'tools/call';
export const serverMethod: ServerRequestMethod = 'sampling/createMessage';

export type Checks = [
  Expect<Equal<RequestId, string | number>>,
  Expect<Equal<ParamsOf<'tools/call'>, CallToolRequestParams>>,
  Expect<Equal<ParamsOf<'notifications/progress'>, ProgressNotificationParams>>,
  Expect<Equal<ParamsOf<'tools/call' | 'notifications/progress'>, CallToolRequestParams | ProgressNotificationParams>>,
  Expect<Equal<ResultOf<'tools/call'>, CallToolResult>>,
  Expect<Equal<ResultOf<'ping'>, EmptyResult>>,
  Expect<Equal<Extract<ClientRequestMethod, 'tools/call'>, 'tools/call'>>,
  Expect<Equal<Extract<ClientRequestMethod, 'sampling/createMessage'>, never>>,
  Expect<Equal<RequestOf<'tools/call'>['id'], string | number>>,
];

// ---- negative ----------------------------------------------------------------------------------

// @ts-expect-error [unknown-method] there is no tools/nope
export type Nope = ParamsOf<'tools/nope'>;

export const badParams: RequestOf<'tools/call'> = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  // @ts-expect-error [wrong-params] name is a string
  params: { name: 1 },
};

// @ts-expect-error [missing-params] tools/call requires params
export const missingParams: RequestOf<'tools/call'> = { jsonrpc: '2.0', id: 3, method: 'tools/call' };

declare const result: CallToolResult;
// @ts-expect-error [missing-field] CallToolResult has no `messages`
export const messages: unknown[] = result.messages;

// @ts-expect-error [notification-as-request] a notification has no result
export type NoResult = ResultOf<'notifications/progress'>;

// @ts-expect-error [server-method-from-client] sampling/createMessage is sent by the server
export const notAClientMethod: ClientRequestMethod = 'sampling/createMessage';

export const badId: RequestOf<'ping'> = {
  jsonrpc: '2.0',
  // @ts-expect-error [null-id] an id is never null
  id: null,
  method: 'ping',
};
