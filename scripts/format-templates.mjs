#!/usr/bin/env node
/**
 * Formats templates/ with the repository's own prettier config (.prettierrc.json), as `npm run format` formats
 * the rest of the repository. (The runtime a generation vendors is formatted again with the user's config.)
 * `--check` lists unformatted files and exits 1 (test/templates/format.test.ts runs it).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const TEMPLATE_FORMAT = {
  ...JSON.parse(readFileSync(join(ROOT, '.prettierrc.json'), 'utf8')),
  parser: 'babel-ts',
};

export async function unformattedTemplates(write = false) {
  const dir = join(ROOT, 'templates');
  const bad = [];
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((n) => n.endsWith('.ts'))
    .sort()) {
    const path = join(dir, name);
    const text = readFileSync(path, 'utf8');
    const formatted = await prettier.format(text, TEMPLATE_FORMAT);
    if (formatted !== text) {
      bad.push(name);
      if (write) writeFileSync(path, formatted);
    }
  }
  return bad;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const bad = await unformattedTemplates(!check);
  if (check && bad.length) {
    console.error(`not formatted: ${bad.join(', ')} (run npm run format:templates)`);
    process.exit(1);
  }
  if (!check) console.log(bad.length ? `formatted ${bad.join(', ')}` : 'templates already formatted');
}
