/** Types for bundle.mjs (test/platforms/bundle-budget.test.ts imports it). */
export interface BundleSize {
  raw: number;
  gzip: number;
  nodeImports: boolean;
  /** Whether the metadata-header code (x-mcp-header rules, 2026-07-28 on) is in the bundle. */
  headerEra: boolean;
}
export function bundleSizes<S extends 'ours' | 'auth' | 'sdk' = 'ours' | 'auth' | 'sdk'>(
  dir: string,
  sides?: readonly S[],
): Promise<Record<S, BundleSize>>;
/** One entry module's browser bundle: minified and gzip -9 bytes, and its text. */
export function browserBundle(
  dir: string,
  name: string,
  source: string,
): Promise<{ raw: number; gzip: number; text: string }>;
/** The MCP Apps view and host bundles beside ext-apps' App and AppBridge (issue 46). */
export function appsBundleSizes(
  dir: string,
): Promise<Record<'view' | 'host' | 'extView' | 'extHost', { raw: number; gzip: number }>>;
