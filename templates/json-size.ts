/**
 * How large a message's JSON is, measured without serializing it when a cheap upper bound already says it
 * fits: the engine checks every frame it sends against `maxFrameSize`.
 *
 * Hand-written runtime copied unchanged into generated output (as `runtime/json-size.ts`). No dependencies.
 */
import { oversizeText } from './frame.js';

type JsonObject = { [key: string]: unknown };

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
  switch (typeof value) {
    case 'string':
      return value.length * 6 + 2; // worst case per UTF-16 unit: a \u00XX escape
    case 'number':
      return 24;
    case 'boolean':
      return 5;
    case 'undefined':
    case 'function':
    case 'symbol':
      return 4;
    case 'object':
      break;
    default:
      return Infinity;
  }
  if (value === null) return 4;
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
