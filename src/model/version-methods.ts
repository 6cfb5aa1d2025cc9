/**
 * The MCP methods of a known version and whether it allows batches, from its official schema: what the
 * manifest records (written by scripts/version-facts.mjs, checked by a test). Not on the generate path.
 */
import { loadSchema } from '../load/schema.js';
import { buildModel } from './build.js';

export async function versionMethods(version: string): Promise<string[]> {
  return (await versionManifestFacts(version)).methods;
}

/** What the manifest records of a known version: its methods and whether it allows batches. */
export async function versionManifestFacts(version: string): Promise<{ methods: string[]; batches: boolean }> {
  const model = buildModel(await loadSchema({ spec: version, offline: true }));
  return { methods: model.methods.map((m) => m.method).sort(), batches: model.features.batches };
}
