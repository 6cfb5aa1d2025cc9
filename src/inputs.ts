/**
 * The hash of everything a generated output depends on: the tool and its templates, the schema's and
 * extensions' bytes, every option that changes bytes (from the option table), and the prettier config
 * that applies to the out dir. Kept free of heavy imports (no prettier, ts-morph or JSTT) so `--check`
 * can compute it in milliseconds and skip regeneration when nothing changed.
 *
 * Nothing location-dependent goes in: no absolute path, so the same checkout anywhere hashes the same.
 * When an input cannot be known cheaply (a JavaScript prettier config, an unpinned schema URL) the
 * hash is `undefined` and the fast path steps aside.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from './errors.js';
import { officialExtensionFile } from './extensions/official.js';
import { hashedOptions, type TargetOptions } from './config/options.js';
import type { SchemaInput } from './load/schema.js';
import { specSha256WithoutNetwork } from './load/spec-source.js';
import { toolPackage } from './load/package-root.js';
import { runtimeTemplates } from './emit/runtime.js';
import { sha256 } from './load/hash.js';
import { prettierConfigFingerprint } from './load/prettier-config.js';

export interface InputFacts {
  schemaSha256: string;
  /** sha256 of each extension file, in the order given. */
  extensionShas: string[];
  /** sha256 of the pairing file, when one is given (it shapes the model like an extension). */
  pairingSha?: string;
  options: TargetOptions;
  /** Absolute out dir: only used to find the prettier config, never hashed itself. */
  outDir: string;
}

/** The inputs hash, or undefined when the prettier config is code (it cannot be hashed as data). */
export async function inputsHash(facts: InputFacts): Promise<string | undefined> {
  const format = facts.options.format !== false ? await prettierConfigFingerprint(facts.outDir) : 'not formatted';
  if (format === undefined) return undefined;
  return sha256(
    JSON.stringify({
      tool: toolPackage().version,
      templates: runtimeTemplates().map((t) => [t.name, sha256(t.text)]),
      schema: facts.schemaSha256,
      extensions: facts.extensionShas,
      pairing: facts.pairingSha ?? null,
      options: hashedOptions(facts.options),
      prettier: format,
    }),
  );
}

/** The same hash, read straight from disk, without loading, generating or downloading anything. */
export async function inputsHashFromDisk(
  options: SchemaInput & TargetOptions & { outDir: string },
): Promise<string | undefined> {
  const cwd = options.cwd ?? process.cwd();
  try {
    const schemaSha256 = await schemaSha256WithoutNetwork({ ...options, cwd });
    if (schemaSha256 === undefined) return undefined;
    const extensionShas: string[] = [];
    for (const file of options.extensions ?? []) {
      const path = officialExtensionFile(file, cwd) ?? resolve(cwd, file);
      extensionShas.push(sha256(await readFile(path, 'utf8')));
    }
    const pairingSha = options.pairing ? sha256(await readFile(resolve(cwd, options.pairing), 'utf8')) : undefined;
    return await inputsHash({ schemaSha256, extensionShas, pairingSha, options, outDir: resolve(cwd, options.outDir) });
  } catch (error) {
    if (error instanceof InputError) throw error;
    return undefined;
  }
}

/**
 * The schema's sha256 as generate would see it, without the network: a pinned URL has its pin, a
 * known version from the cache or a download has the manifest's hash (verified before any use), a
 * file is hashed. An unpinned URL has none.
 */
async function schemaSha256WithoutNetwork(options: SchemaInput & { cwd: string }): Promise<string | undefined> {
  if (options.text !== undefined) return sha256(options.text);
  if (options.schema && /^[a-z][a-z0-9+.-]*:\/\//i.test(options.schema)) return options.sha256?.toLowerCase();
  if (options.schema) return sha256(await readFile(resolve(options.cwd, options.schema), 'utf8'));
  if (options.spec) return specSha256WithoutNetwork(options.spec, options);
  return undefined;
}
