/**
 * The hash of everything a generated output depends on. Kept free of heavy imports (no prettier,
 * ts-morph or JSTT) so `--check` can compute it in milliseconds and skip regeneration when nothing changed.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from './errors.js';
import { resolveSchemaPath, type SchemaInput } from './load/schema.js';
import { toolPackage } from './load/package-root.js';
import { runtimeTemplates } from './emit/runtime.js';

export interface InputFacts {
  schemaSha256: string;
  /** [file as given, sha256] per extension file, in the order given. */
  extensions: [string, string][];
  artifacts: readonly string[];
  importExtension: string;
  format: boolean;
  /** `package` or `copy` (absent means `package`). */
  runtime?: string;
}

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

export function inputsHash(facts: InputFacts): string {
  // Fields named one by one, never spread: JSON.stringify follows key order, and the two callers
  // (generate and inputsHashFromDisk) build their facts in different orders.
  return sha256(
    JSON.stringify({
      tool: toolPackage().version,
      templates: runtimeTemplates().map((t) => [t.name, sha256(t.text)]),
      schemaSha256: facts.schemaSha256,
      extensions: facts.extensions,
      artifacts: facts.artifacts,
      importExtension: facts.importExtension,
      format: facts.format,
      runtime: facts.runtime ?? 'package',
    }),
  );
}

/** The same hash, read straight from disk, without loading or generating anything. */
export async function inputsHashFromDisk(
  options: SchemaInput & { extensions?: string[]; pairing?: string },
  facts: Omit<InputFacts, 'schemaSha256' | 'extensions'>,
): Promise<string | undefined> {
  const cwd = options.cwd ?? process.cwd();
  try {
    const schemaText = options.text ?? (await readFile(resolveSchemaPath({ ...options, cwd }), 'utf8'));
    const extensions: [string, string][] = [];
    for (const file of options.extensions ?? [])
      extensions.push([file, sha256(await readFile(resolve(cwd, file), 'utf8'))]);
    // The pairing file shapes the output like an extension does (see generate.ts).
    if (options.pairing)
      extensions.push([`pairing:${options.pairing}`, sha256(await readFile(resolve(cwd, options.pairing), 'utf8'))]);
    return inputsHash({ ...facts, schemaSha256: sha256(schemaText), extensions });
  } catch (error) {
    if (error instanceof InputError) throw error;
    return undefined;
  }
}
