/**
 * The result fields the runtime fills in (server-base.ts): the handler-side type of such a result, and the filling,
 * done in place: the handler has handed its result over, so it is not copied (a frozen one is, first).
 *
 * Hand-written runtime copied into generated output as `runtime/result-defaults.ts`.
 */
import { isPlainObject } from './jsonrpc.js';

type JsonObject = { [key: string]: unknown };
/**
 * A result as a handler may return it: the fields the runtime fills in (`K`, from
 * PROTOCOL.facts.resultDefaults) optional, every other field as the schema says.
 */
export type WithDefaults<R, K extends string> = R extends unknown
  ? { [P in keyof R as P extends K ? never : P]: R[P] } & { [P in K & keyof R]?: R[P] }
  : never;

/**
 * `result` with the fields it leaves out of `defaults` (`resultType`, and the list results' `cacheScope`/`ttlMs` in
 * 2026-07-28) set. A result that asks for input is left alone.
 */
export function withDefaults(result: unknown, defaults: JsonObject | undefined): unknown {
  if (defaults === undefined || !isPlainObject(result)) return result;
  if ('inputRequests' in result || 'requestState' in result || result['resultType'] === 'input_required') return result;
  let filled = result;
  for (const field in defaults) if (!(field in filled)) filled = withField(filled, field, defaults[field]);
  return filled;
}

/**
 * `result` naming the server in its `_meta`: `shared` (sealed, json-size.ts, so never measured or copied again) when
 * it brings no `_meta`, else its own `_meta` with the server's entry (`key`) set.
 */
export function withServerMeta(result: unknown, shared: JsonObject, key: string): unknown {
  if (!isPlainObject(result)) return result;
  const meta = result['_meta'];
  if (meta === shared) return result;
  if (!isPlainObject(meta)) return withField(result, '_meta', shared);
  return withField(result, '_meta', withField(meta, key, shared[key]));
}

/** `target` with `key` set: in place, or on a copy when `target` is frozen (or otherwise not extensible). */
function withField(target: JsonObject, key: string, value: unknown): JsonObject {
  if (!Object.isExtensible(target)) return { ...target, [key]: value };
  target[key] = value;
  return target;
}
