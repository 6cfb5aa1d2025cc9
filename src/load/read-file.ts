/** Reading a file the user named: every failure is one InputError naming the path and the errno meaning. */
import { readFile } from 'node:fs/promises';
import { InputError, describeFsError } from '../errors.js';

/**
 * `what` names the file in the message ("file", "ignore file"); `notFound` replaces the ENOENT message
 * where the caller can say more (e.g. what else the argument could have been).
 */
export async function readUserFile(file: string, what = 'file', notFound = `${what} not found`): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      file,
      undefined,
      code === 'ENOENT' ? notFound : `cannot read ${what}: ${describeFsError(error)}`,
    );
  }
}
