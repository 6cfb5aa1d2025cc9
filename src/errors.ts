/// <reference types="node" preserve="true" />
/**
 * Errors about the user's input. Every one names the file and, where it applies, the JSON pointer
 * inside it, so the CLI can print one clear line and exit with code 2.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    /** The file (or other source, e.g. `git:main:schema.json`) the problem is in. */
    readonly file: string,
    /** RFC 6901 JSON pointer into that file, `''` for the whole document, undefined when not applicable. */
    readonly pointer: string | undefined,
    readonly reason: string,
    /** An optional hint for the user, printed after the error line. */
    readonly hint?: string,
  ) {
    super(`${file}${pointer !== undefined ? `#${pointer}` : ''}: ${reason}`);
  }
}

const ERRNO_MEANINGS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EISDIR: 'is a directory',
  EEXIST: 'already exists',
  ENOENT: 'no such file or directory',
  EMFILE: 'too many open files',
  EBUSY: 'resource busy',
  ENAMETOOLONG: 'name too long',
};

/** A file-system error as "CODE (meaning)", for one-line user errors. */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code) return `${code} (${ERRNO_MEANINGS[code] ?? 'file-system error'})`;
  return error instanceof Error ? error.message : String(error);
}

/** True for a Node file-system error (it carries an errno code such as EACCES). */
export function isFsError(error: unknown): error is NodeJS.ErrnoException {
  const e = error as NodeJS.ErrnoException | undefined;
  return typeof e?.code === 'string' && /^E[A-Z]+$/.test(e.code) && typeof e.syscall === 'string';
}

/**
 * C0/C1 control characters and the Unicode line separators: never meant in a method name or a path, and
 * they would split or drive the terminal line an error is printed on.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
