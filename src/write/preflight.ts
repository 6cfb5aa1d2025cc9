/**
 * Before the seconds of generation: can the output directory be written at all? A path that is a file,
 * a read-only directory or a full disk is the user's to fix, reported as one line with the path and
 * the errno's meaning — never as an internal error after the work is done. Leaves nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { InputError, describeFsError } from '../errors.js';

const HINT = 'choose another --out (or "out"), or fix that path';

export async function assertWritableOutDir(outDir: string): Promise<void> {
  // The deepest part of the path that exists must be a directory we can create files in.
  let dir = outDir;
  for (;;) {
    try {
      const found = await stat(dir);
      if (!found.isDirectory()) {
        throw new InputError(
          dir,
          undefined,
          dir === outDir
            ? 'the output directory is a file, not a directory'
            : `ENOTDIR (a part of the output path is a file, not a directory)`,
          HINT,
        );
      }
      break;
    } catch (error) {
      if (error instanceof InputError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      // ENOTDIR: a file further up; walking up finds it and names it.
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        throw new InputError(dir, undefined, `cannot use the output directory: ${describeFsError(error)}`, HINT);
      const parent = dirname(dir);
      if (parent === dir) return;
      dir = parent;
    }
  }
  const probe = join(dir, `.${randomBytes(6).toString('hex')}.mcp-typegen-probe`);
  try {
    await writeFile(probe, '');
  } catch (error) {
    throw new InputError(dir, undefined, `cannot write the output directory: ${describeFsError(error)}`, HINT);
  }
  await rm(probe, { force: true });
}
