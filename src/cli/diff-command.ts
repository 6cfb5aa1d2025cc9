/**
 * `mcp-typegen diff <old> <new>`: each side a file, a spec version or `git:<ref>:<path>` (or both sides
 * snapshot files: their tool surfaces); the report in text, json, markdown or GitHub workflow commands;
 * exit 1 when a fact reaches `--fail-on`.
 */
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type {
  DiffOptions,
  DiffReport,
  FailOn,
  IgnoreEntry,
  ReportFormat,
  SchemaLocator,
  SideFilter,
} from '../diff/index.js';
import type { DiffSource, DiffSourceOptions } from '../diff/sources.js';
import { snapshotPointer } from '../snapshot/model.js';
import { looksLikeSnapshot } from '../load/snapshot-kind.js';
import { InputError } from '../errors.js';
import type { FetchPolicy } from '../load/download.js';
import { EXIT, type Out } from '../run/console.js';
import { readUserFile } from '../load/read-file.js';

export interface DiffFlags {
  old?: string;
  new?: string;
  /** Extension files merged into both sides. */
  ext?: string[];
  /** Extension sources (files or git:<ref>:<path>) of the old side only, and of the new side only. */
  oldExt?: string[];
  newExt?: string[];
  format?: ReportFormat;
  failOn?: FailOn;
  side?: SideFilter;
  ignore?: string;
  /** A pairing file (request → result definition) applied to both sides. */
  pairing?: string;
  /** A side with far fewer methods than the other lost them: report them removed instead of refusing it. */
  allowShrink?: boolean;
  /** github format: at most this many annotations (plus the summary). */
  maxAnnotations?: number;
  rules?: boolean;
  includeDescriptions?: boolean;
  schemaDir?: string;
  /** The network policy for spec versions not at hand (see load/spec-source.ts). */
  policy?: FetchPolicy;
}

/**
 * `onRead` (the bin's compiler setting, v8-tuning.ts) hears the size of two schema sides once they are read,
 * before they are modelled.
 */
export async function runDiff(
  flags: DiffFlags,
  out: Out,
  write: (text: string) => void = (t) => process.stdout.write(t),
  onRead?: (bytes: number) => void,
): Promise<number> {
  const diff = await import('../diff/index.js');
  if (flags.rules) {
    write(diff.renderRules(flags.format === 'json' ? 'json' : flags.format === 'markdown' ? 'markdown' : 'text'));
    return EXIT.ok;
  }
  if (!flags.old || !flags.new)
    throw new InputError(
      '(arguments)',
      undefined,
      'diff needs two sides: mcp-typegen diff <old> <new>',
      'each a schema file, a spec version (e.g. 2025-11-25), git:<ref>:<path>, or a snapshot file (mcp-typegen snapshot)',
    );
  const cwd = process.cwd();
  const ignore = flags.ignore ? diff.parseIgnoreFile(await readIgnore(resolve(cwd, flags.ignore)), flags.ignore) : [];
  const sides = { ...flags, old: flags.old, new: flags.new };
  const { report, sources, snapshots } = await buildReport(sides, ignore, out, onRead);
  const max = flags.maxAnnotations;
  if (max !== undefined && !(Number.isInteger(max) && max >= 0))
    throw new InputError(
      '(arguments)',
      undefined,
      `--max-annotations must be a whole number ≥ 0, not "${String(max)}"`,
    );
  const failOn = flags.failOn ?? 'breaking';
  const sideFilter = flags.side ?? 'both';
  const code = diff.exitCodeFor(report, failOn, sideFilter);
  const format = flags.format ?? 'text';
  const locate =
    format === 'github'
      ? locator(diff.pointerLines, report, sources, await repositoryRoot(cwd), cwd, snapshots)
      : undefined;
  write(diff.renderReport(report, format, { side: sideFilter, maxAnnotations: flags.maxAnnotations, locate }));
  return code;
}

/**
 * The report of two snapshots (both sides `mcp-typegen snapshot` files), else of two schemas with their
 * extensions (diffSources, the pipeline the API shares); with what each side was read from, for the
 * annotations.
 */
async function buildReport(
  flags: DiffFlags & { old: string; new: string },
  ignore: IgnoreEntry[],
  out: Out,
  onRead: ((bytes: number) => void) | undefined,
): Promise<{ report: DiffReport; sources: Record<'old' | 'new', DiffSource>; snapshots: boolean }> {
  const cwd = process.cwd();
  const options = {
    oldName: flags.old,
    newName: flags.new,
    includeDescriptions: Boolean(flags.includeDescriptions),
    oldExtensions: [...(flags.ext ?? []), ...(flags.oldExt ?? [])],
    newExtensions: [...(flags.ext ?? []), ...(flags.newExt ?? [])],
    ignore,
  };
  const snapshots = await snapshotReport(flags.old, flags.new, { ...flags.policy, cwd, schemaDir: flags.schemaDir });
  if (snapshots) {
    if (options.oldExtensions.length > 0 || options.newExtensions.length > 0)
      throw new InputError('(arguments)', undefined, 'extensions do not apply to a diff of two snapshots');
    return { ...snapshots.diff({ ...options, oldExtensions: [], newExtensions: [] }), snapshots: true };
  }
  const diff = await import('../diff/index.js');
  const { readPairingFile } = await import('../model/pairing.js');
  const pairing = flags.pairing ? await readPairingFile(resolve(cwd, flags.pairing)) : undefined;
  const {
    report,
    old,
    new: next,
  } = await diff.diffSources(flags.old, flags.new, {
    ...flags.policy,
    cwd,
    schemaDir: flags.schemaDir,
    pairing,
    allowShrink: Boolean(flags.allowShrink),
    onRead,
    warn: (message) => out.warn(message),
    verbose: (message) => out.verbose(message),
    ...options,
  });
  return { report, sources: { old: old.source, new: next.source }, snapshots: false };
}
/**
 * Lines of the schema locations the report names, one scan per side (annotations carry file and line).
 * A side is annotated in its own file only when that file is in the working tree (a `git:` or version
 * baseline is not): `file=` is then its path from the repository root, with `/` separators.
 */
function locator(
  pointerLines: (text: string, pointers: Iterable<string>) => Map<string, number>,
  report: DiffReport,
  sources: Record<'old' | 'new', DiffSource>,
  root: string,
  cwd: string,
  snapshots: boolean,
): SchemaLocator {
  // A snapshot's facts carry pointers of its model: the place in the file is the nearest one that exists.
  const inFile = snapshots ? snapshotPointers : (pointers: string[]) => pointers;
  const lines = { old: new Map<string, number>(), new: new Map<string, number>() };
  for (const which of ['old', 'new'] as const) {
    const source = sources[which];
    const key = which === 'old' ? 'oldPointer' : 'newPointer';
    const notes = report.notes.filter((n) => n.side === which).map((n) => n.pointer);
    const wanted = inFile([
      ...report.facts.map((f) => f.location[key]).filter((p): p is string => p !== null),
      ...notes,
    ]);
    if (source)
      lines[which] = pointerLines(
        source.text,
        wanted.map((p) => p.slice(1)),
      );
  }
  const files = {
    old: sources.old?.kind === 'file' ? fromRoot(root, resolve(cwd, sources.old.file)) : null,
    new: sources.new?.kind === 'file' ? fromRoot(root, resolve(cwd, sources.new.file)) : null,
  };
  return (which, pointer) => {
    const line = snapshots
      ? nearestLine(lines[which], snapshotPointer(pointer).slice(1))
      : lines[which].get(pointer.slice(1));
    const source = sources[which];
    return line !== undefined && source !== undefined ? { file: files[which], line, source: source.name } : undefined;
  };
}

/** A snapshot model's pointers as places in the snapshot file, with every ancestor (the nearest found is used). */
function snapshotPointers(pointers: string[]): string[] {
  const out = new Set<string>();
  for (const p of pointers) {
    const tokens = snapshotPointer(p).split('/');
    for (let i = 2; i <= tokens.length; i++) out.add(tokens.slice(0, i).join('/'));
  }
  return [...out];
}

/** The line of a pointer, else of its nearest ancestor that has one. */
function nearestLine(lines: Map<string, number>, pointer: string): number | undefined {
  for (let p = pointer; p !== ''; p = p.slice(0, p.lastIndexOf('/'))) {
    const line = lines.get(p);
    if (line !== undefined) return line;
  }
  return undefined;
}

/**
 * When both sides are snapshots (`mcp-typegen snapshot` files), their diff; undefined for two schemas. The
 * sources are read here once and kept for the annotations.
 */
async function snapshotReport(oldSpec: string, newSpec: string, options: DiffSourceOptions) {
  const { readDiffSource } = await import('../diff/sources.js');
  // A spec version is never a snapshot: only files and git objects are read here.
  const mayBe = (spec: string) => spec.startsWith('git:') || existsSync(spec);
  if (!mayBe(oldSpec) && !mayBe(newSpec)) return undefined;
  // The other side, not read: a spec version (it is refused below, not being a snapshot).
  const read = async (spec: string): Promise<DiffSource> =>
    mayBe(spec) ? readDiffSource(spec, options) : { kind: 'version', name: spec, text: '', version: spec, file: spec };
  const old = await read(oldSpec);
  const now = await read(newSpec);
  if (!looksLikeSnapshot(old.text) && !looksLikeSnapshot(now.text)) return undefined;
  // Only now: reading snapshots checks their format with ajv, which a diff of two schemas never loads.
  const { diffSnapshotSides } = await import('../snapshot/diff.js');
  return {
    diff: (o: DiffOptions) => ({
      report: diffSnapshotSides({ name: oldSpec, text: old.text }, { name: newSpec, text: now.text }, o),
      sources: { old, new: now },
    }),
  };
}

/** A path from the repository root with `/` separators; null outside it (GitHub annotates only files in it). */
function fromRoot(root: string, file: string): string | null {
  // git names the top level by its real path; the working directory may reach it through a link.
  const real = (p: string) => (existsSync(p) ? realpathSync.native(p) : p);
  const path = relative(real(root), real(file));
  if (path === '' || path.startsWith('..') || isAbsolute(path)) return null;
  return path.split(sep).join('/');
}

/** The git top level of the working directory, else the working directory itself. */
async function repositoryRoot(cwd: string): Promise<string> {
  const { execFile } = await import('node:child_process');
  return new Promise((done) => {
    execFile('git', ['rev-parse', '--show-toplevel'], { cwd, encoding: 'utf8', windowsHide: true }, (error, out) =>
      done(error || out.trim() === '' ? cwd : out.trim()),
    );
  });
}

function readIgnore(file: string): Promise<string> {
  return readUserFile(file, 'ignore file');
}
