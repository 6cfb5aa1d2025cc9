/**
 * What decides how the output is formatted, found as prettier's CLI finds it but without loading prettier:
 * the nearest prettier config file (prettier's own names, nearest folder first) and every `.editorconfig` it
 * reads (from the output folder up to the project root, or a file that says `root = true`). `--check` hashes
 * them and watch mode watches them — the same list — including the places a config file could still be
 * created, so a config added while watch runs is seen.
 */
import { existsSync, statSync } from 'node:fs';
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

export interface PrettierInputs {
  /** The nearest prettier config file, absolute; null when none applies. */
  file: string | null;
  /**
   * Every file whose bytes shape the formatting (the config file, the `.editorconfig` files read), and every
   * place a config file or `.editorconfig` could be created nearer than the ones found: what watch watches.
   */
  files: string[];
  /**
   * The config as data: its file's name and the hash of its bytes (for package.json, its "prettier" value);
   * null without one; undefined when it is code, or names a shared config package (package.json with a
   * string, package.yaml), which only prettier can resolve.
   */
  config: unknown;
  /** The `.editorconfig` files read, nearest first: how many folders up each is, and its bytes' hash. */
  editorconfig: [number, string][];
}

/** The prettier config and `.editorconfig` files that apply to a directory, as prettier's CLI searches. */
export async function prettierInputs(outDir: string): Promise<PrettierInputs> {
  const root = projectRoot(outDir);
  const files: string[] = [];
  const config = await nearestConfig(outDir, root, files);
  const editorconfig = (await editorconfigFiles(outDir, root, files)).map(([file, hash]): [number, string] => [
    relativeDepth(outDir, file),
    hash,
  ]);
  return { file: config.file, files: [...new Set(files)].sort(), config: config.data, editorconfig };
}

/** The nearest config file from `dir` up; every candidate path up to it (or up to `root`) joins `files`. */
async function nearestConfig(
  start: string,
  root: string | undefined,
  files: string[],
): Promise<{ file: string | null; data: unknown }> {
  for (let dir = start; ; dir = dirname(dir)) {
    const withinRoot = root === undefined || dir.startsWith(root);
    for (const name of PRETTIER_CONFIG_FILES) {
      const file = join(dir, name);
      if (withinRoot && name !== 'package.json') files.push(file);
      if (!existsSync(file)) continue;
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      if (name === 'package.json') {
        let pkg: { prettier?: unknown };
        try {
          pkg = JSON.parse(text) as { prettier?: unknown };
        } catch {
          continue;
        }
        // package.json is watched only once it says something about prettier (it changes for other reasons).
        if (pkg.prettier === undefined) continue;
        files.push(file);
        // A string names a shared config package: only prettier can resolve it.
        return { file, data: typeof pkg.prettier === 'string' ? undefined : ['package.json', pkg.prettier] };
      }
      // package.yaml counts only with a "prettier" key, which only a YAML parser can tell: prettier decides.
      if (name === 'package.yaml') return { file, data: undefined };
      return { file, data: /\.[cm]?[jt]s$/.test(name) ? undefined : [name, sha256(text)] };
    }
    const parent = dirname(dir);
    if (parent === dir) return { file: null, data: null };
  }
}

/**
 * The `.editorconfig` files prettier reads for a file in `start`, nearest first, with their bytes' hash: up to
 * the project root (or the filesystem's, without one), stopping at one that says `root = true`. Every place
 * one could be created on that way joins `files`.
 */
async function editorconfigFiles(
  start: string,
  root: string | undefined,
  files: string[],
): Promise<[string, string][]> {
  const found: [string, string][] = [];
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, '.editorconfig');
    files.push(file);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text !== undefined) {
      found.push([file, sha256(text)]);
      if (/^\s*root\s*=\s*true\s*$/im.test(text)) break;
    }
    if (dir === root || dirname(dir) === dir) break;
  }
  return found;
}

/**
 * The project root as prettier finds it for `.editorconfig` (its find-project-root.js): the nearest folder from
 * `dir` up holding `.git` (a file or folder) or a `.hg` folder.
 */
function projectRoot(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    const hg = join(at, '.hg');
    if (existsSync(hg) && statSync(hg).isDirectory()) return at;
    if (dirname(at) === at) return undefined;
  }
}

/** How many folders up from `from` a file is: a location-free name for it in the hash. */
function relativeDepth(from: string, file: string): number {
  let depth = 0;
  for (let dir = from; dir !== dirname(file) && dirname(dir) !== dir; dir = dirname(dir)) depth++;
  return depth;
}
