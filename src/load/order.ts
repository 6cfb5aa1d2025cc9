/** Code-unit order, so the output never depends on the machine's locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The item at an index the caller computed from the same list (a loop bound, a pairing of indices): a checked
 * read instead of an assertion, so a wrong index is an error that says so, not an `undefined` passed on.
 */
export function itemAt<T>(list: readonly T[], index: number): T {
  if (!Number.isInteger(index) || index < 0 || index >= list.length) {
    throw new RangeError(`internal error: index ${index} outside a list of ${list.length}`);
  }
  return list[index] as T;
}
