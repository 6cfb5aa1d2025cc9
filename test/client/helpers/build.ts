/**
 * Generated output for the client and server tests, built once per inputs and shared by the test
 * files (vitest runs them in separate workers):
 *
 *   generate(version) → <dir>/generated/*.ts → transpiled to <dir>/js/generated/*.js (validators.js copied)
 *
 * Plain `node` (the child processes) and vitest both import the JS. The directory is keyed by a hash of
 * everything that shapes the output (src/, templates/, the schema), written to a temp name and renamed
 * into place, so concurrent workers never see half a build. Everything lives under test/.tmp.
 */
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { generate } from '../../../src/generate.js';

import { ROOT, SCHEMA_DIR } from '../../helpers/paths.js';

export { ROOT, SCHEMA_DIR };
export const TMP = join(ROOT, 'test', '.tmp');
export const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
export const EVERYTHING_BIN = join(
  ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

export type Version = '2024-11-05' | '2025-03-26' | '2025-06-18' | '2025-11-25' | '2026-07-28';

export interface Built {
  /** `<dir>/generated/*.ts`: the generated sources. */
  dir: string;
  /** `<dir>/js/generated/*.js`: what node and the tests import. */
  jsDir: string;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}

function inputsKey(version: Version): string {
  const hash = createHash('sha256');
  for (const base of ['src', 'templates']) {
    for (const file of walk(join(ROOT, base))) {
      if (!file.endsWith('.ts')) continue;
      hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  hash.update(readFileSync(join(SCHEMA_DIR, version, 'schema.json')));
  return hash.digest('hex').slice(0, 16);
}

/** Transpile one TS file to ESM JS (types erased; type checking is the type tests' job). */
export function transpileFile(source: string, target: string): void {
  const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
    fileName: source,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
  });
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, outputText);
}

const building = new Map<Version, Promise<Built>>();

/** The generated output of a version, built (or reused) under test/.tmp. */
export function built(version: Version): Promise<Built> {
  let result = building.get(version);
  if (!result) {
    result = build(version);
    building.set(version, result);
    result.catch(() => building.delete(version));
  }
  return result;
}

async function build(version: Version): Promise<Built> {
  const final = join(TMP, 'generated-builds', `${version}-${inputsKey(version)}`);
  const done = { dir: join(final, 'generated'), jsDir: join(final, 'js', 'generated') };
  if (existsSync(join(final, 'ok'))) return done;
  const staging = `${final}.${process.pid}.${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  const result = await generate({
    spec: version,
    schemaDir: SCHEMA_DIR,
    cwd: ROOT,
    outDir: join(staging, 'generated'),
  });
  for (const file of result.files) {
    const target = join(staging, 'generated', file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.contents);
  }
  writeFileSync(join(staging, 'package.json'), '{ "type": "module" }\n');
  for (const file of walk(join(staging, 'generated'))) {
    const rel = relative(join(staging, 'generated'), file);
    const out = join(staging, 'js', 'generated', rel);
    if (file.endsWith('.d.ts')) continue;
    if (file.endsWith('.ts')) transpileFile(file, out.replace(/\.ts$/, '.js'));
    else if (file.endsWith('.js')) {
      mkdirSync(dirname(out), { recursive: true });
      cpSync(file, out);
    }
  }
  writeFileSync(join(staging, 'ok'), '');
  try {
    renameSync(staging, final);
  } catch {
    // Another worker got there first: its build is the same.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(final, 'ok'))) throw new Error(`could not place ${final}`);
  }
  return done;
}

/** Import a transpiled module of a build (`index.js`, `validators.js`, `runtime/core/peer.js`…). */
export function importBuilt<T = any>(b: Built, file: string): Promise<T> {
  return import(/* @vite-ignore */ pathToFileURL(join(b.jsDir, file)).href) as Promise<T>;
}

/**
 * A fixture .ts that imports `./generated/index.js`, transpiled next to a copy of a build's JS:
 * returns the path of the fixture's .js, ready for `node`.
 */
export async function compileFixture(version: Version, fixture: string): Promise<string> {
  const b = await built(version);
  mkdirSync(TMP, { recursive: true });
  const dir = mkdtempSync(join(TMP, 'fixture-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  cpSync(b.jsDir, join(dir, 'generated'), { recursive: true });
  const out = join(dir, basename(fixture).replace(/\.ts$/, '.js'));
  transpileFile(fixture, out);
  return out;
}
