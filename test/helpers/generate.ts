/**
 * Shared helpers for the `generate` tests: paths, one cached generation per (schema, options) and per
 * test file, temp directories under test/.tmp (gitignored), the CLI, tsc, and directory snapshots.
 *
 * Nothing here copies the official schemas or their output into the repo: they are read from
 * ../shared/mcp-schema and everything generated goes under test/.tmp.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { GenerateOptions, GenerateResult } from '../../src/generate.js';
import { sharedGenerate } from './generate-cache.js';

import { CLI, ROOT, SCHEMA_DIR, TMP } from './paths.js';

export { CLI, ROOT, SCHEMA_DIR, TMP };
export const VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type Version = (typeof VERSIONS)[number];
export const FIXTURE_SCHEMAS = join(ROOT, 'test', 'fixtures', 'schemas');
export const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

export function officialSchemaPath(version: Version): string {
  return join(SCHEMA_DIR, version, 'schema.json');
}

/** A fresh directory under test/.tmp. */
export function tempDir(prefix: string): string {
  mkdirSync(TMP, { recursive: true });
  return mkdtempSync(join(TMP, `${prefix}-`));
}

const cache = new Map<string, Promise<GenerateResult>>();

/**
 * `generate()` for a known version (or any options), at most once per worker and options, and shared
 * between workers through ./generate-cache.ts: the official schemas take seconds each, and several tests
 * read the same output.
 */
export function generated(version: Version, extra: Partial<GenerateOptions> = {}): Promise<GenerateResult> {
  return generatedFrom({ spec: version, schemaDir: SCHEMA_DIR, cwd: ROOT, outDir: join(TMP, 'unused-out'), ...extra });
}

export function generatedFrom(options: GenerateOptions): Promise<GenerateResult> {
  const key = JSON.stringify(options);
  let result = cache.get(key);
  if (!result) {
    result = sharedGenerate(options);
    cache.set(key, result);
    // A failure must not be cached for the next test to trip over silently.
    result.catch(() => cache.delete(key));
  }
  return result;
}

/** Write generated files (plain writes: the tool's own writer is tested through the CLI). */
export function writeFiles(dir: string, files: readonly { path: string; contents: string }[]): void {
  for (const file of files) {
    const target = join(dir, file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.contents);
  }
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Run as this user and group (the caller must be root): how a test meets permissions root ignores. */
  user?: { uid: number; gid: number };
}

export function run(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...options.user,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** The built CLI, as published (`dist/cli/main.js`, the bundle). */
export function cli(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return run(process.execPath, [CLI, ...args], { ...options, env: { MCP_SCHEMA_DIR: SCHEMA_DIR, ...options.env } });
}

export interface TscOptions {
  /** Load @types/node (the runtime templates need it); default true. */
  node?: boolean;
  /**
   * Skip checking .d.ts files; default false, because generated validators.d.ts is one. Only worth it
   * when no generated .d.ts is in the program: checking @types/node costs seconds.
   */
  skipLibCheck?: boolean;
}

/** Strict compiler options for generated output: what a user on Node 20 + NodeNext would use. */
export function strictTsconfig(include: string[], options: TscOptions = {}): object {
  return {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2022'],
      types: options.node === false ? [] : ['node'],
      typeRoots: [join(ROOT, 'node_modules', '@types')],
      strict: true,
      noEmit: true,
      skipLibCheck: options.skipLibCheck ?? false,
      isolatedModules: true,
      verbatimModuleSyntax: true,
      forceConsistentCasingInFileNames: true,
    },
    include,
  };
}

/** Writes `<dir>/tsconfig.json` (strictTsconfig) and a package.json that makes `.ts` files ESM under NodeNext. */
export function writeTscProject(dir: string, options: TscOptions & { include?: string[] } = {}): void {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify(strictTsconfig(options.include ?? ['**/*.ts'], options), null, 2),
  );
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
}

/**
 * `tsc --strict --noEmit` over a directory: writes `<dir>/tsconfig.json` (and a package.json that
 * makes `.ts` files ESM under NodeNext) and runs the repo's TypeScript on it.
 */
export async function tscProject(dir: string, options: TscOptions & { include?: string[] } = {}): Promise<RunResult> {
  writeTscProject(dir, options);
  return run(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json'), '--strict', '--noEmit', '--pretty', 'false'], {
    cwd: dir,
  });
}

/** Every file under a directory, relative path → sha256 of its bytes (plus mtime-independent). */
export function snapshotDir(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else
        out[relative(dir, full).split(sep).join('/')] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** The sha256 of a file's bytes. */
export function fileHash(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}
