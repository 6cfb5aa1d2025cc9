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
import { RUNTIME_EXPORTS, runtimeTemplates, withImportExtension } from './emit/runtime.js';
import { printConcurrently } from './emit/concurrent.js';
import { clientExports, mapsExports, serverExports } from './emit/tables.js';
import { emitTypes } from './emit/types.js';
import { emitValidators } from './emit/validators.js';
import { resolveArtifacts, type Artifact, type ImportExtension } from './generate-artifacts.js';
import { inputsHash } from './inputs.js';
import { applyExtensions, loadExtensionsFor } from './model/extensions.js';
import { loadSchema, type SchemaInput } from './load/schema.js';
import { toolPackage } from './load/package-root.js';
import { buildModel } from './model/build.js';
import { pairingHashEntry, readPairingFile } from './model/pairing.js';
import type { ProtocolModel } from './model/types.js';

export { ARTIFACTS, resolveArtifacts, type Artifact, type ImportExtension } from './generate-artifacts.js';

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
  const hash = inputsHash({
    schemaSha256: loaded.sha256,
    extensions: [
      ...extensions.map((e): [string, string] => [e.file, e.sha256]),
      ...(pairing ? [pairingHashEntry(options.pairing!, pairing)] : []),
    ],
    artifacts,
    importExtension: importExt,
    format: options.format !== false,
  });

  // Started first: maps, client and server are printed (ts-morph) and formatted on another thread while
  // the types (json-schema-to-typescript) and validators (ajv) are emitted here.
  const format = options.format !== false;
  const printed = printConcurrently({
    model,
    importExt,
    maps: artifacts.includes('maps'),
    client: artifacts.includes('client'),
    server: artifacts.includes('server'),
    format,
    outDir,
  });
  // If the types throw first, theirs is the error reported; this must not go unhandled meanwhile.
  printed.catch(() => undefined);
  const raw: GeneratedFile[] = [];
  const add = (path: string, contents: string) => raw.push({ path, contents });
  if (artifacts.includes('types')) add('types.ts', await emitTypes(model, loaded.file));
  if (artifacts.includes('validators')) {
    const { js, dts } = emitValidators(model);
    add('validators.js', js);
    add('validators.d.ts', dts);
  }
  if (artifacts.includes('client') || artifacts.includes('server')) {
    for (const t of runtimeTemplates()) add(`runtime/${t.name}`, withImportExtension(t.text, importExt));
  }
  add('index.ts', emitIndex(model, artifacts, importExt));

  const sourceName = loaded.file.slice(Math.max(loaded.file.lastIndexOf('/'), loaded.file.lastIndexOf('\\')) + 1);
  const head = header(tool.version, sourceName, loaded.sha256, model.version);
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
 * - validators.js is laid out by ajv (one statement a line); prettier over a megabyte of it would cost
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
  if (!format || path === 'validators.js') return text;
  // Only with `.js` specifiers is the text the template's bytes (other specifiers change line lengths).
  if (path.startsWith('runtime/') && importExt === '.js' && (await usesDefaultFormat(outDir, path))) return text;
  return formatFile(outDir, path, text);
}

function emitIndex(model: ProtocolModel, artifacts: Artifact[], importExt: string): string {
  const taken = new Set(Object.keys(model.definitions));
  const lines = ["export type * from './types.js';"];
  const reexport = (module: string, names: { types: string[]; values: string[] }) => {
    const types = names.types.filter((n) => !taken.has(n));
    const values = names.values.filter((n) => !taken.has(n));
    for (const n of [...types, ...values]) taken.add(n);
    if (types.length) lines.push(`export type { ${types.join(', ')} } from '${module}';`);
    if (values.length) lines.push(`export { ${values.join(', ')} } from '${module}';`);
  };
  if (artifacts.includes('maps')) reexport('./maps.js', mapsExports());
  if (artifacts.includes('client')) reexport('./client.js', clientExports());
  if (artifacts.includes('server')) reexport('./server.js', serverExports());
  if (artifacts.includes('client') || artifacts.includes('server')) {
    for (const [module, names] of Object.entries(RUNTIME_EXPORTS)) reexport(module, names);
  }
  return withImportExtension(lines.join('\n') + '\n', importExt);
}
