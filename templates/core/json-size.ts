/**
 * How large a message's JSON is, measured without serializing it when a cheap upper bound already says it
 * fits: the engine checks every frame it sends against `maxFrameSize`.
 *
 * Hand-written runtime copied unchanged into generated output. No dependencies.
 */
import { oversizeText } from './frame.js';

type JsonObject = { [key: string]: unknown };

/**
 * Values the runtime built itself and froze (`sealJson`), with their size bound: every message that carries one
 * (2026-07-28's per-request `_meta`, the server's info in every result) neither measures nor copies it again.
 */
const sealed = new WeakMap<object, number>();

/**
 * A deeply frozen copy of `value` as JSON would carry it (so it is plain data, exactly what a wire gives the
 * other side), remembered: `jsonSizeBound` reads its size and the in-memory transport passes it on uncopied.
 */
export function sealJson<T extends object>(value: T): T {
  // JSON.parse hands the reviver each value after its members: every object is frozen and measured innermost first.
  return JSON.parse(JSON.stringify(value), (_key, item: unknown) => {
    if (typeof item === 'object' && item !== null) {
      sealed.set(item, jsonSizeBound(item, 0));
      Object.freeze(item);
    }
    return item;
  }) as T;
}

/** True for a value `sealJson` made: frozen JSON data, safe to share. */
export function isSealed(value: object): boolean {
  return sealed.has(value);
}

/** The UTF-8 size of a message's JSON if it exceeds `limit`, else undefined. Throws if unserializable. */
export function oversize(message: unknown, limit: number): number | undefined {
  if (limit === Infinity) return undefined;
  // Serializing every message just to measure it would cost more than the rest of the send path.
  if (jsonSizeBound(message, 0) <= limit) return undefined;
  const text = JSON.stringify(message);
  return oversizeText(text, limit);
}

/**
 * An upper bound on the UTF-8 bytes of `value`'s JSON, found without serializing; Infinity when it cannot
 * tell cheaply (class instances, toJSON, deep or circular values, BigInt), so the caller measures exactly.
 */
function jsonSizeBound(value: unknown, depth: number): number {
  if (typeof value === 'string') return value.length * 6 + 2; // worst case per UTF-16 unit: a \u00XX escape
  // Any other leaf is at most as long as the longest number (true, false, null, and what JSON leaves out, are
  // shorter); JSON refuses a BigInt: Infinity makes the caller measure exactly, which throws.
  if (typeof value !== 'object' || value === null) return typeof value === 'bigint' ? Infinity : 24;
  const known = sealed.get(value);
  if (known !== undefined) return known;
  if (depth > 32) return Infinity;
  let total = 2;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) total += jsonSizeBound(value[i], depth + 1) + 1;
    return total;
  }
  const proto = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return Infinity;
  }
  for (const key in value) {
    total += key.length * 6 + 3 + jsonSizeBound((value as JsonObject)[key], depth + 1) + 1;
  }
  return total;
}
