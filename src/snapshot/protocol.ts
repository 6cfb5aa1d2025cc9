/**
 * The protocol the snapshot client speaks: that of the newest known spec version (or `--spec`), whose facts
 * list every known version before it, so the runtime's client negotiates whatever the server speaks —
 * `server/discover` with a modern server, `initialize` with any older one.
 */
import type { ProtocolDescription } from '../../templates/peer/protocol.js';
import { InputError } from '../errors.js';
import type { SchemaInput } from '../load/schema.js';

export async function clientProtocol(input: SchemaInput): Promise<ProtocolDescription> {
  const { knownVersionNames } = await import('../load/manifest.js');
  const { loadSchema } = await import('../load/schema.js');
  const { buildModel } = await import('../model/build.js');
  const known = knownVersionNames();
  const spec = input.spec ?? known[known.length - 1];
  if (spec === undefined || !known.includes(spec))
    throw new InputError(
      '--spec',
      undefined,
      `"${String(spec)}" is no known spec version`,
      `known: ${known.join(', ')}`,
    );
  const model = buildModel(await loadSchema({ ...input, spec }));
  return {
    version: model.version,
    protocolVersion: model.protocolVersion,
    features: model.features,
    facts: model.facts,
  };
}
