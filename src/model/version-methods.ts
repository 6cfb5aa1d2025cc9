/**
 * The MCP methods of a known version, whether it allows batches and its server capabilities, from its official schema: what the
 * manifest records (written by scripts/version-facts.mjs, checked by a test). Not on the generate path.
 */
import { loadSchema } from '../load/schema.js';
import { buildModel } from './build.js';
import { serverCapabilityNames } from './protocol-facts.js';

/** What the manifest records of a known version: its methods and whether it allows batches. */
export async function versionManifestFacts(
  version: string,
): Promise<{ methods: string[]; batches: boolean; serverCapabilities: string[] }> {
  const schema = await loadSchema({ spec: version, offline: true });
  const model = buildModel(schema);
  return {
    methods: model.methods.map((m) => m.method).sort(),
    batches: model.features.batches,
    serverCapabilities: serverCapabilityNames(schema),
  };
}
