/**
 * The runtime's own version, and the check generated code runs when it loads: code generated for one
 * runtime range must not run on an incompatible runtime, where it would fail in stranger ways later.
 * Browser-safe.
 */

/** This runtime's version (the `@mcp-typegen/runtime` package version; a test keeps them equal). */
export const RUNTIME_VERSION: string = '0.1.0';

const VERSION = /^(\d+)\.(\d+)\.(\d+)/;

/**
 * Throws unless this runtime satisfies `range`, a caret range such as `^0.1.0` (the form mcp-typegen
 * writes): same major version (same minor below 1.0), and not older than the range's version.
 */
export function checkRuntimeVersion(range: string, generatedBy: string): void {
  // A part that does not parse is undefined (or NaN): no comparison below accepts it, so the check throws.
  type Parts = [unknown, number, number, number];
  const [, major, minor, patch] = (VERSION.exec(RUNTIME_VERSION) ?? []).map(Number) as Parts;
  const [, wantMajor, wantMinor, wantPatch] = (range.startsWith('^') ? (VERSION.exec(range.slice(1)) ?? []) : []).map(
    Number,
  ) as Parts;
  const sameLine = major === wantMajor && (major > 0 || minor === wantMinor);
  if (sameLine && (minor - wantMinor || patch - wantPatch) >= 0) return;
  throw new Error(
    `${generatedBy} was generated for @mcp-typegen/runtime ${range}, but runtime ${RUNTIME_VERSION} is loaded: ` +
      `install @mcp-typegen/runtime@"${range}" or regenerate`,
  );
}
