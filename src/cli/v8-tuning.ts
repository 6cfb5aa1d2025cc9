/**
 * The bin's V8 settings, for the batch job a `generate` run is. Both are heuristics V8 reads while it
 * runs, so setting them after start-up takes effect (measured on Node 20, 22 and 24). The bin only: a
 * program calling generate() keeps its own settings.
 */
import { statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

/**
 * A young generation that does not grow. A run allocates in bursts (the TypeScript compiler ts-morph
 * carries, ajv's code, prettier's documents) and V8 doubled the new space up to 32 MiB on each, keeping the
 * pages: peak RSS of a cold generate of 2025-11-25 170 -> 149 MiB, for the same CPU time.
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Watch mode is a long-lived process that regenerates again and again: a young generation kept small costs it
 * a scavenge after scavenge on every run, so it grows again as V8's default has it (factor 2).
 */
export function letYoungGenerationGrow(): void {
  setFlagsFromString('--semi-space-growth-factor=2');
}

/**
 * Below this many bytes of inputs per target, a run ends before V8's optimising compiler (TurboFan) pays
 * for its own compilations. Measured with and without it (CPU of the whole process, paired runs): a cold
 * generate of 2025-11-25 (174 kB of schema) 0.66–0.72×, `--all` (five schemas, 640 kB) 0.78×; a synthetic
 * schema of 2,500 definitions (806 kB) 1.06×, of 10,000 (3 MB) 1.7×. Long hot loops need it; short runs don't.
 */
export const SMALL_TARGET_BYTES = 512 * 1024;

/**
 * Turns TurboFan off for a one-off run whose every target reads less than SMALL_TARGET_BYTES (Sparkplug and,
 * where the Node has it, Maglev still compile the hot code). Watch mode keeps it: it runs for as long as
 * the user edits.
 *
 * A run whose targets read SMALL_TARGET_BYTES or more in all lets the young generation grow again (issue 49):
 * kept small, it scavenged for half of the CPU time of a 10,000-definition schema with every default artifact
 * (`--cpu-prof`: 38 of 73 s in the collector; the whole process 39–47 s of CPU kept small, 25–27 s with V8's
 * default growth), and `--all` (five small targets, 640 kB) took 3.98–4.42 s kept small, 3.11–3.55 s grown
 * (peak RSS 159–197 → 201 MB). One small target keeps it small: its peak RSS is what that setting is for.
 */
export function tuneCompilerForRun(targetFiles: readonly (readonly string[])[]): void {
  if (isSmallRun(targetFiles)) setFlagsFromString('--no-opt');
  if (runBytes(targetFiles).reduce((sum, n) => sum + n, 0) >= SMALL_TARGET_BYTES) letYoungGenerationGrow();
}

/**
 * The same for `diff`, once both sides are read: two schemas of less than SMALL_TARGET_BYTES together are
 * compared before TurboFan pays off (diff of 2025-11-25 → 2026-07-28, 390 kB: 0.92× the CPU, paired runs).
 */
export function tuneCompilerForDiff(bytes: number): void {
  if (bytes < SMALL_TARGET_BYTES) setFlagsFromString('--no-opt');
}

/**
 * True when every target's input files add up to less than SMALL_TARGET_BYTES (a file that is not there, as
 * the places a prettier config could be created are not, counts 0).
 */
export function isSmallRun(targetFiles: readonly (readonly string[])[]): boolean {
  return runBytes(targetFiles).every((n) => n < SMALL_TARGET_BYTES);
}

/** Each target's input bytes (a file that is not there counts 0). */
function runBytes(targetFiles: readonly (readonly string[])[]): number[] {
  const bytes = (file: string) => {
    try {
      return statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    } catch {
      return 0;
    }
  };
  return targetFiles.map((files) => files.reduce((sum, file) => sum + bytes(file), 0));
}
