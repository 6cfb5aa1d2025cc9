/**
 * One target end to end, shared by the CLI (generate, --check, --watch) and the programmatic API, so
 * both produce the same bytes for the same options.
 */
import type { GenerateOptions, GenerateResult } from '../generate.js';
import { sha256 } from '../inputs.js';

export interface TargetGenerateOptions extends GenerateOptions {
  /** Merge types, maps, client and server into one index.ts (see single-file.ts). */
  singleFile?: boolean;
}

/** A target ready to run: what to generate and where it goes. */
export interface Target {
  /** Shown in the console line. */
  label: string;
  options: TargetGenerateOptions;
  /** Absolute output directory. */
  outDir: string;
}

/** The inputs hash of a single-file output differs from the multi-file one, so `--check` tells them apart. */
export function withLayout(hash: string, singleFile: boolean | undefined): string {
  return singleFile ? sha256(`${hash}\nsingle-file`) : hash;
}

export async function generateTarget(options: TargetGenerateOptions): Promise<GenerateResult> {
  const { generate } = await import('../generate.js');
  const { singleFile, ...core } = options;
  const result = await generate(core);
  if (!singleFile) return result;
  const { mergeSingleFile } = await import('./single-file.js');
  const { formatFile } = await import('../emit/format.js');
  const { resolve } = await import('node:path');
  const outDir = resolve(options.cwd ?? process.cwd(), options.outDir ?? 'generated');
  const files = mergeSingleFile(result.files);
  for (const file of files) {
    if (file.path === 'index.ts' && options.format !== false)
      file.contents = await formatFile(outDir, file.path, file.contents);
  }
  return { ...result, files, inputsHash: withLayout(result.inputsHash, true) };
}
