/**
 * Shared pieces of the vendor-extension end-to-end tests: the example extension, the fixtures, and a
 * tsc build of generated output + fixture sources to plain ESM JavaScript that a child process can run
 * under Node 20 (validators.js is already JavaScript and is copied along).
 *
 * Everything generated goes to test/.tmp (gitignored); the official schemas are read in place.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transpileFile } from '../client/helpers/build.js';
import {
  ROOT,
  TSC,
  generated,
  run,
  tempDir,
  strictTsconfig,
  writeFiles,
  type RunResult,
  type TscOptions,
  type Version,
} from '../helpers/generate.js';
import type { GenerateOptions, GenerateResult } from '../../src/generate.js';

export const ACME = join(ROOT, 'schema', 'examples', 'acme-jobs.extension.json');
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'ext-e2e');
export const TYPE_TESTS = join(FIXTURES, 'type-tests');
/** The versions the example extension targets. */
export const ACME_TARGETS = ['2025-06-18', '2025-11-25', '2026-07-28'] as const satisfies readonly Version[];
export const ACME_METHODS = [
  'acme/jobs.cancel',
  'acme/jobs.finished',
  'acme/jobs.list',
  'acme/jobs.start',
  'acme/jobs.status',
];

/** `generate()` with the example extension (cached per worker and options, and shared between workers). */
export function generatedWithAcme(version: Version, extra: Partial<GenerateOptions> = {}): Promise<GenerateResult> {
  return generated(version, { extensions: [ACME], ...extra });
}

/** Write generated output to `<dir>/generated` and copy the fixture sources of `version` beside it. */
export function layoutVersion(dir: string, version: Version, result: GenerateResult): void {
  writeFiles(join(dir, 'generated'), result.files);
  const fixtures = join(TYPE_TESTS, version);
  if (existsSync(fixtures)) {
    for (const name of readdirSync(fixtures).filter((n) => n.endsWith('.ts')))
      copyFileSync(join(fixtures, name), join(dir, name));
  }
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
}

/**
 * tsc --strict with emit: `<dir>/**\/*.ts` → `<dir>/js/**\/*.js`, type-checked on the way (so a fixture
 * server written against the generated handler types must compile).
 */
export async function buildJs(dir: string, options: TscOptions = {}): Promise<RunResult & { outDir: string }> {
  const outDir = join(dir, 'js');
  const config = strictTsconfig(['**/*.ts'], options) as {
    compilerOptions: Record<string, unknown>;
    include: string[];
  };
  Object.assign(config.compilerOptions, { noEmit: false, outDir, rootDir: dir, sourceMap: false, declaration: false });
  Object.assign(config, { exclude: ['js'] });
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2));
  const result = await run(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], {
    cwd: dir,
  });
  if (result.code === 0) {
    writeFileSync(join(outDir, 'package.json'), '{ "type": "module" }\n');
    // tsc emits what it compiles: the validators are JavaScript beside their declarations, copied as they are.
    const validators = join(dir, 'generated', 'validators.js');
    if (existsSync(validators)) copyFileSync(validators, join(outDir, 'generated', 'validators.js'));
  }
  return { ...result, outDir };
}

/** Node arguments that run a built script of `outDir`. */
export function nodeArgs(outDir: string, script: string): string[] {
  return [join(outDir, script)];
}

/** `error TS…` lines of a tsc run. */
export function diagnostics(result: RunResult): string[] {
  return (result.stdout + result.stderr).split('\n').filter((l) => /error TS\d+/.test(l));
}

/**
 * Generated output transpiled to JS (types erased, not checked) in a fresh temp dir, and its index module
 * imported: for runtime tests that need no tsc run.
 */
export async function importGenerated(name: string, result: GenerateResult): Promise<Record<string, any>> {
  const dir = tempDir(name);
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const file of result.files) {
    // validators.js is JavaScript already; its .d.ts has nothing to run.
    if (file.path.endsWith('.d.ts')) continue;
    if (file.path.endsWith('.js')) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.contents);
      continue;
    }
    const source = join(dir, 'ts', file.path);
    mkdirSync(dirname(source), { recursive: true });
    writeFileSync(source, file.contents);
    transpileFile(source, join(dir, file.path.replace(/\.ts$/, '.js')));
  }
  return (await import(pathToFileURL(join(dir, 'index.js')).href)) as Record<string, any>;
}

/** Generated output's validators.js, imported (it is JavaScript already). */
export async function importValidators(name: string, result: GenerateResult): Promise<any> {
  const file = result.files.find((f) => f.path === 'validators.js');
  if (file === undefined) throw new Error('no validators.js in the output');
  const dir = tempDir(name);
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'validators.js'), file.contents);
  return import(pathToFileURL(join(dir, 'validators.js')).href);
}
