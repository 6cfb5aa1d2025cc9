/**
 * What a modern client reads of the server's era: the version lists a server sends, and a legacy server's
 * results as the modern types read them.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */
import { isPlainObject } from '../core/jsonrpc.js';
import type { ProtocolFacts } from './protocol.js';

/** The strings of a version list a server sent (an error's `supported`, a discover result's `supportedVersions`). */
export function stringsOf(list: unknown): string[] {
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * A legacy server's result as a modern client reads it: filled with the defaults a modern server would use
 * (`resultType`, a list's cache fields: `facts.resultDefaults`), as the modern types promise.
 */
export function fromLegacy(facts: ProtocolFacts, method: string, result: unknown): unknown {
  if (!isPlainObject(result)) return result;
  const defaults = facts.resultDefaults;
  return Object.assign(
    { resultType: 'complete' },
    Object.hasOwn(defaults, method) ? defaults[method] : undefined,
    result,
  );
}
