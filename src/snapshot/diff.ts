/**
 * `diff` of two snapshots: both read as protocol models (model.ts) and compared by the schema diff itself,
 * so the report has the same rules, verdicts per side, formats and exit codes. The schema diff's blindness
 * check (too few requests found) does not apply: a server may well offer no tools.
 */
import { diffModels } from '../diff/diff.js';
import type { DiffOptions, DiffReport } from '../diff/types.js';
import { InputError } from '../errors.js';
import { parseSnapshot, type Snapshot } from '../load/snapshot-file.js';
import { looksLikeSnapshot } from '../load/snapshot-kind.js';
import { snapshotModel } from './model.js';

export interface SnapshotSide {
  name: string;
  text: string;
}

/** Both sides must be snapshots: a snapshot against a schema compares nothing meaningful. */
export function diffSnapshotSides(old: SnapshotSide, now: SnapshotSide, options: DiffOptions): DiffReport {
  for (const side of [old, now])
    if (!looksLikeSnapshot(side.text))
      throw new InputError(
        side.name,
        '',
        'not a snapshot, while the other side is one: diff compares two snapshots or two schemas',
      );
  return diffSnapshots(parseSnapshot(old.text, old.name), parseSnapshot(now.text, now.name), options);
}

export function diffSnapshots(old: Snapshot, now: Snapshot, options: DiffOptions): DiffReport {
  return diffModels(snapshotModel(old), snapshotModel(now), options);
}
