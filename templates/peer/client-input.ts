/**
 * The client's side of the input-required loop (2026-07-28 on): a result with `resultType: "input_required"`
 * embeds server→client requests; each is answered by the handler the client registered for its method, and the
 * call is retried with the answers (`inputResponses`) and the server's `requestState`.
 *
 * Hand-written runtime copied unchanged into generated output. No dependencies.
 */
import { ErrorCode, ProtocolError, isPlainObject } from '../core/jsonrpc.js';
import { metaOf } from '../core/peer-messages.js';
import type { HandlerContext } from '../core/peer.js';
import type { MessageChecker } from './validation.js';

type JsonObject = { [key: string]: unknown };

/** The client's handlers for server→client requests, by method. */
export type InputHandlers = Map<string, (params: any, ctx: any) => unknown>;

/**
 * Answers each input request a 2026-07-28 `input_required` result embeds with the handler registered for its
 * method (checked by `validate` first when given); returns the params of the retry.
 */
export async function answerInputRequests(
  params: JsonObject,
  result: JsonObject,
  handlers: InputHandlers,
  validate: MessageChecker | undefined,
  signal: AbortSignal | undefined,
): Promise<JsonObject> {
  const requests = isPlainObject(result['inputRequests']) ? result['inputRequests'] : {};
  const responses: JsonObject = {};
  for (const [key, request] of Object.entries(requests)) {
    if (!isPlainObject(request) || typeof request['method'] !== 'string') {
      throw new ProtocolError(ErrorCode.InvalidRequest, `input request "${key}" has no method`);
    }
    const issue = validate?.params(request['method'], request['params'] as never) ?? null;
    if (issue) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `input request "${key}" (${request['method']}): invalid params at ${issue.pointer || '/'}: ${issue.message}`,
      );
    }
    const handler = handlers.get(request['method']);
    if (!handler) {
      throw new ProtocolError(ErrorCode.MethodNotFound, `No handler for ${request['method']} input requests`);
    }
    const ctx = inputContext(key, request['method'], request['params'], signal);
    responses[key] = await handler(request['params'], ctx);
  }
  // The retry carries this round's state, or none (an undefined member is left out of the frame, as JSON leaves it).
  const state = result['requestState'];
  return { ...params, inputResponses: responses, requestState: typeof state === 'string' ? state : undefined };
}

/** A 2026-07-28 result that asks for input before it is final. */
export function isInputRequired(result: unknown): result is JsonObject {
  return isPlainObject(result) && result['resultType'] === 'input_required';
}

/** The ctx an input-request handler gets: like a request's, without a way to answer out of band. */
function inputContext(
  key: string,
  method: string,
  params: unknown,
  signal: AbortSignal | undefined,
): HandlerContext<any, any> {
  const never = () =>
    Promise.reject(new ProtocolError(ErrorCode.InvalidRequest, 'input requests cannot send messages'));
  return {
    id: key,
    method,
    signal: signal ?? new AbortController().signal,
    meta: metaOf(params as JsonObject | undefined), // metaOf reads `_meta` only from an object
    extra: undefined,
    progress: () => Promise.resolve(),
    notify: never,
    request: never,
    sendRaw: never,
  };
}
