/**
 * Generated output with a tool snapshot (`tools`) for the typed-surface tests: generated in process
 * (`generated/*.ts`) and transpiled next to it (`js/generated/*.js`) for the tests that run it. One build per
 * options and inputs, shared by the test files under test/.tmp/tools-builds/<key> (the key of
 * test/helpers/generate-cache.ts: sources, options, inputs' contents), placed by rename so a concurrent worker
 * sees no build or all of it. Tests only read a build; one that edits copies it first.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { GenerateOptions } from '../../src/generate.js';
import { transpileFile } from '../client/helpers/build.js';
import { entryFile } from '../helpers/generate-cache.js';
import { ROOT, SCHEMA_DIR, TMP, generatedFrom, tempDir, writeFiles } from '../helpers/generate.js';

export const EVERYTHING_SNAPSHOT = join(ROOT, 'test', 'fixtures', 'snapshots', 'everything.snapshot.json');
export const GOLDEN_FIXTURE = join(ROOT, 'test', 'fixtures', 'golden');

export interface ToolsBuild {
  /** The directory holding `generated/` (and `js/generated/`). */
  dir: string;
  warnings: string[];
  /** Imports a transpiled generated module (`index.js`, `tool-validators.js`). */
  load<T = any>(file: string): Promise<T>;
}

/** Writes the output into `dir`/generated and its JavaScript into `dir`/js/generated. */
function writeBuild(dir: string, files: { path: string; contents: string }[]): void {
  writeFiles(join(dir, 'generated'), files);
  mkdirSync(join(dir, 'js', 'generated'), { recursive: true });
  for (const name of readdirSync(join(dir, 'generated'))) {
    const from = join(dir, 'generated', name);
    // validators.js and tool-validators.js are JavaScript already; their .d.ts files have nothing to run.
    if (name.endsWith('.js')) copyFileSync(from, join(dir, 'js', 'generated', name));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts'))
      transpileFile(from, join(dir, 'js', 'generated', name.replace(/\.ts$/, '.js')));
  }
}

/** 2025-11-25 (unless the options say otherwise) with `tools`, written and transpiled. */
export async function buildWithTools(prefix: string, overrides: Partial<GenerateOptions> = {}): Promise<ToolsBuild> {
  const options: GenerateOptions = {
    spec: '2025-11-25',
    schemaDir: SCHEMA_DIR,
    cwd: ROOT,
    outDir: join(TMP, 'tools-builds', 'out'),
    tools: EVERYTHING_SNAPSHOT,
    ...overrides,
  };
  const result = await generatedFrom(options);
  const key = await entryFile(options);
  // Under the generator's sources too (the cache entry's folder): a build of older sources is never reused.
  const name = key === undefined ? undefined : `${basename(dirname(key)).slice(0, 16)}-${basename(key, '.json')}`;
  let dir = name === undefined ? tempDir(prefix) : join(TMP, 'tools-builds', name);
  if (name === undefined) writeBuild(dir, result.files);
  else if (!existsSync(join(dir, 'done'))) {
    const staging = tempDir(prefix);
    writeBuild(staging, result.files);
    writeFileSync(join(staging, 'done'), '');
    mkdirSync(join(TMP, 'tools-builds'), { recursive: true });
    try {
      renameSync(staging, dir);
    } catch {
      // Another worker placed the same build first (or one is in the way: use this one).
      if (existsSync(join(dir, 'done'))) rmSync(staging, { recursive: true, force: true });
      else dir = staging;
    }
  }
  return {
    dir,
    warnings: result.warnings,
    load: (file) => import(/* @vite-ignore */ pathToFileURL(join(dir, 'js', 'generated', file)).href),
  };
}
