/**
 * `--check`: is the output on disk what generate would write now? Writes nothing.
 *
 * Fast path: when the manifest's inputs hash equals the current one and every listed file still has
 * the recorded hash, the output is up to date without regenerating. Otherwise the caller regenerates
 * in memory and `compareOutput` lists stale, missing and leftover files with a short diff.
 *
 * The answer is exactly "would `generate` change any byte?": the generated side is already formatted in
 * memory, and the file on disk is compared as it is, never normalised (a trailing space is stale,
 * because generate would rewrite that file).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GeneratedFile } from '../emit/shared/context.js';
import { MANIFEST_NAME, manifestText, readManifest } from './manifest.js';
import { sha256 } from '../load/hash.js';

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
  manifest: { inputsHash: string; version: string; format: boolean },
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
    stale.push({ path: file.path, reason: 'changed', diff: shortDiff(current, file.contents) });
  }
  const previous = await readManifest(outDir);
  for (const path of Object.keys(previous?.files ?? {})) {
    if (!files.some((f) => f.path === path)) stale.push({ path, reason: 'leftover' });
  }
  // The manifest is written by generate too: a new inputs hash or tool version is a byte that changes.
  if (stale.length === 0) {
    const expected = await manifestText(outDir, files, manifest.inputsHash, manifest.version, manifest.format);
    const current = await readFile(join(outDir, MANIFEST_NAME), 'utf8').catch(() => undefined);
    if (current !== expected)
      stale.push({
        path: MANIFEST_NAME,
        reason: current === undefined ? 'missing' : 'changed',
        ...(current === undefined ? {} : { diff: shortDiff(current, expected) }),
      });
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
