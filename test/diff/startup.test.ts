/**
 * `diff` loads only what it uses (its cost goal lives in `npm run bench`; here, what it must not do): a
 * diff of two schemas evaluates neither ajv (snapshot files are checked with it, and only snapshots are)
 * nor yargs' help layout (cliui and string-width build an Intl.Segmenter and `\p{RGI_Emoji}` regexes when
 * evaluated: scripts/bundle-cli.mjs defers them to first use), and yargs lays out no help text it will
 * not print. `--help` still prints the whole help.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { CLI, SCHEMA_DIR, tempDir } from '../cli/helpers.js';

/** Preloaded: counts Intl.Segmenter constructions, and lists the modules the run resolved, at exit. */
const HOOK = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
import { appendFileSync, writeFileSync } from 'node:fs';
register(${JSON.stringify(
  `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  appendFileSync(process.env.LOADED_FILE, found.url + '\\n');
  return found;
}`)}`,
)});
let segmenters = 0;
const Segmenter = Intl.Segmenter;
Intl.Segmenter = new Proxy(Segmenter, { construct: (target, args) => (segmenters++, new target(...args)) });
process.on('exit', () => writeFileSync(process.env.SEGMENTERS_FILE, String(segmenters)));`)}`;

function run(args: string[], name: string) {
  const dir = tempDir(`startup-${name}`);
  const env = { ...process.env, LOADED_FILE: join(dir, 'loaded'), SEGMENTERS_FILE: join(dir, 'segmenters') };
  const result = spawnSync(process.execPath, ['--import', HOOK, CLI, ...args], { encoding: 'utf8', env });
  const chunks = [
    ...new Set(
      readFileSync(env.LOADED_FILE, 'utf8')
        .split('\n')
        .filter((u) => /\/dist\/cli\/[^/]+\.js$/.test(u)),
    ),
  ];
  const bundled = chunks.flatMap((url) =>
    [...readFileSync(new URL(url), 'utf8').matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((m) => m[1]),
  );
  return { ...result, segmenters: Number(readFileSync(env.SEGMENTERS_FILE, 'utf8')), bundled: new Set(bundled) };
}

test('a diff of two released versions loads no ajv and builds no Intl.Segmenter', () => {
  const r = run(['diff', '2025-11-25', '2026-07-28', '--schema-dir', SCHEMA_DIR], 'diff');
  expect(r.status).toBe(1);
  expect(r.stdout).toContain('breaking');
  expect(r.bundled.has('yargs')).toBe(true);
  expect(r.bundled.has('ajv')).toBe(false);
  expect(r.segmenters).toBe(0);
});

test('diff --help lays out the whole help (with the deferred layout), as before', () => {
  const r = run(['diff', '--help'], 'help');
  expect(r.status).toBe(0);
  expect(r.segmenters).toBeGreaterThan(0);
  expect(r.stdout).toMatch(/^mcp-typegen diff \[old\] \[new\]\n/);
  expect(r.stdout).toContain('--allow-shrink');
  // cliui's layout: columns, wrapped at 80 characters.
  expect(r.stdout).toContain('\n  -q, --quiet                 Print errors only                        [boolean]\n');
});
