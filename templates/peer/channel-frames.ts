/**
 * What a channel end (channel.ts) checks of a message that arrives as a structured-clone value
 * (`postMessage`), before the engine sees it: a text transport's frames are JSON by construction and
 * measured before they are parsed (core/frame.ts), but a structured clone can carry a Map, a Date, a BigInt,
 * `undefined` in an array or a cycle, and any size. Such a message is refused here as it would be had it
 * come as text: too large, or not JSON.
 *
 * Hand-written runtime copied into generated output. Browser-safe.
 */
import { ErrorCode, isValidRequestId, type RequestId } from '../core/jsonrpc.js';
import { oversize } from '../core/json-size.js';

/** Where a value is not JSON (a JSON pointer from the message) and what is there instead. */
export interface NotJson {
  readonly pointer: string;
  readonly what: string;
}

/** The first place a value is not JSON, or undefined when it is. */
export function notJson(
  value: unknown,
  at: string = '',
  depth: number = 0,
  seen: Set<object> = new Set(),
): NotJson | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : { pointer: at, what: String(value) };
    case 'object':
      break;
    default:
      return { pointer: at, what: typeof value === 'bigint' ? 'a BigInt' : typeof value };
  }
  if (value === null) return undefined;
  if (seen.has(value) || depth > 256) return { pointer: at, what: 'circular or nested too deeply' };
  const proto: unknown = Object.getPrototypeOf(value);
  const array = Array.isArray(value);
  if (!array && proto !== Object.prototype && proto !== null) {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return { pointer: at, what: typeof name === 'string' && name !== '' ? `a ${name}` : 'not a plain object' };
  }
  seen.add(value);
  const keys = array ? Array.from((value as unknown[]).keys(), String) : Object.keys(value);
  for (const key of keys) {
    const item = (value as { [key: string]: unknown })[key];
    // An undefined property is left out by JSON, as if absent; an undefined array item would become null.
    if (item === undefined && !array) continue;
    const problem = notJson(item, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1, seen);
    if (problem !== undefined) return problem;
  }
  seen.delete(value);
  return undefined;
}

/** What becomes of a refused message: the answer to send (a request), the error to settle a call with, or a note. */
export type Refusal =
  | {
      readonly kind: 'answer';
      readonly id: RequestId;
      readonly code: number;
      readonly message: string;
      readonly data?: object;
    }
  | { readonly kind: 'settle'; readonly id: RequestId; readonly message: string }
  | { readonly kind: 'drop'; readonly message: string };

/**
 * Why a received structured-clone message is refused, or undefined when it may go on. A request is
 * answered (-32602 with the pointer when its params hold what JSON cannot carry, else -32600), a response
 * settles its call with an error (the caller is not left waiting for a timeout), anything else is dropped.
 */
export function refusal(message: unknown, maxFrameSize: number): Refusal | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const fields = message as { [key: string]: unknown };
  const id = fields['id'];
  const problem = notJson(message);
  let reason: string;
  if (problem === undefined) {
    const size = oversize(message, maxFrameSize);
    if (size === undefined) return undefined;
    reason = `message of ${size} bytes exceeds maxFrameSize (${maxFrameSize} bytes)`;
  } else {
    reason = `${problem.pointer || '/'} is ${problem.what}, which JSON cannot carry`;
  }
  if (!isValidRequestId(id)) return { kind: 'drop', message: `Message dropped: ${reason}` };
  if (typeof fields['method'] === 'string') {
    if (problem === undefined || !problem.pointer.startsWith('/params/')) {
      return { kind: 'answer', id, code: ErrorCode.InvalidRequest, message: `Invalid Request: ${reason}` };
    }
    const pointer = problem.pointer.slice('/params'.length);
    const what = `is ${problem.what}, which JSON cannot carry`;
    return {
      kind: 'answer',
      id,
      code: ErrorCode.InvalidParams,
      message: `Invalid params: ${pointer} ${what}`,
      data: { pointer, message: what },
    };
  }
  return { kind: 'settle', id, message: `Malformed response: ${reason}` };
}
