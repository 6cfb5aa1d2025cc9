/**
 * A diff is only as good as the two models: a side in which far fewer methods were found than in the
 * other, or no request at all, was not understood, and its "changes" would be the other side's methods
 * removed or added — or, when both sides are blind alike, "No changes". Both are input errors (exit 2).
 */
import { InputError } from '../errors.js';
import { PAIRING_HINT, requireRequests } from '../model/coverage.js';
import type { ProtocolModel } from '../model/types.js';

export function requireComparableSides(
  oldSide: { model: ProtocolModel; name: string },
  newSide: { model: ProtocolModel; name: string },
): void {
  for (const side of [oldSide, newSide]) requireRequests(side.model, side.name);
  requirePairedResults(oldSide, newSide);
  for (const [side, other] of [
    [oldSide, newSide],
    [newSide, oldSide],
  ] as const) {
    const found = side.model.methods.length;
    const there = other.model.methods.length;
    if (found * 2 >= there) continue;
    throw new InputError(
      side.name,
      '',
      `only ${found} method${found === 1 ? '' : 's'} found, fewer than half of the ${there} in ${other.name}: its message unions or requests were not recognised, so the diff would report the rest as removed or added`,
      PAIRING_HINT,
    );
  }
}

/**
 * Most results unknown on both sides: none of their changes could be seen (each compares as the generic
 * Result on both sides, so nothing is reported). One side unknown is reported (`result-became-unknown`).
 */
function requirePairedResults(
  oldSide: { model: ProtocolModel; name: string },
  newSide: { model: ProtocolModel; name: string },
): void {
  const unknownOld = new Set(oldSide.model.methods.filter((m) => m.resultUnknown).map((m) => m.method));
  const requests = newSide.model.methods.filter((m) => m.kind === 'request');
  const unseen = requests.filter((m) => m.resultUnknown && unknownOld.has(m.method)).map((m) => m.method);
  if (unseen.length * 2 <= requests.length) return;
  const shown = unseen.slice(0, 3).join(', ') + (unseen.length > 3 ? `, … (${unseen.length - 3} more)` : '');
  throw new InputError(
    newSide.name,
    '',
    `the results of ${unseen.length} of ${requests.length} requests were found on neither side (${shown}): their changes would not be seen`,
    PAIRING_HINT,
  );
}
