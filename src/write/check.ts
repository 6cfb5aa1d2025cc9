/**
 * `--check`: is the output on disk what generate would write now? Writes nothing.
 *
 * Fast path: when the manifest's inputs hash equals the current one and every listed file still has
 * the recorded hash, the output is up to date without regenerating. Otherwise the caller regenerates
 * in memory and `compareOutput` lists stale, missing and leftover files with a short diff. A file that
 * differs only in formatting is not stale: the on-disk text is formatted the same way before comparing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GeneratedFile } from '../generate.js';
import { readManifest, sha256 } from './manifest.js';

export interface StaleFile {
  path: string;
  reason: 'missing' | 'changed' | 'leftover';
  /** A few lines of unified-style diff for `changed`. */
  diff?: string;
}

export async function isUpToDateFast(outDir: string, inputsHash: string): Promise<boolean> {
  const manifest = await readManifest(outDir);
  if (!manifest || manifest.inputsHash !== inputsHash) return false;
  for (const [path, hash] of Object.entries(manifest.files)) {
    let text: string;
    try {
      text = await readFile(join(outDir, path), 'utf8');
    } catch {
      return false;
    }
    if (sha256(text) !== hash) return false;
  }
  return true;
}

export async function compareOutput(
  outDir: string,
  files: GeneratedFile[],
  reformat: (path: string, text: string) => Promise<string>,
): Promise<StaleFile[]> {
  const stale: StaleFile[] = [];
  for (const file of files) {
    let current: string;
    try {
      current = await readFile(join(outDir, file.path), 'utf8');
    } catch {
      stale.push({ path: file.path, reason: 'missing' });
      continue;
    }
    if (current === file.contents) continue;
    const reformatted = await reformat(file.path, current).catch(() => current);
    if (reformatted === file.contents) continue;
    stale.push({ path: file.path, reason: 'changed', diff: shortDiff(current, file.contents) });
  }
  const manifest = await readManifest(outDir);
  for (const path of Object.keys(manifest?.files ?? {})) {
    if (!files.some((f) => f.path === path)) stale.push({ path, reason: 'leftover' });
  }
  return stale;
}

/** The first differing lines, enough to see what drifted. */
export function shortDiff(actual: string, expected: string, context = 2, maxLines = 12): string {
  const a = actual.split('\n');
  const b = expected.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length - 1;
  let endB = b.length - 1;
  while (endA > start && endB > start && a[endA] === b[endB]) {
    endA--;
    endB--;
  }
  const from = Math.max(0, start - context);
  const out = [`@@ line ${start + 1} @@`];
  for (let i = from; i < start; i++) out.push(`  ${a[i]}`);
  for (let i = start; i <= endA && out.length < maxLines; i++) out.push(`- ${a[i]}`);
  for (let i = start; i <= endB && out.length < maxLines * 2; i++) out.push(`+ ${b[i]}`);
  return out.join('\n');
}
