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
import { runtimeImports, runtimeRange } from './emit/runtime.js';
import { emitIndex } from './emit/index-file.js';
import { REGISTRY, resolveArtifacts, type EmitContext, type GeneratedFile } from './emit/registry.js';
import { targetInputs } from './inputs.js';
import { InputError } from './errors.js';
import { appliesTo } from './extensions/types.js';
import { applyExtensions, loadExtensionsFor, type LoadedExtension } from './model/extensions.js';
import type { GenerateOptions } from './config/generate-options.js';
import { loadSchema } from './load/schema.js';
import { toolPackage } from './load/package-root.js';
import { buildModel } from './model/build.js';
import { requireRequests } from './model/coverage.js';
import { readPairingFile } from './model/pairing.js';
import type { ProtocolModel } from './model/types.js';
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
  /** Hash of everything the output depends on (src/inputs.ts says what that is). */
  inputsHash: string;
  schemaFile: string;
}

export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const cwd = options.cwd ?? process.cwd();
  const outDir = resolve(cwd, options.outDir ?? 'generated');
  // Hashed before anything is read for generation: an input edited meanwhile leaves the manifest stale
  // (the next --check regenerates), never wrongly fresh.
  const inputs = await targetInputs({ ...options, cwd, outDir });
  const { loaded, extensions, model } = await loadModel(options, cwd);
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
    // No hash (a prettier config written as code, an unpinned URL): --check always regenerates to compare.
    inputsHash: inputs.hash ?? 'unhashable',
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
  const model = applyExtensions(base, extensions);
  requireRequests(model, loaded.file);
  return { loaded, extensions, pairing, model };
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
  const raw: GeneratedFile[] = [];
  for (const e of entries) raw.push(...(await e.emit(model, ctx)));
  raw.push({ path: 'index.ts', contents: emitIndex(model, entries, ctx) });
  const files: GeneratedFile[] = [];
  for (const file of raw) {
    // The header is comments only: format the body, so identical bodies (the runtime) format once.
    files.push({
      path: file.path,
      contents: await formatBody(outDir, file.path, file.contents, format, ctx.importExt),
    });
  }
  return files;
}

/** Written in prettier's layout for DEFAULTS (format.ts), whatever the import extension. */
const LAID_OUT = new Set(['types.ts', 'maps.ts', 'client.ts', 'server.ts', 'index.ts']);

/**
 * - validators.ts is laid out by ajv (one statement a line); prettier over a megabyte of it would cost
 *   more than the rest of the run together, so it is left as ajv writes it;
 * - runtime/ files are the templates, kept formatted with the default options (scripts/format-templates.mjs,
 *   checked by a test): formatted again only when a user prettier config applies;
 * - types.ts (emit/types.ts) and maps, client, server and index (emit/layout.ts) come in prettier's layout
 *   for the defaults: the same.
 */
async function formatBody(
  outDir: string,
  path: string,
  text: string,
  format: boolean,
  importExt: string,
): Promise<string> {
  if (!format || path === 'validators.ts') return text;
  if (LAID_OUT.has(path) && (await usesDefaultFormat(outDir, path))) return text;
  // Only with `.js` specifiers is the text the template's bytes (other specifiers change line lengths).
  if (path.startsWith('runtime/') && importExt === '.js' && (await usesDefaultFormat(outDir, path))) return text;
  return formatFile(outDir, path, text);
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
