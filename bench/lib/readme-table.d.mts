/** Types for readme-table.mjs (the tests import it). */
export function lineId(line: string): string | undefined;
export function mergeTable(previous: string, fresh: Iterable<[string, string]>, header: string[]): string;
