/**
 * The runtime's own version, and the check generated code runs when it loads: code generated for one
 * runtime range must not run on an incompatible runtime, where it would fail in stranger ways later.
 * Browser-safe.
 */

/** This runtime's version (the `@mcp-typegen/runtime` package version; a test keeps them equal). */
export const RUNTIME_VERSION: string = '0.1.0';

/**
 * Throws unless this runtime satisfies `range`, a caret range such as `^0.1.0` (the form mcp-typegen
 * writes): same major version (same minor below 1.0), and not older than the range's version.
 */
export function checkRuntimeVersion(range: string, generatedBy: string): void {
  if (satisfiesCaret(RUNTIME_VERSION, range)) return;
  throw new Error(
    `${generatedBy} was generated for @mcp-typegen/runtime ${range}, but runtime ${RUNTIME_VERSION} is loaded: ` +
      `install @mcp-typegen/runtime@"${range}" or regenerate with a matching mcp-typegen`,
  );
}

function parse(version: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function satisfiesCaret(version: string, range: string): boolean {
  const have = parse(version);
  const want = range.startsWith('^') ? parse(range.slice(1)) : undefined;
  if (!have || !want) return false;
  const [major, minor, patch] = have;
  const [wantMajor, wantMinor, wantPatch] = want;
  if (major !== wantMajor) return false;
  if (major === 0 && minor !== wantMinor) return false;
  if (minor !== wantMinor) return minor > wantMinor;
  return patch >= wantPatch;
}
