/**
 * The one formatting path: prettier's `format`, once, in memory, for every generated file a person reads,
 * with the options prettier's CLI would use for that file: the prettier config that applies to it and the
 * `.editorconfig` it reads, over prettier's own defaults. So the files on disk pass the user's own
 * `prettier --check`, whatever their config says, and `--check` never flags formatting.
 */
import { join } from 'node:path';
import type * as Prettier from 'prettier';
import { sha256 } from '../../load/hash.js';
import { BoundedMemo } from './bounded-memo.js';
import { mayHoldTemplateLiterals } from './embeds.js';

type Options = Prettier.Options;

const PARSERS: Record<string, string> = { '.ts': 'babel-ts', '.js': 'babel', '.json': 'json', '.md': 'markdown' };
const SCRIPT_PARSERS = new Set(['babel-ts', 'babel']);

/**
 * Formatted text by (options, text). The runtime templates are the same bytes in every version's
 * output, so `generate --all` would otherwise format ~150 kB of identical code five times over.
 */
const memo = new BoundedMemo<Promise<string>>(64);

/**
 * The options prettier's CLI resolves for `<outDir>/<path>` (config file, overrides, `.editorconfig`), or
 * null when nothing applies (prettier's defaults).
 */
export async function resolvedFormatOptions(outDir: string, path: string): Promise<Options | null> {
  const prettier = await import('prettier');
  return prettier.resolveConfig(join(outDir, path), { editorconfig: true });
}

/**
 * Forget what prettier has read of config files: called before each generation, so one in a long-running
 * process (watch mode, the API) sees a config edited or created since the last.
 */
export async function forgetFormatConfig(): Promise<void> {
  const prettier = await import('prettier');
  await prettier.clearConfigCache();
}

export async function formatFile(outDir: string, path: string, text: string): Promise<string> {
  const ext = path.slice(path.lastIndexOf('.'));
  const parser = PARSERS[ext];
  if (!parser) return text;
  const prettier = await import('prettier');
  const found = await resolvedFormatOptions(outDir, path);
  const options: Options = { ...(found ?? {}), parser, filepath: undefined };
  // The same text either way (embeds.ts), for less of prettier's time.
  if (SCRIPT_PARSERS.has(parser) && !mayHoldTemplateLiterals(text)) options.embeddedLanguageFormatting = 'off';
  const key = sha256(`${JSON.stringify(options)}\0${text}`);
  let formatted = memo.get(key);
  if (!formatted) {
    formatted = memo.set(key, prettier.format(text, options));
    formatted.catch(() => memo.delete(key));
  }
  return formatted;
}
