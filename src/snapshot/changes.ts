/**
 * Where two snapshots differ, as JSON pointers into the file: what `snapshot --check` names when the live server
 * no longer matches the committed file. The diff's facts say what a change means for clients and servers; this
 * says where the file changed at all (a tool's description, the server's version, a resource), so no change is
 * ever blamed on the wrong part.
 */
import { escapePointerToken } from '../load/pointer.js';
import { compareStrings } from '../load/order.js';
import { isJsonObject } from '../load/snapshot-file.js';

export interface SnapshotChange {
  pointer: string;
  change: 'added' | 'removed' | 'changed';
}

/** Every place the two differ, outermost first: a member added or removed is one change, not one per leaf. */
export function snapshotChanges(old: unknown, now: unknown, at = ''): SnapshotChange[] {
  if (isJsonObject(old) && isJsonObject(now)) {
    const keys = [...new Set([...Object.keys(old), ...Object.keys(now)])].sort(compareStrings);
    return keys.flatMap((key) => {
      const here = `${at}/${escapePointerToken(key)}`;
      if (!Object.hasOwn(now, key)) return [{ pointer: here, change: 'removed' as const }];
      if (!Object.hasOwn(old, key)) return [{ pointer: here, change: 'added' as const }];
      return snapshotChanges(old[key], now[key], here);
    });
  }
  return JSON.stringify(old) === JSON.stringify(now) ? [] : [{ pointer: at || '/', change: 'changed' }];
}

/** The changes as one line's worth: the first few, then how many more. */
export function describeChanges(changes: readonly SnapshotChange[], shown = 8): string {
  const listed = changes.slice(0, shown).map((c) => `${c.pointer} (${c.change})`);
  const more = changes.length > shown ? `, and ${changes.length - shown} more` : '';
  return `${listed.join(', ')}${more}`;
}
