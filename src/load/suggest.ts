/**
 * "Did you mean": the known name closest to a misspelt one, for commands, options, config keys, spec
 * versions, official extension ids and file names. Case, `-` and `_` are ignored (`--outDir` is `--out-dir`);
 * a prefix of three characters or more counts as close (`gen` → `generate`, `--artifact` → `--artifacts`).
 */

function normal(word: string): string {
  return word.toLowerCase().replace(/[-_]/g, '');
}

/** Levenshtein distance (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function distance(word: string, candidate: string): number {
  const a = normal(word);
  const b = normal(candidate);
  if (a === b) return 0;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 3 && long.startsWith(short)) return 1;
  return editDistance(a, b);
}

/** The candidate `word` most likely misspells, or undefined when none is close enough to be what was meant. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(normal(word).length / 3));
  let best: { candidate: string; d: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const d = distance(word, candidate);
    if (d <= limit && (best === undefined || d < best.d)) best = { candidate, d };
  }
  return best?.candidate;
}

/** `: did you mean <x>?` for `closest`, or '' (ready to append to a message). */
export function didYouMean(word: string, candidates: Iterable<string>, show = (s: string) => s): string {
  const match = closest(word, candidates);
  return match === undefined ? '' : `: did you mean ${show(match)}?`;
}
