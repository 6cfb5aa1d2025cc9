/**
 * What the runtime needs to know about the versions a generated peer may meet (every known version up to
 * its own): each one's era and the methods it has. The generator reads them from the manifest
 * (schema/mcp-versions.json), not from the other versions' schemas, so generating one version never loads
 * the others; version-methods.ts is how the manifest's lists are computed (scripts/version-facts.mjs)
 * and checked (test/versions/version-facts.test.ts).
 */
import { knownVersion, knownVersionNames } from '../load/manifest.js';

/** `legacy`: a session opened by `initialize` (up to 2025-11-25); `modern`: per-request `_meta` (2026-07-28 on). */
export type Era = 'legacy' | 'modern';

export interface VersionFact {
  version: string;
  era: Era;
  /** Present (true) only for versions that allow JSON-RPC batches (2025-03-26). */
  batches?: true;
}

/** A version with an `initialize` handshake is legacy; one without is modern. */
export function eraOf(methods: readonly string[]): Era {
  return methods.includes('initialize') ? 'legacy' : 'modern';
}

/**
 * The known versions a peer generated for `version` can speak, newest first, with their eras; and, for
 * each of its methods missing from one of them, the versions that have it. An unknown version (a schema
 * the manifest does not list) speaks only itself.
 */
export function versionFacts(
  version: string | null,
  ownMethods: readonly string[],
  ownBatches = false,
  ownCapabilities: readonly string[] = [],
): {
  versions: VersionFact[];
  methodVersions: Record<string, string[]>;
  capabilityVersions: Record<string, string[]>;
} {
  if (version === null) return { versions: [], methodVersions: {}, capabilityVersions: {} };
  const names = knownVersionNames().filter((name) => name <= version);
  const withBatches = (fact: VersionFact, batches: boolean | undefined): VersionFact =>
    batches ? { ...fact, batches: true } : fact;
  if (!names.includes(version)) {
    return {
      versions: [withBatches({ version, era: eraOf(ownMethods) }, ownBatches)],
      methodVersions: {},
      capabilityVersions: {},
    };
  }
  // `names` are known versions by construction: knownVersion() finds each.
  const lists = new Map(names.map((name) => [name, knownVersion(name)?.methods ?? []]));
  lists.set(version, [...ownMethods]);
  const methodsOf = (name: string) => lists.get(name) ?? [];
  const versions = names
    .slice()
    .reverse()
    .map((name) =>
      withBatches(
        { version: name, era: eraOf(methodsOf(name)) },
        name === version ? ownBatches : knownVersion(name)?.batches,
      ),
    );
  const methodVersions: Record<string, string[]> = {};
  for (const method of [...ownMethods].sort()) {
    const having = versions.filter((v) => methodsOf(v.version).includes(method)).map((v) => v.version);
    if (having.length < versions.length) methodVersions[method] = having;
  }
  // The same for server capabilities: a session of an older version is not told of one it does not have.
  const capabilities = new Map(names.map((name) => [name, knownVersion(name)?.serverCapabilities ?? []]));
  capabilities.set(version, [...ownCapabilities]);
  const capabilitiesOf = (name: string) => capabilities.get(name) ?? [];
  const capabilityVersions: Record<string, string[]> = {};
  for (const capability of [...ownCapabilities].sort()) {
    const having = versions.filter((v) => capabilitiesOf(v.version).includes(capability)).map((v) => v.version);
    if (having.length < versions.length) capabilityVersions[capability] = having;
  }
  return { versions, methodVersions, capabilityVersions };
}
