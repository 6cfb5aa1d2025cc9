/**
 * The token file of `snapshot --auth`: one JSON object of strings (the OAuth client's records, by name), readable by
 * this user only — mode 0600 in a 0700 folder, written through a temp file and a rename, one write at a time.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { KeyValueStorage } from '../../templates/auth.js';
import { InputError, describeFsError } from '../errors.js';

export function jsonFileStorage(file: string): KeyValueStorage {
  let writing: Promise<void> = Promise.resolve();
  const read = async (): Promise<Record<string, string>> => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new InputError(file, undefined, `cannot read the token file: ${describeFsError(error)}`);
    }
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, string>;
    } catch {
      // Said below.
    }
    throw new InputError(file, '', 'is no JSON object of tokens', 'delete it to authorize again');
  };
  const update = (change: (records: Record<string, string>) => void): Promise<void> => {
    const next = writing.then(async () => {
      const records = await read();
      change(records);
      await write(file, JSON.stringify(records, null, 2));
    });
    // The next write waits for this one, failed or not; the caller hears how this one went.
    writing = next.catch(() => undefined);
    return next;
  };
  return {
    getItem: async (name) => {
      await writing;
      return (await read())[name];
    },
    setItem: (name, value) => update((records) => void (records[name] = value)),
    removeItem: (name) => update((records) => void delete records[name]),
  };
}

async function write(file: string, text: string): Promise<void> {
  const temp = join(dirname(file), `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(temp, `${text}\n`, { mode: 0o600 });
    // The mode a file is created with yields to the umask; the token file's must not.
    await chmod(temp, 0o600);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new InputError(
      file,
      undefined,
      `cannot write the token file: ${describeFsError(error)}`,
      'set MCP_TYPEGEN_CACHE to a writable directory',
    );
  }
}
