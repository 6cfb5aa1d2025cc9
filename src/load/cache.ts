/// <reference types="node" preserve="true" />
/**
 * The user cache of downloaded spec schemas: `<cache>/schemas/<version>/schema.json`, where <cache> is
 * $MCP_TYPEGEN_CACHE, else $XDG_CACHE_HOME/mcp-typegen, else ~/.cache/mcp-typegen.
 *
 * Only verified bytes are ever written, through a temp file and a rename in the same directory, so two
 * processes pulling at once never leave a torn file (the second rename replaces identical bytes).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { InputError, describeFsError } from '../errors.js';

export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MCP_TYPEGEN_CACHE) return resolve(env.MCP_TYPEGEN_CACHE);
  if (env.XDG_CACHE_HOME) return resolve(env.XDG_CACHE_HOME, 'mcp-typegen');
  return join(homedir(), '.cache', 'mcp-typegen');
}

export function cachedSchemaFile(version: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'schemas', version, 'schema.json');
}

/** Write verified bytes into the cache atomically. A failure names the path, errno and the way out. */
export async function writeCached(file: string, bytes: Buffer): Promise<void> {
  await writeAtomically(file, bytes).catch((error: unknown) => {
    throw new InputError(
      file,
      undefined,
      `cannot write the schema cache: ${describeFsError(error)}; set MCP_TYPEGEN_CACHE to a writable directory, or pass --schema-dir <dir>`,
    );
  });
}

/**
 * Writes through a temp file in the same folder and a rename, so no reader sees half a file; the temp file is gone
 * when it fails. `modes.file` is the file's mode whatever the umask; `modes.dir` that of a folder it creates.
 */
export async function writeAtomically(
  file: string,
  bytes: string | Buffer,
  modes: { file?: number; dir?: number } = {},
): Promise<void> {
  const temp = join(dirname(file), `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(dirname(file), { recursive: true, ...(modes.dir === undefined ? {} : { mode: modes.dir }) });
    await writeFile(temp, bytes, modes.file === undefined ? {} : { mode: modes.file });
    // The mode a file is created with yields to the umask; one asked for must not.
    if (modes.file !== undefined) await chmod(temp, modes.file);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}
