/**
 * The one formatting path: prettier's `format`, once, in memory, for every generated file a person reads,
 * with the prettier config that applies to the output directory (so the files on disk match what the
 * user's own prettier would produce, and `--check` never flags formatting), over the project's DEFAULTS.
 */
import { join } from 'node:path';
import type * as Prettier from 'prettier';
import { sha256 } from '../../load/hash.js';

type Options = Prettier.Options;

const PARSERS: Record<string, string> = { '.ts': 'babel-ts', '.js': 'babel', '.json': 'json', '.md': 'markdown' };
export const DEFAULTS: Options = { printWidth: 120, singleQuote: true };

/**
 * Formatted text by (options, text). The runtime templates are the same bytes in every version's
 * output, so `generate --all` would otherwise format ~150 kB of identical code five times over.
 */
const memo = new Map<string, Promise<string>>();
const MEMO_LIMIT = 64;

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
    const oldest = memo.keys().next();
    if (memo.size >= MEMO_LIMIT && oldest.done !== true) memo.delete(oldest.value);
    memo.set(key, formatted);
    formatted.catch(() => memo.delete(key));
  }
  return formatted;
}
