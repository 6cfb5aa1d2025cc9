/**
 * The 2026-07-28 input-required loop, typed for server handlers: `ctx.inputs(params, asks)` either hands
 * back the client's answers to the named inputs (its retry), typed by each input's method, or the
 * input-required result that asks for them. No cast on `inputResponses`.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */
import { ErrorCode, ProtocolError, isPlainObject } from '../core/jsonrpc.js';
import type { HandlerContext, ParamsIssue } from '../core/peer.js';

type JsonObject = { [key: string]: unknown };

/**
 * One input a handler asks for: a method of the input-request map `IR` (the generated `InputRequests`) with
 * its params (optional where the schema makes them optional).
 */
export type InputAsk<IR> = {
  [M in keyof IR & string]: IR[M] extends { params: infer P; paramsRequired: true }
    ? { method: M; params: P }
    : IR[M] extends { params: infer P }
      ? { method: M; params?: P }
      : never;
}[keyof IR & string];

/** The response to each input asked for, by name: the result type of its method. */
export type InputResponsesOf<IR, A> = {
  [K in keyof A]: A[K] extends { method: infer M extends keyof IR }
    ? IR[M] extends { result: infer R }
      ? R
      : never
    : never;
};

/**
 * One round of the input-required loop (2026-07-28 on), as `ctx.inputs` reads the request: either the
 * client answered every input asked for (its retry) and `responses` holds them, typed by method; or the
 * handler returns `ask`, the input-required result that asks for them.
 */
export type InputRound<IR, A, Ask> =
  | {
      readonly complete: true;
      readonly responses: InputResponsesOf<IR, A>;
      /** The `requestState` the client sent back with its answers. */
      readonly requestState: string | undefined;
    }
  | { readonly complete: false; readonly ask: Ask };

/**
 * `ctx.inputs(params, { name: { method, params } }, { requestState })`: asks the client for named inputs and
 * reads its typed answers, without a cast on `inputResponses`. Every name must be answered for the round to
 * be complete; otherwise all of them are asked for again (a retry carries only the last round's answers).
 */
export type InputsHelper<IR, Ask> = <A extends { [name: string]: InputAsk<IR> }>(
  /** The request's params, as the handler received them (where `inputResponses` and `requestState` ride). */
  params: object | undefined,
  asks: A,
  options?: { requestState?: string },
) => InputRound<IR, A, Ask>;

/** The runtime side of `ctx.inputs` (untyped here; the generated ServerContext types it). */
export function inputRound(
  params: object | undefined,
  asks: { [name: string]: { method: string; params?: unknown } },
  options?: { requestState?: string },
): InputRound<unknown, unknown, unknown> {
  const received: JsonObject = isPlainObject(params) ? params : {};
  const given = isPlainObject(received['inputResponses']) ? received['inputResponses'] : {};
  const names = Object.keys(asks);
  if (names.every((name) => Object.hasOwn(given, name) && isPlainObject(given[name]))) {
    const state = received['requestState'];
    return {
      complete: true,
      responses: Object.fromEntries(names.map((name) => [name, given[name]])) as never,
      requestState: typeof state === 'string' ? state : undefined,
    };
  }
  const ask: JsonObject = { resultType: 'input_required', inputRequests: { ...asks } };
  if (options?.requestState !== undefined) ask['requestState'] = options.requestState;
  return { complete: false, ask };
}

/**
 * Checks params (`check`), reading an answer in `inputResponses` that fails its schema as no answer: it is
 * dropped and the params checked again. SEP-2322: a server SHOULD ignore what it does not recognise there;
 * SEP-2663: answers to keys that are not outstanding. So an unknown key's garbage does not refuse the whole
 * request, and a handler asks again for an answer of its own that it cannot read. Any other issue stands.
 */
export function checkReadingAnswers(
  params: JsonObject | undefined,
  check: (params: JsonObject | undefined) => ParamsIssue | null,
): ParamsIssue | null {
  let issue = check(params);
  while (issue !== null && params !== undefined) {
    const match = /^\/inputResponses\/([^/]+)/.exec(issue.pointer);
    const key = match?.[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
    const answers = params['inputResponses'];
    if (key === undefined || !isPlainObject(answers) || !Object.hasOwn(answers, key)) return issue;
    const { [key]: _unreadable, ...rest } = answers;
    params['inputResponses'] = rest;
    issue = check(params);
  }
  return issue;
}

/** Input-required rounds a legacy call may take on a modern server. */
const MAX_INPUT_ROUNDS = 8;

/**
 * A modern handler asks for input by returning `input_required`; a legacy client cannot read that, so
 * each embedded request is sent to it as a server→client request within the call, and the handler is
 * called again with the answers (`inputResponses`, `requestState`), as a modern client would retry.
 */
export async function answerInputsInline(
  invoke: (params: unknown) => unknown,
  params: JsonObject | undefined,
  first: unknown,
  ctx: HandlerContext,
): Promise<unknown> {
  let result = first;
  for (let round = 0; isPlainObject(result) && result['resultType'] === 'input_required'; round++) {
    if (round >= MAX_INPUT_ROUNDS) {
      throw new ProtocolError(ErrorCode.InternalError, `still asking for input after ${MAX_INPUT_ROUNDS} rounds`);
    }
    const requests = isPlainObject(result['inputRequests']) ? result['inputRequests'] : {};
    const responses: JsonObject = {};
    for (const [key, request] of Object.entries(requests)) {
      if (!isPlainObject(request) || typeof request['method'] !== 'string') continue;
      const send = ctx.request.bind(ctx) as (method: string, params?: unknown) => Promise<unknown>;
      responses[key] = await send(request['method'], request['params']);
    }
    const retry: JsonObject = { ...params, inputResponses: responses };
    if (typeof result['requestState'] === 'string') retry['requestState'] = result['requestState'];
    result = await invoke(retry);
  }
  return result;
}
