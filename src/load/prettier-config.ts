/**
 * The prettier config that applies to a directory, found the way prettier searches (the same file names,
 * nearest first) but without loading prettier: `--check` hashes it, and generate uses it to know that no
 * config applies, so prettier need not be loaded at all.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sha256 } from './hash.js';

/** Prettier's own search order for a config file (package.json counts only with a "prettier" key). */
export const PRETTIER_CONFIG_FILES = [
  'package.json',
  'package.yaml',
  '.prettierrc',
  '.prettierrc.json',
  '.prettierrc.yaml',
  '.prettierrc.yml',
  '.prettierrc.json5',
  '.prettierrc.js',
  '.prettierrc.mjs',
  '.prettierrc.cjs',
  '.prettierrc.ts',
  '.prettierrc.mts',
  '.prettierrc.cts',
  'prettier.config.js',
  'prettier.config.mjs',
  'prettier.config.cjs',
  'prettier.config.ts',
  'prettier.config.mts',
  'prettier.config.cts',
  '.prettierrc.toml',
];

/** The prettier config file that applies to a directory, and its contents as data. */
export interface PrettierConfigFound {
  /** The nearest config file, absolute; null when none applies. */
  file: string | null;
  /**
   * What the config says, as data: the file's name and bytes' hash (for package.json, its "prettier" value);
   * `null` when there is none, undefined when it is code (or names a shared config package).
   */
  data: unknown;
}

/** The prettier config that applies to a directory, searched as prettier searches, nearest first. */
export async function prettierConfigOf(outDir: string): Promise<PrettierConfigFound> {
  let dir = outDir;
  for (;;) {
    for (const name of PRETTIER_CONFIG_FILES) {
      const file = join(dir, name);
      if (!existsSync(file)) continue;
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      if (name === 'package.json' || name === 'package.yaml') {
        if (name === 'package.yaml') return { file, data: undefined };
        let pkg: { prettier?: unknown };
        try {
          pkg = JSON.parse(text) as { prettier?: unknown };
        } catch {
          continue;
        }
        if (pkg.prettier === undefined) continue;
        // A string names a shared config package: its contents are not ours to hash.
        return { file, data: typeof pkg.prettier === 'string' ? undefined : ['package.json', pkg.prettier] };
      }
      return { file, data: /\.[cm]?[jt]s$/.test(name) ? undefined : [name, sha256(text)] };
    }
    const parent = dirname(dir);
    if (parent === dir) return { file: null, data: null };
    dir = parent;
  }
}
