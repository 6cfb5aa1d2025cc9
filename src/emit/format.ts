/**
 * Formatting, once, in memory, with the prettier config that applies to the output directory (so the
 * files on disk match what the user's own prettier would produce, and `--check` never flags formatting).
 *
 * Prettier is imported only when a config file may apply: with none, the emitters' own layout is prettier's
 * for DEFAULTS already, and loading prettier to find that out would cost more than the check.
 */
import { dirname, join } from 'node:path';
import type * as Prettier from 'prettier';
import { sha256 } from '../load/hash.js';
import { prettierConfigOf } from '../load/prettier-config.js';

type Options = Prettier.Options;

const PARSERS: Record<string, string> = { '.ts': 'babel-ts', '.js': 'babel', '.json': 'json', '.md': 'markdown' };
export const DEFAULTS: Options = { printWidth: 120, singleQuote: true };

/**
 * Formatted text by (options, text). The runtime templates are the same bytes in every version's
 * output, so `generate --all` would otherwise format ~150 kB of identical code five times over.
 */
const memo = new Map<string, Promise<string>>();
const MEMO_LIMIT = 64;

/**
 * True when no prettier config applies to the file: the runtime templates are kept formatted with
 * DEFAULTS (a test checks it), so they need no formatting pass then.
 */
export async function usesDefaultFormat(outDir: string, path: string): Promise<boolean> {
  const file = join(outDir, path);
  if ((await prettierConfigOf(dirname(file))).file === null) return true;
  const prettier = await import('prettier');
  const found = await prettier.resolveConfig(file, { editorconfig: false });
  return found === null || sameOptions(found, DEFAULTS);
}

/** A config that says exactly what DEFAULTS says (e.g. this repository's own .prettierrc.json) changes nothing. */
function sameOptions(a: Options, b: Options): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => a[key] === b[key]);
}

export async function formatFile(outDir: string, path: string, text: string): Promise<string> {
  const ext = path.slice(path.lastIndexOf('.'));
  const parser = PARSERS[ext];
  if (!parser) return text;
  const prettier = await import('prettier');
  const found = await prettier.resolveConfig(join(outDir, path), { editorconfig: false });
  const options: Options = { ...DEFAULTS, ...(found ?? {}), parser, filepath: undefined };
  const key = sha256(`${JSON.stringify(options)}\0${text}`);
  let formatted = memo.get(key);
  if (!formatted) {
    formatted = prettier.format(text, options);
    if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value!);
    memo.set(key, formatted);
    formatted.catch(() => memo.delete(key));
  }
  return formatted;
}
