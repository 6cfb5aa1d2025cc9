/**
 * The two sides of `diff`: a file, a known spec version, or `git:<ref>:<path>` (read with
 * `git show <ref>:<path>`, no shell, into memory). Returns text and a display name; the loader parses it
 * (`loadSchema({ text, schema: name })`).
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { InputError } from '../errors.js';
import type { FetchPolicy } from '../load/download.js';
import { loadSchema, type LoadedSchema } from '../load/schema.js';
import { specSchema } from '../load/spec-source.js';
import { buildModel } from '../model/build.js';
import type { ExtensionReader } from '../model/extensions.js';
import type { UserPairing } from '../model/pairing.js';
import type { ProtocolModel } from '../model/types.js';
import { requireComparableSides, type CoverageOptions } from './coverage.js';
import { diffModels } from './diff.js';
import type { DiffOptions, DiffReport } from './types.js';
import { readUserFile } from '../load/read-file.js';

export interface DiffSourceOptions extends FetchPolicy {
  cwd?: string;
  /** Where spec versions live (default: MCP_SCHEMA_DIR, else the user cache and downloads; see load/spec-source.ts). */
  schemaDir?: string;
}

export interface DiffSource {
  kind: 'file' | 'version' | 'git';
  /** Display name: the path as given, the version, or the `git:<ref>:<path>` spec. */
  name: string;
  text: string;
  /** The spec version when the side was named by version, else null. */
  version: string | null;
  /** The file annotations point at: the path as given, the git path, or the version's schema file. */
  file: string;
}

const VERSION_RE = /^\d{4}-\d{2}-\d{2}$/;

export async function readDiffSource(spec: string, options: DiffSourceOptions = {}): Promise<DiffSource> {
  const cwd = options.cwd ?? process.cwd();
  if (spec.startsWith('git:')) {
    const rest = spec.slice(4);
    const colon = rest.indexOf(':');
    if (colon <= 0 || colon === rest.length - 1) {
      throw new InputError(
        spec,
        undefined,
        'a git source is git:<ref>:<path>',
        'e.g. git:main:schema/schema.json (the path is relative to the repository root; ./path is relative to the working directory)',
      );
    }
    const ref = rest.slice(0, colon);
    const path = rest.slice(colon + 1);
    if (ref.startsWith('-')) throw new InputError(spec, undefined, `invalid git ref "${ref}"`);
    const text = await gitShow(`${ref}:${path}`, cwd, spec);
    return { kind: 'git', name: spec, text, version: null, file: path.replace(/^\.\//, '') };
  }
  const file = isAbsolute(spec) ? spec : resolve(cwd, spec);
  if (VERSION_RE.test(spec) && !isFile(file)) {
    const { text, file: versionFile } = await specSchema(spec, { ...options, cwd });
    return { kind: 'version', name: spec, text, version: spec, file: versionFile };
  }
  const text = await readUserFile(file, 'file', 'file not found (nor a known spec version, nor git:<ref>:<path>)');
  return { kind: 'file', name: spec, text, version: null, file: spec };
}

async function gitShow(object: string, cwd: string, spec: string): Promise<string> {
  // Loaded only for git sources: a plain diff of two files or versions should not pay for it.
  const { execFile } = await import('node:child_process');
  return new Promise((resolvePromise, reject) => {
    execFile(
      'git',
      ['show', object],
      { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        if (error) {
          const detail = (stderr || error.message).trim().split('\n')[0] ?? '';
          reject(new InputError(spec, undefined, `cannot read from git: ${detail}`));
          return;
        }
        resolvePromise(stdout);
      },
    );
  });
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export interface DiffSide {
  source: DiffSource;
  schema: LoadedSchema;
  model: ProtocolModel;
}

/** How one side is read and modelled: `diff`'s CLI and API both go through here. */
export interface DiffSideOptions extends DiffSourceOptions {
  /** Extension sources merged into this side: files, official ids, or `git:<ref>:<path>` like a schema side. */
  extensions?: readonly string[];
  /** A pairing file's pairs (request → result definition), as read. */
  pairing?: UserPairing;
  /** The model's warnings (an unpaired request is diffed with an unknown result: the user must hear of it). */
  warn?: (message: string) => void;
  /** The loader's and extensions' quieter warnings. */
  verbose?: (message: string) => void;
}

/** Read, load and model one side (a file, a spec version or `git:<ref>:<path>`), with its extensions. */
export async function loadDiffSide(spec: string, options: DiffSideOptions = {}): Promise<DiffSide> {
  return modelDiffSide(await readDiffSource(spec, options), options);
}

/** Load and model one side already read, with its extensions. */
async function modelDiffSide(source: DiffSource, options: DiffSideOptions): Promise<DiffSide> {
  const cwd = options.cwd ?? process.cwd();
  const schema = await loadSchema({
    text: source.text,
    schema: source.name,
    ...(source.version ? { spec: source.version } : {}),
    cwd,
    schemaDir: options.schemaDir,
  });
  const base = buildModel(schema, { pairing: options.pairing });
  for (const w of base.warnings ?? []) options.warn?.(w);
  for (const w of schema.warnings) options.verbose?.(`warning: ${w}`);
  const specs = options.extensions ?? [];
  // Extensions (and their JSON Schema checker) are loaded only when a side has some.
  if (specs.length === 0) return { source, schema, model: base };
  const { applyExtensions, loadExtensionsFor, readExtensionFile } = await import('../model/extensions.js');
  // An extension may be a file or, like a schema side, a git object: an extension's own change diffs too.
  const read: ExtensionReader = async (extension, dir) => {
    if (!extension.startsWith('git:')) return readExtensionFile(extension, dir);
    const object = await readDiffSource(extension, { cwd: dir });
    return { name: object.name, text: object.text };
  };
  const extensions = await loadExtensionsFor([...specs], cwd, read);
  for (const w of extensions.flatMap((e) => e.warnings)) options.verbose?.(`warning: ${w}`);
  return { source, schema, model: applyExtensions(base, extensions) };
}

export interface DiffSourcesOptions extends Omit<DiffSideOptions, 'extensions'>, DiffOptions, CoverageOptions {
  /**
   * Called once both sides are read, before either is modelled, with their sizes in bytes together: where
   * the bin picks its compiler setting for the run (cli/v8-tuning.ts).
   */
  onRead?: (bytes: number) => void;
}

/**
 * The whole `diff` pipeline short of rendering: both sides read, loaded and modelled (old first, so warnings
 * come in order), refused when one side is too blind to compare (a real shrink passes with `allowShrink`),
 * then diffed. The sides come back too: the GitHub format annotates their files.
 */
export async function diffSources(
  oldSpec: string,
  newSpec: string,
  options: DiffSourcesOptions = {},
): Promise<{ report: DiffReport; old: DiffSide; new: DiffSide }> {
  const sources = [await readDiffSource(oldSpec, options), await readDiffSource(newSpec, options)] as const;
  options.onRead?.(sources.reduce((sum, s) => sum + Buffer.byteLength(s.text), 0));
  const old = await modelDiffSide(sources[0], { ...options, extensions: options.oldExtensions ?? [] });
  const next = await modelDiffSide(sources[1], { ...options, extensions: options.newExtensions ?? [] });
  const oldName = options.oldName ?? old.source.name;
  const newName = options.newName ?? next.source.name;
  requireComparableSides({ model: old.model, name: oldName }, { model: next.model, name: newName }, options);
  return { report: diffModels(old.model, next.model, { ...options, oldName, newName }), old, new: next };
}
