/**
 * One target end to end, shared by the CLI (generate, --check, --watch) and the programmatic API, so
 * both produce the same bytes for the same options.
 */
import type { GenerateResult } from '../generate.js';
import type { GenerateOptions } from '../config/generate-options.js';

export type { GenerateOptions };

/** A target ready to run: what to generate and where it goes. */
export interface Target {
  /** Shown in the console line. */
  label: string;
  options: GenerateOptions;
  /** Absolute output directory. */
  outDir: string;
}

/** generate() itself folds the modules into index.ts for `singleFile` (emit/single-file.ts). */
export async function generateTarget(options: GenerateOptions): Promise<GenerateResult> {
  const { generate } = await import('../generate.js');
  return generate(options);
}
