/**
 * `generate()` results shared between the suite's workers through files under test/.tmp/generate-cache: the
 * workers each keep their own module registry, so without this every worker generates the same official
 * schema again (seconds each).
 *
 * An entry can never be stale: it is filed under the fingerprint of the generator's sources (the tool build's
 * inputs as scripts/build.mjs lists them: src/, templates/, package.json; plus schema/ and package-lock.json)
 * and named by the hash of the options and of every input the output depends on (src/inputs.ts, the one list
 * of them: schema, extension and tools files by content, prettier config, writer versions). When the inputs
 * cannot be hashed (an unreadable file, a prettier config written as code) nothing is cached. A failed
 * generation is never written, so it is thrown again on the next call.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate, type GenerateOptions, type GenerateResult } from '../../src/generate.js';
import { targetInputs } from '../../src/inputs.js';
import { ROOT, TMP } from './paths.js';

interface BuildScript {
  BUILDS: { tool: { inputs: string[] } };
  fingerprint(root: string, inputs: string[]): string;
}

const CACHE = join(TMP, 'generate-cache');

let folder: Promise<string> | undefined;

/** This checkout's folder of entries, made once per worker; folders of other sources are removed. */
function cacheFolder(): Promise<string> {
  folder ??= (async () => {
    const script = (await import(pathToFileURL(join(ROOT, 'scripts', 'build.mjs')).href)) as BuildScript;
    const sources = script.fingerprint(ROOT, [...script.BUILDS.tool.inputs, 'schema', 'package-lock.json']);
    mkdirSync(join(CACHE, sources), { recursive: true });
    for (const name of readdirSync(CACHE))
      if (name !== sources) rmSync(join(CACHE, name), { recursive: true, force: true });
    return join(CACHE, sources);
  })();
  return folder;
}

/** The entry's file for these options, or undefined when an input cannot be hashed. */
export async function entryFile(options: GenerateOptions): Promise<string | undefined> {
  const cwd = options.cwd ?? process.cwd();
  const inputs = await targetInputs({ ...options, cwd, outDir: resolve(cwd, options.outDir ?? 'generated') });
  if (inputs.hash === undefined) return undefined;
  const name = createHash('sha256')
    .update(JSON.stringify([options, inputs.hash]))
    .digest('hex');
  return join(await cacheFolder(), `${name}.json`);
}

const read = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * `generate(options)`, or the result an earlier call with the same sources, options and inputs wrote. Both
 * come back parsed from the same JSON, so a test sees the same shape whichever it got.
 */
export async function sharedGenerate(options: GenerateOptions): Promise<GenerateResult> {
  const file = await entryFile(options);
  const cached = file === undefined ? undefined : read(file);
  if (cached !== undefined) return JSON.parse(cached) as GenerateResult;
  const text = JSON.stringify(await generate(options));
  if (file) {
    // Written whole, then renamed: a worker reading meanwhile sees no entry or all of it.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, text);
    renameSync(partial, file);
  }
  return JSON.parse(text) as GenerateResult;
}
