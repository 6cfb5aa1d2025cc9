/**
 * The MCP methods of a known version, from its official schema: what the manifest's `methods` lists hold
 * (written by scripts/version-facts.mjs, checked by a test). Not on the generate path.
 */
import { loadSchema } from '../load/schema.js';
import { buildModel } from './build.js';

export async function versionMethods(version: string): Promise<string[]> {
  const model = buildModel(await loadSchema({ spec: version, offline: true }));
  return model.methods.map((m) => m.method).sort();
}
