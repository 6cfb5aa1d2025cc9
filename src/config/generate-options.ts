import type { FetchPolicy } from '../load/download.js';
import type { TargetOptions } from './options.js';

/**
 * Options of one generation, for the API and every CLI target: the option table's per-target options
 * (src/config/options.ts; the output directory is `outDir` here), where paths are relative to, and
 * the network policy.
 */
export type GenerateOptions = Omit<TargetOptions, 'out'> &
  FetchPolicy & {
    /** Output directory (default `generated`); also where the prettier config is looked up. */
    outDir?: string;
    /** Paths are relative to this (default: the process's cwd). */
    cwd?: string;
    /** Schema text already in memory; `schema` is then only its display name. */
    text?: string;
  };
