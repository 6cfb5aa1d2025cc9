/**
 * Generated output with a tool snapshot (`tools`) for the typed-surface tests: generated in process into a
 * fresh directory under test/.tmp (`generated/*.ts`), and transpiled next to it (`js/generated/*.js`) for the
 * tests that run it.
 */
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { GenerateOptions } from '../../src/generate.js';
import { transpileFile } from '../client/helpers/build.js';
import { ROOT, SCHEMA_DIR, generatedFrom, tempDir, writeFiles } from '../helpers/generate.js';

export const EVERYTHING_SNAPSHOT = join(ROOT, 'test', 'fixtures', 'snapshots', 'everything.snapshot.json');
export const GOLDEN_FIXTURE = join(ROOT, 'test', 'fixtures', 'golden');

export interface ToolsBuild {
  /** The directory holding `generated/` (and `js/generated/`). */
  dir: string;
  warnings: string[];
  /** Imports a transpiled generated module (`index.js`, `tool-validators.js`). */
  load<T = any>(file: string): Promise<T>;
}

/** 2025-11-25 (unless the options say otherwise) with `tools`, written and transpiled. */
export async function buildWithTools(prefix: string, options: Partial<GenerateOptions> = {}): Promise<ToolsBuild> {
  const dir = tempDir(prefix);
  const result = await generatedFrom({
    spec: '2025-11-25',
    schemaDir: SCHEMA_DIR,
    cwd: ROOT,
    outDir: join(dir, 'generated'),
    tools: EVERYTHING_SNAPSHOT,
    ...options,
  });
  writeFiles(join(dir, 'generated'), result.files);
  mkdirSync(join(dir, 'js', 'generated'), { recursive: true });
  for (const name of readdirSync(join(dir, 'generated'))) {
    const from = join(dir, 'generated', name);
    // validators.js and tool-validators.js are JavaScript already; their .d.ts files have nothing to run.
    if (name.endsWith('.js')) copyFileSync(from, join(dir, 'js', 'generated', name));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts'))
      transpileFile(from, join(dir, 'js', 'generated', name.replace(/\.ts$/, '.js')));
  }
  return {
    dir,
    warnings: result.warnings,
    load: (file) => import(/* @vite-ignore */ pathToFileURL(join(dir, 'js', 'generated', file)).href),
  };
}
