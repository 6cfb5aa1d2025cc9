/**
 * The error for an extension file that cannot be read. A missing one says what was probably meant: a file
 * of a close name beside it (`mcp.extenson.json` → `mcp.extension.json`), or, for a value shaped like an
 * extension id (`io.modelcontextprotocol/task`), the official id it misspells, with the official ids listed.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { InputError, describeFsError } from '../errors.js';
import { closest } from '../load/suggest.js';
import { OFFICIAL_EXTENSIONS } from './official.js';

/** `vendor.domain/name` (the last two segments of a path that was written as an id). */
const ID_SHAPE = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+\/[\w.-]+$/i;

function filesBeside(path: string): string[] {
  try {
    return readdirSync(dirname(path)).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
}

/** `referrer`: the file whose `$ref` named `path`, never suggested for it (a typo there is rarely the file itself). */
export function extensionReadError(path: string, error: unknown, referrer?: string): InputError {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT')
    return new InputError(path, undefined, `cannot read extension file: ${describeFsError(error)}`);
  const asId = `${basename(dirname(path))}/${basename(path)}`;
  const ids = Object.keys(OFFICIAL_EXTENSIONS);
  if (ID_SHAPE.test(asId) && !asId.endsWith('.json')) {
    const id = closest(asId, ids);
    return new InputError(
      path,
      undefined,
      `no such extension file, nor official extension "${asId}"${id ? `: did you mean ${id}?` : ''}`,
      `official extension ids: ${ids.join(', ')}`,
    );
  }
  const candidates = filesBeside(path).filter(
    (name) => referrer === undefined || resolve(dirname(path), name) !== resolve(referrer),
  );
  const file = closest(basename(path), candidates);
  return new InputError(
    path,
    undefined,
    `extension file not found${file ? `: did you mean ${file} (in the same directory)?` : ''}`,
    file ? undefined : `official extension ids: ${ids.join(', ')}`,
  );
}
