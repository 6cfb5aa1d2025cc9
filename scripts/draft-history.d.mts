/** Types for draft-history.mjs (test/diff/history.test.ts imports it). */
export interface StoredVersion {
  path: string;
  commit: string;
  /** Commit date, YYYY-MM-DD. */
  date: string;
  /** Where the commit kept its definitions; stored under `$defs` either way. */
  keyword: 'definitions' | '$defs';
  /** An earlier index of the list this version is patched from; absent for a version stored whole. */
  from?: number;
  patch?: unknown[];
  base?: unknown;
}
/** Every stored version rebuilt, in order, its definitions back under its own keyword. */
export function rebuild(versions: readonly StoredVersion[]): unknown[];
export function replay(schema: unknown, keyword: StoredVersion['keyword']): unknown;
