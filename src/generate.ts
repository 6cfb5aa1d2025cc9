/**
 * The pipeline, as one function that returns files and writes nothing:
 *
 *   load (schema file → checked JSON) → model (methods, directions, params, results)
 *   → emit (types, maps, client, server, validators, runtime) → header + format (prettier, once)
 *
 * The CLI, `--check`, watch mode and the tests all call this; only write.ts touches the disk.
 */
import { resolve } from 'node:path';
import { formatFile, usesDefaultFormat } from './emit/format.js';
import { header } from './emit/header.js';
import { runtimeImports, runtimeRange, withImportExtension, type RuntimeMode } from './emit/runtime.js';
import { printConcurrently } from './emit/concurrent.js';
import {
  REGISTRY,
  resolveArtifacts,
  type Artifact,
  type ArtifactEntry,
  type EmitContext,
  type ImportExtension,
} from './generate-artifacts.js';
import { inputsHash } from './inputs.js';
import { applyExtensions, loadExtensionsFor } from './model/extensions.js';
import { loadSchema, type SchemaInput } from './load/schema.js';
import { toolPackage } from './load/package-root.js';
import { buildModel } from './model/build.js';
import { pairingHashEntry, readPairingFile } from './model/pairing.js';
import type { ProtocolModel } from './model/types.js';

export { ARTIFACTS, resolveArtifacts, type Artifact, type ImportExtension } from './generate-artifacts.js';
export { RUNTIME_MODES, type RuntimeMode } from './emit/runtime.js';

export interface GenerateOptions extends SchemaInput {
  /** Vendor extension files merged into the output. */
  extensions?: string[];
  /** A pairing file (request → result definition) for requests the built-in rules cannot pair. */
  pairing?: string;
  /** Where the files will go: used to find the prettier config. Default `generated`. */
  outDir?: string;
  /** Which artifacts to emit; default all. Dependencies are added (client needs maps and types). */
  artifacts?: Artifact[];
  /** Import specifier extension between generated files; default `.js` (ESM/NodeNext). */
  importExtension?: ImportExtension;
  /** Format with prettier (default true). */
  format?: boolean;
  /**
   * How generated code gets its runtime: `package` (default) imports `@mcp-typegen/runtime`; `copy` vendors
   * it as runtime/*.ts (ESM and bundlers only).
   */
  runtime?: RuntimeMode;
}

export interface GeneratedFile {
  /** Relative to the output directory, with `/` separators. */
  path: string;
  contents: string;
}

export interface GenerateResult {
  files: GeneratedFile[];
  model: ProtocolModel;
  warnings: string[];
  /** Hash of everything the output depends on: tool, templates, schema, extensions and options. */
  inputsHash: string;
  schemaFile: string;
}

export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const cwd = options.cwd ?? process.cwd();
  const outDir = resolve(cwd, options.outDir ?? 'generated');
  const importExt = options.importExtension ?? '.js';
  const artifacts = resolveArtifacts(options.artifacts);
  const loaded = await loadSchema({ ...options, cwd });
  const extensions = await loadExtensionsFor(options.extensions ?? [], cwd);
  const pairing = options.pairing ? await readPairingFile(resolve(cwd, options.pairing)) : undefined;
  const model = applyExtensions(buildModel(loaded, { pairing }), extensions);
  const tool = toolPackage();
  const runtimeMode = options.runtime ?? 'package';
  const hash = inputsHash({
    schemaSha256: loaded.sha256,
    extensions: [
      ...extensions.map((e): [string, string] => [e.file, e.sha256]),
      ...(pairing ? [pairingHashEntry(options.pairing!, pairing)] : []),
    ],
    artifacts,
    importExtension: importExt,
    format: options.format !== false,
    runtime: runtimeMode,
  });
  const ctx: EmitContext = {
    importExt,
    artifacts,
    runtimeMode,
    runtime: {
      ...runtimeImports(runtimeMode, importExt),
      range: runtimeMode === 'package' ? runtimeRange() : null,
      generator: `mcp-typegen ${tool.version}`,
    },
    schemaFile: loaded.file,
  };
  const entries = REGISTRY.filter((e) => e.enabled(ctx));

  // Started first: the ts-morph printers (maps, client, server) run and format on another thread while
  // the types (json-schema-to-typescript) and validators (ajv) are emitted here.
  const format = options.format !== false;
  const printed = printConcurrently({
    model,
    entries: entries.filter((e) => e.offThread).map((e) => e.name),
    context: ctx,
    format,
    outDir,
  });
  // If the types throw first, theirs is the error reported; this must not go unhandled meanwhile.
  printed.catch(() => undefined);
  const raw: GeneratedFile[] = [];
  for (const e of entries.filter((e) => !e.offThread)) {
    for (const file of await e.emit(model, ctx)) raw.push({ path: file.path, contents: file.contents });
  }
  raw.push({ path: 'index.ts', contents: emitIndex(model, entries, ctx) });

  const sourceName = loaded.file.slice(Math.max(loaded.file.lastIndexOf('/'), loaded.file.lastIndexOf('\\')) + 1);
  const head = header(tool.version, sourceName, loaded.sha256, model.version, runtimeNote(ctx));
  const files: GeneratedFile[] = [];
  for (const file of raw) {
    // The header is comments only: format the body, so identical bodies (the runtime) format once.
    files.push({
      path: file.path,
      contents: `${head}\n${await formatBody(outDir, file.path, file.contents, format, importExt)}`,
    });
  }
  for (const [path, body] of Object.entries(await printed)) files.push({ path, contents: `${head}\n${body}` });
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    files,
    model,
    warnings: [...loaded.warnings, ...(model.warnings ?? []), ...extensions.flatMap((e) => e.warnings)],
    inputsHash: hash,
    schemaFile: loaded.file,
  };
}

/**
 * index.ts re-exports every definition type, then the other modules' names — except a name that a
 * definition already uses (e.g. 2026-07-28 defines `InputRequests`): that one stays reachable through
 * its own module, so the index never has an ambiguous export.
 */
/**
 * - validators.ts is laid out by ajv (one statement a line); prettier over a megabyte of it would cost
 *   more than the rest of the run together, so it is left as ajv writes it;
 * - runtime/ files are the templates, kept formatted with the default options (scripts/format-templates.mjs,
 *   checked by a test): formatted again only when a user prettier config applies.
 */
async function formatBody(
  outDir: string,
  path: string,
  text: string,
  format: boolean,
  importExt: string,
): Promise<string> {
  if (!format || path === 'validators.ts') return text;
  // Only with `.js` specifiers is the text the template's bytes (other specifiers change line lengths).
  if (path.startsWith('runtime/') && importExt === '.js' && (await usesDefaultFormat(outDir, path))) return text;
  return formatFile(outDir, path, text);
}

function emitIndex(model: ProtocolModel, entries: readonly ArtifactEntry[], ctx: EmitContext): string {
  const taken = new Set(Object.keys(model.definitions));
  const lines = ["export type * from './types.js';"];
  for (const { module, ...names } of entries.flatMap((e) => e.exports(ctx))) {
    const types = names.types.filter((n) => !taken.has(n));
    const values = names.values.filter((n) => !taken.has(n));
    for (const n of [...types, ...values]) taken.add(n);
    if (types.length) lines.push(`export type { ${types.join(', ')} } from '${module}';`);
    if (values.length) lines.push(`export { ${values.join(', ')} } from '${module}';`);
  }
  return withImportExtension(lines.join('\n') + '\n', ctx.importExt);
}

/** The header line saying where the runtime comes from (and, for the package, which range). */
function runtimeNote(ctx: EmitContext): string | null {
  if (!ctx.artifacts.includes('client') && !ctx.artifacts.includes('server')) return null;
  return ctx.runtime.range === null
    ? 'Runtime: vendored copy in runtime/.'
    : `Runtime: @mcp-typegen/runtime ${ctx.runtime.range}.`;
}
