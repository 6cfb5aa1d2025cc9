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

export async function generateTarget(options: GenerateOptions): Promise<GenerateResult> {
  const { generate } = await import('../generate.js');
  const result = await generate(options);
  if (!options.singleFile) return result;
  const { mergeSingleFile } = await import('../emit/single-file.js');
  const { formatFile } = await import('../emit/format.js');
  const { resolve } = await import('node:path');
  const outDir = resolve(options.cwd ?? process.cwd(), options.outDir ?? 'generated');
  const files = mergeSingleFile(result.files);
  for (const file of files) {
    if (file.path === 'index.ts' && options.format !== false)
      file.contents = await formatFile(outDir, file.path, file.contents);
  }
  return { ...result, files };
}
