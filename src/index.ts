/**
 * mcp-typegen's programmatic API. The CLI is built on the same functions, so for the same options the
 * API and `mcp-typegen generate` write the same bytes.
 *
 *   const result = await generate({ spec: '2025-11-25', outDir: 'src/mcp' });
 *   await write(result, 'src/mcp');
 *   const stale = await check({ spec: '2025-11-25', outDir: 'src/mcp' });
 */
import { resolve } from 'node:path';
import { generateTarget, type GenerateOptions, type Target } from './run/target.js';
import type { GenerateResult } from './generate.js';
import { toolPackage } from './load/package-root.js';
import type { StaleFile } from './write/check.js';
import type { WriteSummary } from './write/write.js';

export type { GenerateResult, GeneratedFile, Artifact, ImportExtension } from './generate.js';
export { ARTIFACTS } from './emit/shared/context.js';
export type { StaleFile } from './write/check.js';
export type { WriteSummary } from './write/write.js';
export type { Target } from './run/target.js';
export {
  loadConfig,
  findConfig,
  parseConfig,
  CONFIG_NAME,
  type LoadedConfig,
  type ConfigTarget,
} from './config/load.js';
export { TARGET_OPTIONS, type TargetOptions, type OptionSpec } from './config/options.js';
export { InputError } from './errors.js';
export { startWatch, type WatchOptions } from './run/watch.js';
export { targetFromConfig } from './run/targets.js';

export type { GenerateOptions } from './run/target.js';
export type { FetchPolicy } from './load/download.js';

/** Generate every file in memory; nothing is written. */
export function generate(options: GenerateOptions): Promise<GenerateResult> {
  return generateTarget(options);
}

/**
 * Write a result into `outDir` the way the CLI does: atomically, with the ownership manifest, never
 * overwriting a file mcp-typegen did not generate, removing files it generated earlier and no longer does.
 */
export async function write(result: GenerateResult, outDir: string): Promise<WriteSummary> {
  const { writeOutput } = await import('./write/write.js');
  return writeOutput(resolve(outDir), result.files, result.inputsHash, toolPackage().version, result.formatted);
}

/** The files in `options.outDir` (default `generated`) that `generate` + `write` would change; empty when up to date. */
export async function check(options: GenerateOptions): Promise<StaleFile[]> {
  const { checkTarget } = await import('./run/generate.js');
  const outDir = resolve(options.cwd ?? process.cwd(), options.outDir ?? 'generated');
  const target: Target = { label: 'api', outDir, options: { ...options, outDir } };
  return checkTarget(target);
}
