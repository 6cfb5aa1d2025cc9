import { InputError } from '../errors.js';
import { findJsonSyntaxError } from './json-position.js';
import { escapePointerToken } from './pointer.js';

/**
 * How deep a document may nest. Every walk over a schema recurses; far deeper than any real schema, far
 * below where a walk would overflow the stack. Extension files are held to the same (json-structure.ts).
 */
export const MAX_JSON_DEPTH = 200;

/**
 * Parse JSON text; on failure throw an InputError naming the line and column, in the same words on
 * every Node version (V8's own messages vary). Used for schemas, extension files and config files.
 */
export function parseJson(text: string, file: string): unknown {
  // A UTF-8 byte order mark is not JSON, but editors write it: accept it.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    const found = findJsonSyntaxError(body);
    const where = found ? `line ${found.line}, column ${found.column}: ${found.message}` : 'unknown position';
    throw new InputError(file, undefined, `invalid JSON at ${where}`);
  }
  const tooDeep = pointerBeyondDepth(value, MAX_JSON_DEPTH);
  if (tooDeep !== undefined) throw new InputError(file, tooDeep, `nested deeper than ${MAX_JSON_DEPTH} levels`);
  return value;
}

/** The pointer of the first value (in document order) at depth `limit`, else undefined. Iterative: cannot overflow. */
function pointerBeyondDepth(root: unknown, limit: number): string | undefined {
  const stack: { value: unknown; pointer: string; depth: number }[] = [{ value: root, pointer: '', depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (typeof top.value !== 'object' || top.value === null) continue;
    if (top.depth >= limit) return top.pointer;
    for (const [key, child] of Object.entries(top.value).reverse())
      stack.push({ value: child, pointer: `${top.pointer}/${escapePointerToken(key)}`, depth: top.depth + 1 });
  }
  return undefined;
}
