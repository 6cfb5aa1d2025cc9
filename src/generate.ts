/**
 * The pipeline, as one function that returns files and writes nothing:
 *
 *   load (schema file → checked JSON) → model (methods, directions, params, results)
 *   → emit (types, maps, client, server, validators, runtime) → header + format (prettier, once)
 *
 * The CLI, `--check`, watch mode and the tests all call this; only write.ts touches the disk.
 */
import { resolve } from 'node:path';
import { forgetFormatConfig, formatFile } from './emit/shared/format.js';
import { header } from './emit/shared/header.js';
import { runtimeImports, runtimeRange } from './emit/shared/runtime.js';
import { createTsFiles } from './emit/shared/ts-project.js';
import { buildDroppingJavaScript } from './emit/shared/project-tsconfig.js';
import { REGISTRY, resolveArtifacts, type ArtifactEntry } from './emit/registry.js';
import type { EmitContext, GeneratedFile } from './emit/shared/context.js';
import { targetInputs } from './inputs.js';
import { CONTROL_CHARACTERS, InputError } from './errors.js';
import { appliesTo } from './extensions/types.js';
import { applyExtensions, loadExtensionsFor, type LoadedExtension } from './model/extensions.js';
import type { GenerateOptions } from './config/generate-options.js';
import { loadSchema, type LoadedSchema } from './load/schema.js';
import { definitionPointer, pointer } from './load/pointer.js';
import { generatedNameProblem } from './load/type-names.js';
import { checkSchemaShapes } from './load/schema-shapes.js';
import { toolPackage } from './load/package-root.js';
import { buildModel } from './model/build.js';
import { requireRequests } from './model/coverage.js';
import { readPairingFile } from './model/pairing.js';
import type { ProtocolModel } from './model/types.js';
import { compareStrings } from './load/order.js';
import { readUserFile } from './load/read-file.js';
import { TOOLS_FIXED_EXPORTS } from './emit/tools/tool-exports.js';
import { servedSurface, toolSurface, type ToolSurface } from './emit/shared/tool-surface.js';

export { resolveArtifacts, type ImportExtension } from './emit/registry.js';
export { ARTIFACTS, type Artifact, type GeneratedFile } from './emit/shared/context.js';
export { RUNTIME_MODES, type RuntimeMode } from './emit/shared/runtime.js';

/** The options type lives with the option table's users (config/target.ts): one type for API and CLI. */
export type { GenerateOptions } from './config/generate-options.js';

export interface GenerateResult {
  files: GeneratedFile[];
  model: ProtocolModel;
  warnings: string[];
  /** Hash of everything the output depends on (src/inputs.ts says what that is). */
  inputsHash: string;
  schemaFile: string;
  /** Whether the files were formatted with prettier (the `format` option): the manifest written beside them is too. */
  formatted: boolean;
}

export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const cwd = options.cwd ?? process.cwd();
  const outDir = resolve(cwd, options.outDir ?? 'generated');
  // A newline or NUL in a path is never meant, and would be printed (and written) as something else.
  if (CONTROL_CHARACTERS.test(outDir))
    throw new InputError('(arguments)', undefined, 'the output directory holds a control character or line break');
  // Prettier keeps what it read of config files for the process: forgotten first, so a config edited since the
  // last generation (watch mode, the API) is read again — by the hash below and by the formatting alike.
  if (options.format !== false) await forgetFormatConfig();
  // Hashed before anything is read for generation: an input edited meanwhile leaves the manifest stale
  // (the next --check regenerates), never wrongly fresh.
  const inputs = await targetInputs({ ...options, cwd, outDir });
  const { loaded, extensions, model } = await loadModel(options, cwd);
  const ctx = emitContext(options, loaded.file, createTsFiles());
  refuseShadowedExports(model, extensions, ctx);
  if (options.tools) ctx.tools = await readToolSurface(resolve(cwd, options.tools), model, ctx);
  const format = options.format !== false;
  const bodies = await emitBodies(model, ctx, outDir, { format, singleFile: options.singleFile === true });
  const sourceName = loaded.file.slice(Math.max(loaded.file.lastIndexOf('/'), loaded.file.lastIndexOf('\\')) + 1);
  const head = header(toolPackage().version, sourceName, loaded.sha256, model.version, runtimeNote(ctx));
  const files = bodies.map((file) => ({ path: file.path, contents: `${head}\n${file.contents}` }));
  files.sort((a, b) => compareStrings(a.path, b.path));
  return {
    files,
    model,
    warnings: [
      ...loaded.warnings,
      ...(model.warnings ?? []),
      ...extensions.flatMap((e) => e.warnings),
      ...(ctx.tools?.warnings ?? []),
      ...droppedJavaScript(ctx, files, outDir),
    ],
    // No hash (a prettier config written as code, an unpinned URL): --check always regenerates to compare.
    inputsHash: inputs.hash ?? 'unhashable',
    schemaFile: loaded.file,
    formatted: format,
  };
}

/** The schema, the extensions and the pairing file read, and the model built from them. */
async function loadModel(options: GenerateOptions, cwd: string) {
  const loaded = await loadSchema({ ...options, cwd });
  refuseUnusableNames(loaded);
  checkSchemaShapes(loaded.definitions, loaded.file, loaded.defsKeyword);
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

/** Definitions whose key cannot be their generated name (load/type-names.ts, generatedNameProblem). */
function refuseUnusableNames(loaded: LoadedSchema): void {
  for (const name of Object.keys(loaded.definitions)) {
    const problem = generatedNameProblem(name);
    if (problem !== undefined)
      throw new InputError(loaded.file, definitionPointer(loaded.defsKeyword, name), problem, NAME_HINT);
  }
}

const NAME_HINT =
  'generated names are definition keys unchanged: see "Generated names" in mcp-typegen\'s docs/transports-and-versions.md';

/**
 * A vendor definition named like something the generated code exports (`McpClient`, `createServer`,
 * `ClientRequests`, a runtime name the index re-exports) would take that name in index.ts and hide the
 * generated one. The spec's own definitions keep their names (2026-07-28 defines `InputRequests`, which maps.ts
 * also exports, reachable there); an extension's must not collide.
 */
function refuseShadowedExports(model: ProtocolModel, extensions: readonly LoadedExtension[], ctx: EmitContext): void {
  if (extensions.length === 0) return;
  const exported = new Set(
    REGISTRY.filter((e) => e.enabled(ctx))
      .flatMap((e) => e.exports(ctx, model))
      .flatMap((m) => [...m.types, ...m.values]),
  );
  for (const e of extensions) {
    for (const name of Object.keys(e.spec.definitions)) {
      const problem = generatedNameProblem(name, exported);
      if (problem !== undefined)
        throw new InputError(
          e.spec.file,
          pointer('definitions', name),
          problem,
          'rename the definition in the extension file',
        );
    }
  }
}

/**
 * The `tools` snapshot as a surface to generate: its types are named around every name the generated code
 * already uses (definitions, the other modules' exports, tools.ts's own).
 */
async function readToolSurface(file: string, model: ProtocolModel, ctx: EmitContext): Promise<ToolSurface> {
  // Loaded here only: the format's checker is an ajv, which `--check`'s fast path never needs.
  const { parseSnapshot } = await import('./load/snapshot-file.js');
  const snapshot = parseSnapshot(await readUserFile(file, 'snapshot file'), file);
  const taken = new Set([
    ...Object.keys(model.definitions),
    ...TOOLS_FIXED_EXPORTS,
    ...REGISTRY.filter((e) => e.enabled(ctx))
      .flatMap((e) => e.exports(ctx, model))
      .flatMap((m) => [...m.types, ...m.values]),
  ]);
  const requests = model.methods.filter((m) => m.kind === 'request' && m.directions.includes('client->server'));
  return servedSurface(
    toolSurface(snapshot, file, taken),
    requests.map((m) => m.method),
  );
}

function emitContext(options: GenerateOptions, schemaFile: string, ts: EmitContext['ts']): EmitContext {
  const importExt = options.importExtension ?? '.js';
  const runtimeMode = options.runtime ?? 'package';
  return {
    importExt,
    jsModules: options.jsModules ?? 'js',
    artifacts: resolveArtifacts(options.artifacts),
    runtimeMode,
    runtime: {
      ...runtimeImports(runtimeMode, importExt),
      range: runtimeMode === 'package' ? runtimeRange() : null,
      generator: `mcp-typegen ${toolPackage().version}`,
    },
    schemaFile,
    ts,
    singleFile: options.singleFile === true,
  };
}

/** Every enabled artifact's files, formatted, without the header. */
async function emitBodies(
  model: ProtocolModel,
  ctx: EmitContext,
  outDir: string,
  { format, singleFile }: { format: boolean; singleFile: boolean },
) {
  const entries = REGISTRY.filter((e) => e.enabled(ctx));
  const formatted = async (file: GeneratedFile): Promise<GeneratedFile> => {
    // The header is comments only: format the body, so identical bodies (the runtime) format once.
    // validators.js is left as ajv writes it (one statement a line): prettier over a megabyte of it would
    // cost more than the rest of the run together.
    const skip = !format || file.path === 'validators.js' || (ctx.jsModules === 'ts' && file.path === 'validators.ts');
    return skip ? file : { path: file.path, contents: await formatFile(outDir, file.path, file.contents) };
  };
  const formatAll = async (files: readonly GeneratedFile[]): Promise<GeneratedFile[]> => {
    const out: GeneratedFile[] = [];
    for (const file of files) out.push(await formatted(file));
    return out;
  };
  // The single-file and TypeScript-module layouts rewrite the whole set of files: formatted once rewritten.
  // Otherwise each artifact is formatted as soon as it is emitted, so what built it (JSTT's and ts-morph's
  // structures, prettier's tree of the previous file) is garbage before the next artifact allocates its own.
  const reshaped = singleFile || ctx.jsModules === 'ts';
  const emitted = new Map<ArtifactEntry, GeneratedFile[]>();
  for (const e of emitOrder(entries)) {
    const files = await e.emit(model, ctx);
    emitted.set(e, reshaped ? files : await formatAll(files));
  }
  let files = entries.flatMap((e) => emitted.get(e) ?? []);
  const { indexStatements } = await import('./emit/index-file.js');
  const index: GeneratedFile = { path: 'index.ts', contents: ctx.ts.print(indexStatements(model, entries, ctx)) };
  if (!reshaped) return [...files, await formatted(index)];
  files.push(index);
  if (singleFile) files = (await import('./emit/single-file.js')).mergeSingleFile(files, ctx.ts);
  if (ctx.jsModules === 'ts')
    files = (await import('./emit/typescript-modules.js')).asTypeScriptModules(files, ctx.importExt);
  return formatAll(files);
}

/**
 * The validators last: ajv's compilation is the run's largest heap (10,000 definitions: a few hundred MB),
 * and whatever runs after it allocates on top of what V8 has not collected of it yet. The files are listed in
 * the registry's order whatever the order they were emitted in (no emitter reads another's output).
 */
function emitOrder(entries: readonly ArtifactEntry[]): ArtifactEntry[] {
  return [...entries.filter((e) => e.name !== 'validators'), ...entries.filter((e) => e.name === 'validators')];
}

/** A warning when the user's tsc build would leave the generated JavaScript modules out of its output. */
function droppedJavaScript(ctx: EmitContext, files: readonly GeneratedFile[], outDir: string): string[] {
  const js = files.filter((f) => f.path.endsWith('.js') && !f.path.includes('/')).map((f) => f.path);
  const tsconfig = ctx.jsModules === 'js' && js.length > 0 ? buildDroppingJavaScript(outDir) : null;
  return tsconfig === null
    ? []
    : [
        `${tsconfig}: tsc emits without "allowJs", so its output would lack ${js.join(', ')} (ERR_MODULE_NOT_FOUND at run time): set "jsModules": "ts" for this target (--js-modules ts), or "allowJs": true`,
      ];
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
