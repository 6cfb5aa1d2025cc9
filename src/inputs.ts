/**
 * A target's inputs: everything its output depends on, found in one place. `generate()` stamps the manifest
 * with their hash, `--check` compares that hash to take its fast path, and watch mode watches their files,
 * so the three can never disagree about what counts.
 *
 * The inputs: the schema's bytes; every extension file, with every file an extension reaches through a
 * cross-file `$ref` (transitively); the pairing file; the tools snapshot (`tools`); the options that change
 * bytes (from the option table, however they were given: flags or the config file, which is watched too);
 * the prettier config and `.editorconfig` files that apply to the out dir; the tool's version, its runtime templates and the versions of the libraries that
 * write the output.
 *
 * Kept free of heavy imports (no prettier, ts-morph, json-schema-to-typescript or ajv: files are read as
 * JSON, nothing is validated) so `--check` answers in milliseconds. Nothing location-dependent is hashed (no
 * absolute path), so the same checkout anywhere hashes the same. A prettier config written as code is resolved
 * by prettier itself (the one heavy import here, and only then). Where an input cannot be known (an unpinned
 * schema URL, an unreadable file) there is no hash and the fast path steps aside.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { InputError } from './errors.js';
import { hashedOptions, type TargetOptions } from './config/options.js';
import { crossFileRefsOf, resolveSibling } from './extensions/rules.js';
import { officialExtensionFile } from './extensions/official.js';
import { sha256 } from './load/hash.js';
import { toolBuild, toolPackage } from './load/package-root.js';
import { prettierInputs } from './load/prettier-config.js';
import { resolveSchemaPath, type SchemaInput } from './load/schema.js';
import { specSha256WithoutNetwork } from './load/spec-source.js';
import { runtimeTemplates, runtimeVersion } from './emit/shared/runtime.js';

/** The libraries whose versions shape the output's bytes. */
const WRITERS = ['ajv', 'json-schema-to-typescript', 'prettier', 'ts-morph', 'typescript'] as const;

export type TargetInputOptions = SchemaInput & TargetOptions & { outDir: string };

export interface TargetInputs {
  /** Every local file the output depends on, absolute and sorted: what watch mode watches. */
  files: string[];
  /** The hash of all the inputs; undefined when one of them cannot be hashed as data. */
  hash: string | undefined;
}

/**
 * The inputs of one target, read from disk. A file that cannot be read leaves the hash undefined (the run
 * itself reports it) but keeps its name in `files`, so watch sees it appear.
 */
export async function targetInputs(
  options: TargetInputOptions,
  extra: { configFile?: string } = {},
  tool: { version: string; build: string | null } = { version: toolPackage().version, build: toolBuild() },
): Promise<TargetInputs> {
  const cwd = options.cwd ?? process.cwd();
  const files = new Set<string>();
  if (extra.configFile) files.add(resolve(cwd, extra.configFile));
  let readable = true;
  const hashOf = async (file: string): Promise<string | undefined> => {
    files.add(file);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) readable = false;
    return text === undefined ? undefined : sha256(text);
  };

  const schema = await schemaInput(options, cwd, files);
  const extensions: (string | undefined)[] = [];
  for (const file of await extensionFiles(options.extensions ?? [], cwd)) extensions.push(await hashOf(file));
  const pairing = options.pairing ? await hashOf(resolve(cwd, options.pairing)) : null;
  const tools = options.tools ? await hashOf(resolve(cwd, options.tools)) : null;
  const prettier = options.format !== false ? await formattingInputs(resolve(cwd, options.outDir)) : undefined;
  for (const file of prettier?.files ?? []) files.add(file);

  const hashable = readable && schema !== undefined;
  const hash = hashable
    ? sha256(
        JSON.stringify({
          tool: tool.version,
          build: tool.build,
          runtime: runtimeVersion(),
          writers: writerVersions(),
          templates: runtimeTemplates().map((t) => [t.name, sha256(t.text)]),
          schema,
          extensions,
          pairing,
          tools,
          options: hashedOptions(options),
          prettier: options.format === false ? 'not formatted' : prettier?.data,
        }),
      )
    : undefined;
  return { files: [...files].sort(), hash };
}

/**
 * What shapes the formatting, as data: the config and `.editorconfig` files' bytes where they are data; where the
 * config is code or a shared config package, also what prettier resolves it to for the output (prettier is
 * loaded then, ~50 ms: `--check` keeps its fast path for every config form prettier accepts). Its `files` are
 * what watch watches, the places a config could be created included.
 */
async function formattingInputs(outDir: string): Promise<{ files: string[]; data: unknown }> {
  const { file, files, config, editorconfig } = await prettierInputs(outDir);
  if (config !== undefined) return { files, data: { config, editorconfig } };
  const { forgetFormatConfig, resolvedFormatOptions } = await import('./emit/shared/format.js');
  // Resolved afresh: a shared config package or a file the config imports may have changed since.
  await forgetFormatConfig();
  const bytes = file === null ? null : sha256(await readFile(file, 'utf8').catch(() => ''));
  return { files, data: { bytes, editorconfig, resolved: await resolvedFormatOptions(outDir, 'index.ts') } };
}

/**
 * The schema's sha256 as generate would see it, without the network: a pinned URL has its pin, a known
 * version from the cache or a download has the manifest's hash (verified before any use), a file is
 * hashed. An unpinned URL has none. Its local file, where there is one, joins `files`.
 */
async function schemaInput(options: SchemaInput, cwd: string, files: Set<string>): Promise<string | undefined> {
  if (options.text !== undefined) return sha256(options.text);
  if (options.schema && /^[a-z][a-z0-9+.-]*:\/\//i.test(options.schema)) return options.sha256?.toLowerCase();
  try {
    const local = resolveSchemaPath({ ...options, cwd });
    if (local) files.add(local);
  } catch (error) {
    // An unknown --spec: the run reports it; there is nothing to hash or watch.
    if (error instanceof InputError) return undefined;
    throw error;
  }
  try {
    if (options.schema) return sha256(await readFile(resolve(cwd, options.schema), 'utf8'));
    if (options.spec) return await specSha256WithoutNetwork(options.spec, { ...options, cwd });
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * The extension files as given (official ids stand for the shipped files), then every file their cross-file
 * `$ref`s reach, each once, in a fixed order. Only their bytes are hashed, never their paths: the same
 * project in another folder hashes the same.
 */
async function extensionFiles(given: readonly string[], cwd: string): Promise<string[]> {
  const queue = given.map((name) => officialExtensionFile(name, cwd) ?? resolve(cwd, name));
  const seen = new Set<string>();
  for (const file of queue) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    for (const ref of text === undefined ? [] : crossFileRefs(text)) queue.push(resolveSibling(file, ref));
  }
  return [...seen];
}

/** The files an extension's `<file>#/definitions/<Name>` refs name, as written. Unparsable text has none. */
function crossFileRefs(text: string): string[] {
  try {
    return crossFileRefsOf(JSON.parse(text));
  } catch {
    return [];
  }
}

let writers: Record<string, string> | undefined;
/** The installed version of each library that writes output (read once: they cannot change mid-run). */
function writerVersions(): Record<string, string> {
  if (writers) return writers;
  const require = createRequire(import.meta.url);
  writers = {};
  for (const name of WRITERS) {
    try {
      const manifest = JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as {
        version?: string;
      };
      writers[name] = manifest.version ?? 'unknown';
    } catch {
      writers[name] = 'not installed';
    }
  }
  return writers;
}
