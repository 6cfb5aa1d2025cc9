/**
 * Blindness checks: a schema in which the model finds no request (or, in a diff, far fewer methods than
 * the other side) was not understood — its message unions or results were not recognised. Generating or
 * diffing it anyway would print an empty table or "No changes" and exit 0, so it is an input error.
 */
import { InputError } from '../errors.js';
import type { ProtocolModel } from './types.js';

/** How to tell the tool what structure could not show, for the hint of every blindness error. */
export const PAIRING_HINT =
  'pair requests with their results in a file given with --pairing: { "pairs": { "<method>": "<ResultDefinition>" } } — pairing the handshake (e.g. "initialize") also tells which side sends which requests';

/** Throws when the model holds no request: no union of request messages was recognised. */
export function requireRequests(model: ProtocolModel, file: string): void {
  if (model.methods.some((m) => m.kind === 'request')) return;
  const notifications = model.methods.length;
  throw new InputError(
    file,
    '',
    `no request found (${notifications} notification${notifications === 1 ? '' : 's'}): no union of request messages was recognised, so no client or server could be generated from it`,
    PAIRING_HINT,
  );
}
