/**
 * The `$ref` forms an extension file may use besides `mcp:<Name>`: `#/definitions/<Name>` (this file) and
 * `<file>#/definitions/<Name>` (another extension file, relative to this one).
 */
import { dirname, isAbsolute, posix, resolve } from 'node:path';

/** `#/definitions/Name`: a definition of the same file. */
export const LOCAL_REF = /^#\/definitions\/([^/]*)$/;
/** `shared.extension.json#/definitions/Name`: a definition of another extension file, relative to this one. */
export const FILE_REF = /^([^#:]+)#\/definitions\/([^/]*)$/;

/** The file a cross-file `$ref` names: relative to the referring file (a path, or e.g. `git:<ref>:<path>`). */
export function resolveSibling(file: string, relative: string): string {
  return isAbsolute(file) ? resolve(dirname(file), relative) : posix.join(posix.dirname(file), relative);
}
