/**
 * The result fields the runtime fills in (server-base.ts): the handler-side type of such a result, and the filling,
 * done in place: the handler has handed its result over, so it is not copied (a frozen one is, first).
 *
 * Hand-written runtime copied into generated output.
 */
import { isPlainObject } from '../core/jsonrpc.js';
import { sealJson } from '../core/json-size.js';
import type { ProtocolDescription } from './protocol.js';

type JsonObject = { [key: string]: unknown };
/**
 * A result as a handler may return it: the fields the runtime fills in (`K`, from
 * PROTOCOL.facts.resultDefaults) optional, every other field as the schema says.
 */
export type WithDefaults<R, K extends string> = R extends unknown
  ? { [P in keyof R as P extends K ? never : P]: R[P] } & { [P in K & keyof R]?: R[P] }
  : never;

/**
 * What every result of one method is given, prepared once per method (server-base.ts): the fields it may leave
 * out (`resultType`, and the list results' `cacheScope`/`ttlMs` in 2026-07-28), as field, value, field, value…,
 * and, 2026-07-28 on, the server's `_meta` entry.
 */
export interface ResultFill {
  readonly defaults: readonly unknown[];
  /** `{ [key]: serverInfo }`, sealed (core/json-size.ts): shared by every result, so never measured or copied again. */
  readonly meta: JsonObject | undefined;
  readonly key: string;
}

/**
 * Each method's fill, prepared on first use: its PROTOCOL.facts.resultDefaults and, when the version names the
 * server in every result, one sealed `{ [key]: serverInfo }` for all. Undefined for a method given nothing.
 */
export function resultFills(
  protocol: ProtocolDescription,
  serverInfo: object,
): (method: string) => ResultFill | undefined {
  const fills = new Map<string, ResultFill | undefined>();
  const key = protocol.facts.metaKeys['serverInfo'] ?? '';
  let meta: JsonObject | undefined;
  return (method) => {
    if (fills.has(method)) return fills.get(method);
    const all = protocol.facts.resultDefaults;
    const defaults = Object.hasOwn(all, method) ? Object.entries(all[method] ?? {}).flat() : [];
    if (protocol.features.perRequestMeta && key !== '') meta ??= sealJson({ [key]: serverInfo });
    const fill = defaults.length > 0 || meta !== undefined ? { defaults, meta, key } : undefined;
    fills.set(method, fill);
    return fill;
  };
}

/**
 * `result` with what `fill` says set where the handler left it out: the defaults (not on a result that asks for
 * input) and the server's `_meta` (the shared one when the result brings none, else its own with the entry set).
 */
export function fillResult(result: unknown, fill: ResultFill): unknown {
  if (!isPlainObject(result)) return result;
  const out = writable(result);
  const { defaults, meta } = fill;
  if (!('inputRequests' in out || 'requestState' in out || out['resultType'] === 'input_required')) {
    for (let i = 0; i < defaults.length; i += 2) {
      const field = defaults[i] as string;
      if (out[field] === undefined) out[field] = defaults[i + 1];
    }
  }
  const own = out['_meta'];
  if (meta === undefined || own === meta) return out;
  let merged = meta;
  if (isPlainObject(own)) {
    merged = writable(own);
    merged[fill.key] = meta[fill.key];
  }
  out['_meta'] = merged;
  return out;
}

/** `target` itself, or a copy when it is frozen (or otherwise not extensible): a constant a handler returns. */
function writable(target: JsonObject): JsonObject {
  return Object.isExtensible(target) ? target : { ...target };
}
