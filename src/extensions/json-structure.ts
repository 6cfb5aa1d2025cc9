/**
 * Structural checks JSON.parse does not make, on the text of a valid JSON document: a key repeated in
 * one object (JSON.parse silently keeps the last) and nesting deeper than any real schema needs (the
 * recursive walks after parsing would overflow the stack). One iterative pass, so a hostile
 * 100,000-deep file costs no stack either.
 */
import { escapePointerToken } from '../load/pointer.js';
import { MAX_JSON_DEPTH } from '../load/json.js';

/** Deeper than any extension file needs; far below what the recursive schema walks can take. */
export const MAX_DEPTH = MAX_JSON_DEPTH;

export interface StructureProblem {
  /** JSON pointer of the offending value (the repeated key's value, or the first value too deep). */
  pointer: string;
  reason: string;
}

interface Frame {
  kind: 'object' | 'array';
  keys: Set<string>;
  /** The pointer of this container. */
  pointer: string;
  /** The next array index, or the key just read. */
  index: number;
  key: string | undefined;
}

/**
 * The first duplicate key or too-deep value of `text` (which JSON.parse has accepted), or null.
 *
 * Long because it is one scanner loop over the container stack; its readers share the position `i`.
 */
export function findStructureProblem(text: string): StructureProblem | null {
  const stack: Frame[] = [];
  let i = 0;
  /** The pointer of the value about to start in the innermost container. */
  const childPointer = (): string => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    return `${top.pointer}/${top.kind === 'array' ? String(top.index) : escapePointerToken(top.key ?? '')}`;
  };
  const readString = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  let expectKey = false;
  while (i < text.length) {
    const ch = text.charAt(i);
    if (ch === '{' || ch === '[') {
      const pointer = childPointer();
      if (stack.length >= MAX_DEPTH) {
        return { pointer, reason: `nested deeper than ${MAX_DEPTH} levels` };
      }
      stack.push({ kind: ch === '{' ? 'object' : 'array', keys: new Set(), pointer, index: 0, key: undefined });
      expectKey = ch === '{';
      i++;
    } else if (ch === '}' || ch === ']') {
      stack.pop();
      expectKey = false;
      i++;
    } else if (ch === ',') {
      const top = stack.at(-1);
      if (top?.kind === 'array') top.index++;
      else expectKey = true;
      i++;
    } else if (ch === '"') {
      const at = i;
      const value = readString();
      const top = stack[stack.length - 1];
      if (expectKey && top) {
        if (top.keys.has(value)) {
          return {
            pointer: `${top.pointer}/${escapePointerToken(value)}`,
            reason: `duplicate key "${value}" at ${lineAndColumn(text, at)} (JSON.parse would silently keep the last one)`,
          };
        }
        top.keys.add(value);
        top.key = value;
        expectKey = false;
      }
    } else {
      i++;
    }
  }
  return null;
}

/** "line L, column C" of an offset (1-based), for messages. */
function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let column = 1;
  for (let k = 0; k < offset; k++) {
    if (text[k] === '\n') {
      line++;
      column = 1;
    } else column++;
  }
  return `line ${line}, column ${column}`;
}
