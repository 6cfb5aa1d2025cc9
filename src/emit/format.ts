/**
 * Formatting, once, in memory, with the prettier config that applies to the output directory (so the
 * files on disk match what the user's own prettier would produce, and `--check` never flags formatting).
 */
import { join } from 'node:path';
import * as prettier from 'prettier';

const PARSERS: Record<string, string> = { '.ts': 'babel-ts', '.js': 'babel', '.json': 'json', '.md': 'markdown' };
const DEFAULTS: prettier.Options = { printWidth: 120, singleQuote: true };

export async function formatFile(outDir: string, path: string, text: string): Promise<string> {
  const ext = path.slice(path.lastIndexOf('.'));
  const parser = PARSERS[ext];
  if (!parser) return text;
  const found = await prettier.resolveConfig(join(outDir, path), { editorconfig: false });
  return prettier.format(text, { ...DEFAULTS, ...(found ?? {}), parser, filepath: undefined });
}
