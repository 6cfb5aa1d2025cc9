import { InputError } from '../errors.js';
import { findJsonSyntaxError } from './json-position.js';

/**
 * Parse JSON text; on failure throw an InputError naming the line and column, in the same words on
 * every Node version (V8's own messages vary). Used for schemas, extension files and config files.
 */
export function parseJson(text: string, file: string): unknown {
  // A UTF-8 byte order mark is not JSON, but editors write it: accept it.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch {
    const found = findJsonSyntaxError(body);
    const where = found ? `line ${found.line}, column ${found.column}: ${found.message}` : 'unknown position';
    throw new InputError(file, undefined, `invalid JSON at ${where}`);
  }
}
