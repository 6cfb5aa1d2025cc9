/**
 * The MCP methods of a known version (and who sends each), whether it allows batches and its server capabilities, from its official schema: what the
 * manifest records (written by scripts/version-facts.mjs, checked by a test). Not on the generate path.
 */
import { loadSchema } from '../load/schema.js';
import { buildModel } from './build.js';
import { serverCapabilityNames } from './protocol-facts.js';

/** What the manifest records of a known version: its methods and whether it allows batches. */
export async function versionManifestFacts(version: string): Promise<{
  methods: string[];
  batches: boolean;
  serverCapabilities: string[];
  senders: Record<string, ('client' | 'server')[]>;
}> {
  const schema = await loadSchema({ spec: version, offline: true });
  const model = buildModel(schema);
  const senders: Record<string, ('client' | 'server')[]> = {};
  for (const m of model.methods) {
    const sides = new Set(
      m.directions.map((d) => (d === 'client->server' ? ('client' as const) : ('server' as const))),
    );
    senders[m.method] = [...sides].sort();
  }
  return {
    methods: model.methods.map((m) => m.method).sort(),
    batches: model.features.batches,
    serverCapabilities: serverCapabilityNames(schema),
    senders,
  };
}
