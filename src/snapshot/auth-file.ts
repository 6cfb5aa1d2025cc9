/**
 * The token file of `snapshot --auth`: one JSON object of strings (the OAuth client's records, by name), readable by
 * this user only — mode 0600 in a 0700 folder, written through a temp file and a rename, one write at a time.
 */
import { readFile } from 'node:fs/promises';
import type { KeyValueStorage } from '../../templates/auth.js';
import { InputError, describeFsError } from '../errors.js';
import { writeAtomically } from '../load/cache.js';

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
  await writeAtomically(file, `${text}\n`, { file: 0o600, dir: 0o700 }).catch((error: unknown) => {
    throw new InputError(
      file,
      undefined,
      `cannot write the token file: ${describeFsError(error)}`,
      'set MCP_TYPEGEN_CACHE to a writable directory',
    );
  });
}
