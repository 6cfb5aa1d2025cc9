/**
 * A diff is only as good as the two models: a side in which far fewer methods were found than in the
 * other, or no request at all, or most requests without a result, was not understood, and its "changes"
 * would be the other side's methods removed or added, results no longer paired — or, when both sides are
 * blind alike, "No changes". Each is an input error (exit 2) naming the side.
 */
import { InputError } from '../errors.js';
import { PAIRING_HINT, requireRequests } from '../model/coverage.js';
import type { ProtocolModel } from '../model/types.js';

export interface CoverageOptions {
  /**
   * A side with fewer than half the other's methods really lost them (`--allow-shrink`): report them
   * removed instead of refusing the side as unread.
   */
  allowShrink?: boolean;
}

export function requireComparableSides(
  oldSide: { model: ProtocolModel; name: string },
  newSide: { model: ProtocolModel; name: string },
  options: CoverageOptions = {},
): void {
  for (const side of [oldSide, newSide]) requireRequests(side.model, side.name);
  requirePairedResults(oldSide, newSide);
  if (options.allowShrink) return;
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
      `${PAIRING_HINT}; if the schema really dropped them, --allow-shrink reports them removed`,
    );
  }
}

/**
 * A side on which most requests have no paired result is blind to their changes, whatever the other side
 * knows: each such result compares as the generic Result (both sides blind: nothing reported; one side:
 * only that the pairing was lost or found). Blindness on either side is an input error naming that side
 * and the requests; a few unpaired requests are reported facts (`result-became-unknown`/`-known`).
 */
function requirePairedResults(
  oldSide: { model: ProtocolModel; name: string },
  newSide: { model: ProtocolModel; name: string },
): void {
  const unpaired = (model: ProtocolModel) => model.methods.filter((m) => m.resultUnknown).map((m) => m.method);
  const requests = (model: ProtocolModel) => model.methods.filter((m) => m.kind === 'request').length;
  const blind = (model: ProtocolModel) => unpaired(model).length * 2 > requests(model);
  const [oldBlind, newBlind] = [blind(oldSide.model), blind(newSide.model)];
  if (!oldBlind && !newBlind) return;
  const side = newBlind ? newSide : oldSide;
  const other = newBlind ? oldSide : newSide;
  const unseen = unpaired(side.model);
  const shown = unseen.slice(0, 3).join(', ') + (unseen.length > 3 ? `, … (${unseen.length - 3} more)` : '');
  const where = oldBlind && newBlind ? 'were found on neither side' : `were not found in it (only in ${other.name})`;
  throw new InputError(
    side.name,
    '',
    `the results of ${unseen.length} of ${requests(side.model)} requests ${where} (${shown}): their changes would not be seen`,
    PAIRING_HINT,
  );
}
