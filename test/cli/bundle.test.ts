/**
 * The published bin is a bundle (scripts/bundle-cli.mjs): a plain `generate` with no prettier config in
 * reach runs from it without loading prettier, yargs, typescript or json-schema-to-typescript's $ref
 * resolver, which the bundle leaves out or defers because that run never calls them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { CLI, outsideTempDir, SCHEMA_DIR } from './helpers.js';

const dir = outsideTempDir('bundle');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Appends every module the child resolves (ESM through a resolve hook, CommonJS through Module._load). */
const RESOLVE_HOOK = `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  appendFileSync(process.env.LOADED_FILE, found.url + '\\n');
  return found;
}`)}`;
const HOOK = `data:text/javascript,${encodeURIComponent(`
import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';
register(${JSON.stringify(RESOLVE_HOOK)});
const load = Module._load;
Module._load = function (request, parent, isMain) {
  appendFileSync(process.env.LOADED_FILE, Module._resolveFilename(request, parent, isMain) + '\\n');
  return load.apply(this, arguments);
};`)}`;

it('generates from the bundled bin without loading what the run does not use', () => {
  const pkg = JSON.parse(readFileSync(join(CLI, '..', '..', '..', 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  expect(join(CLI, '..', '..', '..', pkg.bin['mcp-typegen']!)).toBe(CLI);
  const loadedFile = join(dir, 'loaded.json');
  const out = join(dir, 'out');
  const run = spawnSync(
    process.execPath,
    ['--import', HOOK, CLI, 'generate', '--spec', '2024-11-05', '--schema-dir', SCHEMA_DIR, '--out', out],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', LOADED_FILE: loadedFile } },
  );
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(existsSync(join(out, 'validators.ts'))).toBe(true);
  const loaded = readFileSync(loadedFile, 'utf8')
    .split('\n')
    .map((f) => f.replaceAll('\\', '/'));
  expect(loaded.some((f) => f.endsWith('/dist/cli/main.js'))).toBe(true);
  for (const pkgName of ['prettier', 'yargs', 'typescript', '@apidevtools/json-schema-ref-parser'])
    expect(loaded.filter((f) => f.includes(`/node_modules/${pkgName}/`))).toEqual([]);
  // Bundled, so not read from node_modules at all.
  expect(loaded.filter((f) => /\/node_modules\/(?:ajv|lodash|json-schema-to-typescript)\//.test(f))).toEqual([]);
});

it('validates a config file with the bundled ajv, not a second copy from node_modules', () => {
  const project = join(dir, 'with-config');
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'mcp-typegen.config.json'),
    JSON.stringify({ targets: [{ name: 'mcp', spec: '2024-11-05', out: 'mcp', artifacts: ['types'] }] }),
  );
  const loadedFile = join(project, 'loaded.json');
  const env = { ...process.env, NO_COLOR: '1', LOADED_FILE: loadedFile, MCP_SCHEMA_DIR: SCHEMA_DIR };
  const run = spawnSync(process.execPath, ['--import', HOOK, CLI, 'generate'], { cwd: project, encoding: 'utf8', env });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(existsSync(join(project, 'mcp', 'types.ts'))).toBe(true);
  const loaded = readFileSync(loadedFile, 'utf8').replaceAll('\\', '/');
  expect(loaded).not.toMatch(/\/node_modules\/ajv\//);
});
