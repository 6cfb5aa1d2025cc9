/// <reference types="node" preserve="true" />
/**
 * Where a `--spec <version>` schema comes from, in this order:
 *
 *   1. `--schema-dir <dir>`   → <dir>/<version>/schema.json
 *   2. `$MCP_SCHEMA_DIR`      → the same layout
 *   3. the user cache         → <cache>/schemas/<version>/schema.json (see cache.ts)
 *   4. a download             → the URL in schema/mcp-versions.json (or MCP_TYPEGEN_SCHEMA_BASE_URL),
 *                               verified against its sha256, then cached
 *
 * A schema root the user names (1, 2) is authoritative: a version missing there is an error, never a
 * silent download. Only versions in the manifest are downloaded or cached.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { cachedSchemaFile, writeCached } from './cache.js';
import { download, isOffline, type FetchPolicy } from './download.js';
import { sha256 } from './hash.js';
import { downloadUrl, knownVersion, knownVersionNames, type KnownVersion } from './manifest.js';
import { readUserFile } from './read-file.js';
import { didYouMean } from './suggest.js';

export interface SpecRootInput {
  /** `--schema-dir`, relative to `cwd`. */
  schemaDir?: string;
  cwd?: string;
}

export type SpecLocation =
  | { kind: 'dir'; version: string; file: string; via: string; known?: KnownVersion }
  | { kind: 'cache'; version: string; file: string; known: KnownVersion }
  | { kind: 'download'; version: string; file: string; url: string; known: KnownVersion };

/** The schema root the user named (flag, then env), or undefined when the cache and downloads apply. */
export function explicitRoot(input: SpecRootInput, env: NodeJS.ProcessEnv = process.env) {
  const cwd = input.cwd ?? process.cwd();
  if (input.schemaDir) return { root: resolve(cwd, input.schemaDir), via: '--schema-dir' };
  if (env.MCP_SCHEMA_DIR) return { root: resolve(cwd, env.MCP_SCHEMA_DIR), via: 'MCP_SCHEMA_DIR' };
  return undefined;
}

/** Where `version` is or would come from; throws for an unknown version or one missing from a named root. */
export function locateSpec(version: string, input: SpecRootInput, env: NodeJS.ProcessEnv = process.env): SpecLocation {
  const known = /^[\w.-]+$/.test(version) ? knownVersion(version) : undefined;
  const root = /^[\w.-]+$/.test(version) ? explicitRoot(input, env) : undefined;
  if (root) {
    const file = join(root.root, version, 'schema.json');
    if (existsSync(file)) return { kind: 'dir', version, file, via: root.via, known };
    if (known) {
      throw new InputError(
        file,
        undefined,
        `spec version ${version} is known, but its schema file is not in the schema root ${root.root} (from ${root.via})`,
        `put ${version}/schema.json there, or drop ${root.via} to use the cache (filled by \`mcp-typegen schemas pull\`)`,
      );
    }
  }
  if (!known) throw unknownSpec(version, root);
  const file = cachedSchemaFile(version, env);
  if (existsSync(file)) return { kind: 'cache', version, file, known };
  return { kind: 'download', version, file, url: downloadUrl(known, env), known };
}

/** The error for a version that is neither known nor in the named schema root, with the nearest known one. */
function unknownSpec(
  version: string,
  root: { root: string; via: string } | undefined,
  otherSchema = 'for another schema pass --schema <file or https URL>',
): InputError {
  return new InputError(
    root ? join(root.root, version, 'schema.json') : version,
    undefined,
    `unknown spec version "${version}"${didYouMean(version, knownVersionNames())}`,
    `known versions: ${knownVersionNames().join(', ')}${otherSchema ? `; ${otherSchema}` : ''}${
      root ? `; schema root: ${root.root} (from ${root.via})` : ''
    }`,
  );
}

/**
 * The error `locateSpec` would throw for a version that names no schema (neither known nor in the named
 * schema root), or undefined: for checking a version where it is written (a config file, `init --spec`).
 * `otherSchema` says, in the hint, how to name a schema that is no spec version there ('' for nothing).
 */
export function specVersionProblem(
  version: string,
  input: SpecRootInput & { otherSchema?: string },
  env: NodeJS.ProcessEnv = process.env,
): InputError | undefined {
  if (/^[\w.-]+$/.test(version) && knownVersion(version)) return undefined;
  const root = /^[\w.-]+$/.test(version) ? explicitRoot(input, env) : undefined;
  if (root && existsSync(join(root.root, version, 'schema.json'))) return undefined;
  return unknownSpec(version, root, input.otherSchema);
}

function pullAdvice(version: string): string {
  return `run \`mcp-typegen schemas pull --spec ${version}\` where the network is reachable, or pass --schema-dir <dir> holding ${version}/schema.json`;
}

/** The schema text of a spec version: read locally, or downloaded, verified and cached. */
export async function specSchema(
  version: string,
  input: SpecRootInput & FetchPolicy,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ file: string; text: string; location: SpecLocation }> {
  const location = locateSpec(version, input, env);
  if (location.kind === 'dir') return { file: location.file, text: await readLocal(location.file), location };
  if (location.kind === 'cache') {
    const bytes = await readFile(location.file).catch(() => undefined);
    if (bytes && sha256(bytes) === location.known.sha256)
      return { file: location.file, text: bytes.toString('utf8'), location };
    // A damaged cache entry is replaced like a missing one.
  }
  const url = downloadUrl(location.known, env);
  if (isOffline(input, env)) {
    throw new InputError(
      location.file,
      undefined,
      `spec version ${version} is not in the cache and --offline (or MCP_TYPEGEN_OFFLINE) forbids downloading it from ${url}; ${pullAdvice(version)}`,
    );
  }
  // Where the download failed, say how to never need it: a filled cache with --offline.
  const advice = `${pullAdvice(version)}, then use --offline`;
  const bytes = await download({ url, sha256: location.known.sha256, advice }, input);
  await writeCached(location.file, bytes);
  return {
    file: location.file,
    text: bytes.toString('utf8'),
    location: { kind: 'cache', version, file: location.file, known: location.known },
  };
}

/** Make sure a known version is in the cache (verified); returns whether it was downloaded now. */
export async function pullSpec(version: string, policy: FetchPolicy, env: NodeJS.ProcessEnv = process.env) {
  const known = knownVersion(version);
  if (!known) return locateSpec(version, {}, env); // throws "unknown spec version"
  const file = cachedSchemaFile(version, env);
  const bytes = await readFile(file).catch(() => undefined);
  if (bytes && sha256(bytes) === known.sha256) return { kind: 'cache' as const, version, file, known };
  const url = downloadUrl(known, env);
  if (isOffline(policy, env))
    throw new InputError(url, undefined, `offline: cannot pull spec version ${version}; drop --offline`);
  await writeCached(
    file,
    await download(
      { url, sha256: known.sha256, advice: `check the network or proxy (HTTPS_PROXY), then retry` },
      policy,
    ),
  );
  return { kind: 'download' as const, version, file, url, known };
}

/** The sha256 of a spec version's bytes without touching the network: a cached or downloaded known
 * version always has the manifest's hash (it is verified before use). */
export async function specSha256WithoutNetwork(version: string, input: SpecRootInput): Promise<string> {
  const location = locateSpec(version, input);
  if (location.kind === 'dir') return sha256(await readFile(location.file));
  return location.known.sha256;
}

function readLocal(file: string): Promise<string> {
  return readUserFile(file, 'schema file');
}
