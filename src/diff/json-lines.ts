/**
 * The 1-based line of the value at each of some JSON pointers in a JSON text, in one pass — for
 * `file=`/`line=` of GitHub annotations. The text is valid JSON (it was parsed before).
 */
import { escapePointerToken } from '../load/pointer.js';

export function pointerLines(text: string, pointers: Iterable<string>): Map<string, number> {
  const wanted = new Set(pointers);
  const found = new Map<string, number>();
  if (wanted.size === 0) return found;
  let i = 0;
  let line = 1;
  const ws = () => {
    for (; i < text.length; i++) {
      const ch = text[i];
      if (ch === '\n') line++;
      else if (ch !== ' ' && ch !== '\t' && ch !== '\r') return;
    }
  };
  const string = (): string => {
    const start = i;
    for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  // Recursive descent; schema documents nest a few dozen levels at most.
  const value = (ptr: string): void => {
    ws();
    if (wanted.has(ptr)) found.set(ptr, line);
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        const key = string();
        ws();
        i++; // ':'
        value(`${ptr}/${escapePointerToken(key)}`);
        ws();
        if (text[i++] === '}') return;
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (let n = 0; ; n++) {
        value(`${ptr}/${n}`);
        ws();
        if (text[i++] === ']') return;
      }
    }
    if (ch === '"') return void string();
    while (i < text.length && !',}] \t\r\n'.includes(text.charAt(i))) i++;
  };
  value('');
  return found;
}
