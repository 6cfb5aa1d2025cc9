/**
 * `mcp-typegen diff <old> <new>`: each side a file, a spec version or `git:<ref>:<path>`; the report
 * in text, json, markdown or GitHub workflow commands; exit 1 when a fact reaches `--fail-on`.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { FailOn, ReportFormat, SideFilter } from '../diff/index.js';
import { InputError } from '../errors.js';
import type { ExtensionReader } from '../model/extensions.js';
import { EXIT, type Out } from './console.js';

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
  rules?: boolean;
  includeDescriptions?: boolean;
  schemaDir?: string;
}

export async function runDiff(
  flags: DiffFlags,
  out: Out,
  write: (text: string) => void = (t) => process.stdout.write(t),
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
      'each a schema file, a spec version (e.g. 2025-11-25) or git:<ref>:<path>',
    );
  const cwd = process.cwd();
  const { loadSchema } = await import('../load/schema.js');
  const { buildModel } = await import('../model/build.js');
  const { applyExtensions, loadExtensionsFor, readExtensionFile } = await import('../model/extensions.js');
  const { readPairingFile } = await import('../model/pairing.js');
  const pairing = flags.pairing ? await readPairingFile(resolve(cwd, flags.pairing)) : undefined;
  // An extension may be a file or, like a schema side, a git object: an extension's own change diffs too.
  const readExtension: ExtensionReader = async (spec, dir) => {
    if (!spec.startsWith('git:')) return readExtensionFile(spec, dir);
    const source = await diff.readDiffSource(spec, { cwd: dir });
    return { name: source.name, text: source.text };
  };
  const side = async (spec: string, extensionSpecs: string[]) => {
    const source = await diff.readDiffSource(spec, { cwd, schemaDir: flags.schemaDir });
    const loaded = await loadSchema({ text: source.text, schema: source.name, spec: source.version ?? undefined, cwd });
    const extensions = extensionSpecs.length ? await loadExtensionsFor(extensionSpecs, cwd, readExtension) : [];
    for (const w of [...loaded.warnings, ...extensions.flatMap((e) => e.warnings)]) out.verbose(`warning: ${w}`);
    const model = buildModel(loaded, { pairing });
    // An unpaired request is diffed with an unknown result: the user must hear about it.
    for (const w of model.warnings ?? []) out.warn(w);
    return applyExtensions(model, extensions);
  };
  const ignore = flags.ignore ? diff.parseIgnoreFile(await readIgnore(resolve(cwd, flags.ignore)), flags.ignore) : [];
  const oldModel = await side(flags.old, [...(flags.ext ?? []), ...(flags.oldExt ?? [])]);
  const newModel = await side(flags.new, [...(flags.ext ?? []), ...(flags.newExt ?? [])]);
  const report = diff.diffModels(oldModel, newModel, {
    oldName: flags.old,
    newName: flags.new,
    includeDescriptions: Boolean(flags.includeDescriptions),
    ignore,
  });
  const failOn = flags.failOn ?? 'breaking';
  const sideFilter = flags.side ?? 'both';
  const code = diff.exitCodeFor(report, failOn, sideFilter);
  write(diff.renderReport(report, flags.format ?? 'text', { side: sideFilter }));
  return code;
}

async function readIgnore(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      file,
      undefined,
      code === 'ENOENT' ? 'ignore file not found' : `cannot read ignore file (${code ?? String(error)})`,
    );
  }
}
