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
import { runtimeImports, runtimeRange, withImportExtension } from './emit/runtime.js';
import { printConcurrently } from './emit/concurrent.js';
import {
  REGISTRY,
  resolveArtifacts,
  type ArtifactEntry,
  type EmitContext,
  type GeneratedFile,
} from './emit/registry.js';
import { inputsHash } from './inputs.js';
import { InputError } from './errors.js';
import { appliesTo } from './extensions/types.js';
import { applyExtensions, loadExtensionsFor, type LoadedExtension } from './model/extensions.js';
import type { GenerateOptions } from './config/generate-options.js';
import { loadSchema } from './load/schema.js';
import { toolPackage } from './load/package-root.js';
import { buildModel } from './model/build.js';
import { readPairingFile } from './model/pairing.js';
import type { ProtocolModel } from './model/types.js';
import { sha256 } from './load/hash.js';
import { compareStrings } from './load/order.js';

export {
  ARTIFACTS,
  resolveArtifacts,
  type Artifact,
  type GeneratedFile,
  type ImportExtension,
} from './emit/registry.js';
export { RUNTIME_MODES, type RuntimeMode } from './emit/runtime.js';

/** The options type lives with the option table's users (config/target.ts): one type for API and CLI. */
export type { GenerateOptions } from './config/generate-options.js';

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
  const { loaded, extensions, pairing, model } = await loadModel(options, cwd);
  const hash = await inputsHash({
    schemaSha256: loaded.sha256,
    extensionShas: extensions.map((e) => e.sha256),
    pairingSha: pairing ? sha256(pairing.text) : undefined,
    options,
    outDir,
  });
  const ctx = emitContext(options, loaded.file);
  const format = options.format !== false;
  const bodies = await emitBodies(model, ctx, outDir, format);
  const sourceName = loaded.file.slice(Math.max(loaded.file.lastIndexOf('/'), loaded.file.lastIndexOf('\\')) + 1);
  const head = header(toolPackage().version, sourceName, loaded.sha256, model.version, runtimeNote(ctx));
  const files = bodies.map((file) => ({ path: file.path, contents: `${head}\n${file.contents}` }));
  files.sort((a, b) => compareStrings(a.path, b.path));
  return {
    files,
    model,
    warnings: [...loaded.warnings, ...(model.warnings ?? []), ...extensions.flatMap((e) => e.warnings)],
    // No hash (a prettier config written as code): --check always regenerates to compare.
    inputsHash: hash ?? 'unhashable',
    schemaFile: loaded.file,
  };
}

/** The schema, the extensions and the pairing file read, and the model built from them. */
async function loadModel(options: GenerateOptions, cwd: string) {
  const loaded = await loadSchema({ ...options, cwd });
  const extensions = await loadExtensionsFor(options.extensions ?? [], cwd);
  const pairing = options.pairing ? await readPairingFile(resolve(cwd, options.pairing)) : undefined;
  const base = buildModel(loaded, { pairing });
  // Only the files the user named: a file reached through a cross-file $ref gets the model's own,
  // more precise error when it is not enabled for this version.
  const named = new Set(options.extensions ?? []);
  const namedExtensions = extensions.filter((e) => named.has(e.file));
  rejectUntargeted(base.version, namedExtensions, options.skipUntargeted === true);
  return { loaded, extensions, pairing, model: applyExtensions(base, extensions) };
}

function emitContext(options: GenerateOptions, schemaFile: string): EmitContext {
  const importExt = options.importExtension ?? '.js';
  const runtimeMode = options.runtime ?? 'package';
  return {
    importExt,
    artifacts: resolveArtifacts(options.artifacts),
    runtimeMode,
    runtime: {
      ...runtimeImports(runtimeMode, importExt),
      range: runtimeMode === 'package' ? runtimeRange() : null,
      generator: `mcp-typegen ${toolPackage().version}`,
    },
    schemaFile,
  };
}

/** Every enabled artifact's files, formatted, without the header. */
async function emitBodies(model: ProtocolModel, ctx: EmitContext, outDir: string, format: boolean) {
  const entries = REGISTRY.filter((e) => e.enabled(ctx));
  // Started first: the ts-morph printers (maps, client, server) run and format on another thread while
  // the types (json-schema-to-typescript) and validators (ajv) are emitted here.
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
  for (const e of entries.filter((e) => !e.offThread)) raw.push(...(await e.emit(model, ctx)));
  raw.push({ path: 'index.ts', contents: emitIndex(model, entries, ctx) });
  const files: GeneratedFile[] = [];
  for (const file of raw) {
    // The header is comments only: format the body, so identical bodies (the runtime) format once.
    files.push({
      path: file.path,
      contents: await formatBody(outDir, file.path, file.contents, format, ctx.importExt),
    });
  }
  for (const [path, contents] of Object.entries(await printed)) files.push({ path, contents });
  return files;
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
 *   checked by a test): formatted again only when a user prettier config applies;
 * - types.ts comes in prettier's layout for the defaults (emit/types.ts): the same.
 */
async function formatBody(
  outDir: string,
  path: string,
  text: string,
  format: boolean,
  importExt: string,
): Promise<string> {
  if (!format || path === 'validators.ts') return text;
  if (path === 'types.ts' && (await usesDefaultFormat(outDir, path))) return text;
  // Only with `.js` specifiers is the text the template's bytes (other specifiers change line lengths).
  if (path.startsWith('runtime/') && importExt === '.js' && (await usesDefaultFormat(outDir, path))) return text;
  return formatFile(outDir, path, text);
}

function emitIndex(model: ProtocolModel, entries: readonly ArtifactEntry[], ctx: EmitContext): string {
  const taken = new Set(Object.keys(model.definitions));
  const lines = ["export type * from './types.js';"];
  for (const { module, ...names } of entries.flatMap((e) => e.exports(ctx, model))) {
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

/**
 * An extension that does not target the schema's version would be left out of the output: an error
 * (exit 2) unless the user opted in to skipping it (--skip-untargeted, or "skipUntargeted" in the config).
 */
function rejectUntargeted(version: string | null, extensions: LoadedExtension[], skip: boolean): void {
  if (skip || version === null) return;
  const e = extensions.find((x) => !appliesTo(x.spec, version));
  if (!e) return;
  throw new InputError(
    e.file,
    '/targets',
    `extension ${e.spec.id} does not target MCP ${version} (it targets ${e.spec.targets?.join(', ') ?? 'nothing'})`,
    'add the version to its "targets", pick another --spec, or pass --skip-untargeted to leave it out',
  );
}
