/**
 * Locates the first syntax error of a JSON text (RFC 8259), so that errors can name a line and column
 * in the same words on every Node version (V8's JSON.parse messages vary and do not always carry a
 * position). Only called after JSON.parse has failed.
 */
export interface JsonSyntaxError {
  /** Character offset of the error. */
  offset: number;
  /** 1-based line and column of `offset`. */
  line: number;
  column: number;
  /** E.g. `unexpected character "}"`, `unexpected end of input`. */
  message: string;
}

class Failure {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

/**
 * Returns the first syntax error of `text`, or null when it is valid JSON.
 *
 * Long because it is one recursive-descent scanner: the nested readers share the position `i` and
 * `fail`, and split into separate functions they would pass that state around on every call.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  let i = 0;
  const fail = (message?: string): never => {
    throw new Failure(
      i,
      message ?? (i >= text.length ? 'unexpected end of input' : `unexpected character ${JSON.stringify(text[i])}`),
    );
  };
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const literal = (word: string): void => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const ch = text[i] as string; // i < text.length, checked above
      if (ch === '"') {
        i++;
        return;
      }
      if (ch < ' ') fail('control character in string');
      if (ch === '\\') {
        i++;
        const esc = text[i];
        if (esc === 'u') {
          i++;
          for (let k = 0; k < 4; k++) {
            if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail('invalid \\u escape');
            i++;
          }
          continue;
        }
        if (esc === undefined || !'"\\/bfnrt'.includes(esc)) fail('invalid escape');
      }
      i++;
    }
  };
  const digits = (): void => {
    if (!/[0-9]/.test(text[i] ?? '')) fail();
    while (/[0-9]/.test(text[i] ?? '')) i++;
  };
  const number = (): void => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(text[i] === '}' ? 'trailing comma' : undefined);
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail();
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] === ']') fail('trailing comma');
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail();
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    fail();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return null;
  } catch (e) {
    if (!(e instanceof Failure)) throw e;
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < e.offset; k++) {
      if (text[k] === '\n') {
        line++;
        lineStart = k + 1;
      }
    }
    return { offset: e.offset, line, column: e.offset - lineStart + 1, message: e.message };
  }
}
