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
import { statementPieces } from './statement-pieces.js';

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
  const found = await resolvedFormatOptions(outDir, path);
  const options: Options = { ...(found ?? {}), parser, filepath: undefined };
  const key = sha256(`${JSON.stringify(options)}\0${text}`);
  let formatted = memo.get(key);
  if (!formatted) {
    formatted = memo.set(key, formatText(text, options));
    formatted.catch(() => memo.delete(key));
  }
  return formatted;
}

/**
 * Prettier's text for a file, formatted in pieces of about this many characters where that gives the same
 * text (statement-pieces.ts): small enough that a piece's trees die in the young generation, large enough
 * that prettier's cost per call (~0.6 ms) stays out of sight.
 */
const PIECE_SIZE = 64 * 1024;

/** Prettier's text for `text` under `options` (with their parser). `pieceSize` 0 cuts at every statement (tests). */
export async function formatText(text: string, options: Options, pieceSize = PIECE_SIZE): Promise<string> {
  const prettier = await import('prettier');
  const pieces = SCRIPT_PARSERS.has(options.parser as string) ? statementPieces(text, pieceSize) : null;
  if (pieces === null) return prettier.format(text, options);
  // No template literal: prettier's embedded-language pass, which formats only those, has nothing to do.
  const plain: Options = { ...options, embeddedLanguageFormatting: 'off' };
  if (!piecewise(plain) || pieces.length === 1) return prettier.format(text, plain);
  let out = '';
  for (const piece of pieces) out += `${piece.blankBefore ? '\n' : ''}${await prettier.format(piece.text, plain)}`;
  return out;
}

/**
 * Options under which a file formats statement by statement. A plugin may work on the whole file (sorting
 * imports), the pragma and range options look at where the file starts and ends, and other line endings
 * would need other joins.
 */
function piecewise(options: Options): boolean {
  return (
    (options.plugins === undefined || options.plugins.length === 0) &&
    options.requirePragma !== true &&
    options.insertPragma !== true &&
    options.checkIgnorePragma !== true &&
    options.rangeStart === undefined &&
    options.rangeEnd === undefined &&
    (options.endOfLine === undefined || options.endOfLine === 'lf')
  );
}
