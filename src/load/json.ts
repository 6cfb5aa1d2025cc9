import { InputError } from '../errors.js';

/** Parse JSON text; on failure throw an InputError that names the line and column. */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const { line, column } = locateJsonError(text, message);
    const detail = message.replace(/\s*in JSON at position \d+.*$/s, '').replace(/\s*\(line \d+ column \d+\)$/, '');
    throw new InputError(file, undefined, `invalid JSON at line ${line}, column ${column}: ${detail}`);
  }
}

/** V8 reports a character offset ("at position N"); users want a line and a column. */
function locateJsonError(text: string, message: string): { line: number; column: number } {
  const explicit = /line (\d+) column (\d+)/.exec(message);
  if (explicit) return { line: Number(explicit[1]), column: Number(explicit[2]) };
  const at = /at position (\d+)/.exec(message);
  const offset = at ? Number(at[1]) : text.length;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
