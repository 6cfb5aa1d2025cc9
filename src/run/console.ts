/// <reference types="node" preserve="true" />
/**
 * Console output: one line per target, errors as one clear line plus a hint, colour only on a TTY and
 * never with NO_COLOR.
 */
import { CONTROL_CHARACTERS, InputError } from '../errors.js';

export type Verbosity = 'quiet' | 'normal' | 'verbose';

export interface Out {
  info(line: string): void;
  verbose(line: string): void;
  warn(line: string): void;
  error(line: string, hint?: string): void;
}

export function useColour(stream: NodeJS.WriteStream): boolean {
  return (
    Boolean(stream.isTTY) &&
    !('NO_COLOR' in process.env && process.env.NO_COLOR !== undefined) &&
    process.env.TERM !== 'dumb'
  );
}

const paint = (on: boolean, code: number, text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

/**
 * One printable line: names from the input (a method, a path) may hold a newline, a NUL or an escape
 * sequence, which would split the line or drive the terminal; they are shown escaped (`\n`, `\u0000`).
 */
export function oneLine(text: string): string {
  return text.replace(new RegExp(CONTROL_CHARACTERS.source, 'g'), (c) =>
    c === '\n'
      ? '\\n'
      : c === '\r'
        ? '\\r'
        : c === '\t'
          ? '\\t'
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function createOut(
  verbosity: Verbosity,
  stdout: NodeJS.WriteStream = process.stdout,
  stderr: NodeJS.WriteStream = process.stderr,
): Out {
  const colourErr = useColour(stderr);
  return {
    info: (line) => {
      if (verbosity !== 'quiet') stdout.write(`${line}\n`);
    },
    verbose: (line) => {
      if (verbosity === 'verbose') stdout.write(`${line}\n`);
    },
    warn: (line) => {
      if (verbosity !== 'quiet') stderr.write(`${paint(colourErr, 33, 'warning')}: ${oneLine(line)}\n`);
    },
    error: (line, hint) => {
      stderr.write(`${paint(colourErr, 31, 'error')}: ${oneLine(line)}\n`);
      if (hint) stderr.write(`  hint: ${oneLine(hint)}\n`);
    },
  };
}

/** Exit codes: 0 ok, 1 found something (stale output, breaking change), 2 bad input or usage. */
export const EXIT = { ok: 0, found: 1, badInput: 2 } as const;

/** Report an error thrown by a command; returns the exit code. */
export function reportError(out: Out, error: unknown): number {
  if (error instanceof InputError) {
    out.error(error.message, error.hint);
    return EXIT.badInput;
  }
  if (error instanceof UsageError) {
    out.error(error.message, error.hint);
    return EXIT.badInput;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  out.error(`internal error: ${message}`, 'this is a bug in mcp-typegen; please report it with the command you ran');
  return EXIT.badInput;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
