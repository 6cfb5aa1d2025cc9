/**
 * `mcp-typegen schemas list|pull`: what each known spec version resolves to, and filling the user
 * cache ahead of time (an offline CI image runs `schemas pull --all` once, then `generate --offline`).
 */
import { InputError } from '../errors.js';
import type { FetchPolicy } from '../load/download.js';
import { knownVersionNames, versionManifest } from '../load/manifest.js';
import { locateSpec, pullSpec } from '../load/spec-source.js';
import { EXIT, UsageError, type Out } from '../run/console.js';

export interface SchemaListEntry {
  version: string;
  sha256: string;
  /** True when `generate --offline --spec <version>` would find it. */
  cached: boolean;
  /** `schema-dir`, `MCP_SCHEMA_DIR`, `cache` or `download`. */
  source: string;
  /** The local file, or where a download would be cached. */
  file: string;
  /** Where a download would come from. */
  url: string;
}

export function listSchemas(schemaDir?: string): SchemaListEntry[] {
  return versionManifest().versions.map((known) => {
    let location;
    try {
      location = locateSpec(known.version, { schemaDir });
    } catch (error) {
      // A named schema root without this version: report it as missing there.
      if (!(error instanceof InputError)) throw error;
      return {
        version: known.version,
        sha256: known.sha256,
        cached: false,
        source: 'missing',
        file: error.file,
        url: '',
      };
    }
    return {
      version: known.version,
      sha256: known.sha256,
      cached: location.kind !== 'download',
      source: location.kind === 'dir' ? location.via : location.kind,
      file: location.file,
      url: location.kind === 'download' ? location.url : '',
    };
  });
}

export function runSchemasList(flags: { json?: boolean; schemaDir?: string }, out: Out): number {
  const entries = listSchemas(flags.schemaDir);
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    return EXIT.ok;
  }
  for (const e of entries) {
    const where = e.source === 'download' ? `not cached; would download ${e.url}` : `${e.source}: ${e.file}`;
    out.info(`${e.version}  ${e.cached ? 'available' : 'missing  '}  sha256 ${e.sha256.slice(0, 12)}…  ${where}`);
  }
  return EXIT.ok;
}

export async function runSchemasPull(
  flags: { specs: string[]; all: boolean; policy: FetchPolicy },
  out: Out,
): Promise<number> {
  if (flags.all && flags.specs.length > 0) throw new UsageError('--spec and --all cannot be used together');
  const versions = flags.all || flags.specs.length === 0 ? knownVersionNames() : flags.specs;
  for (const version of versions) {
    const pulled = await pullSpec(version, flags.policy);
    out.info(`${version}: ${pulled.kind === 'download' ? 'downloaded to' : 'already cached in'} ${pulled.file}`);
  }
  return EXIT.ok;
}
