/** Types for bundle.mjs (test/platforms/bundle-budget.test.ts imports it). */
export interface BundleSize {
  raw: number;
  gzip: number;
  nodeImports: boolean;
}
export function bundleSizes<S extends 'ours' | 'sdk' = 'ours' | 'sdk'>(
  dir: string,
  sides?: readonly S[],
): Promise<Record<S, BundleSize>>;
