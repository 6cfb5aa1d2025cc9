/**
 * `mcp-typegen generate`: resolve targets, generate every one in memory, then write them (or, with
 * `--check`, compare them). Bad input anywhere means nothing is written at all.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CONFIG_NAME } from '../config/name.js';
import type { TargetOptions } from '../config/options.js';
import { generateTarget, type GenerateOptions, type Target } from './target.js';
import type { GenerateResult } from '../generate.js';
import type { FetchPolicy } from '../load/download.js';
import { targetInputs } from '../inputs.js';
import { knownVersionNames } from '../load/manifest.js';
import { toolPackage } from '../load/package-root.js';
import { isUpToDateFast, type StaleFile } from '../write/check.js';
import { EXIT, UsageError, type Out } from './console.js';

export type { Target } from './target.js';

/** What `generate` was asked on the command line: the table's options (as `optionsFromFlags` read
 * them, paths resolved against the cwd), the network policy, and the run-level flags. */
export interface GenerateFlags {
  options: TargetOptions;
  policy: FetchPolicy;
  all?: boolean;
  check?: boolean;
}

/** Where output goes without --out (and without a config), relative to the cwd. */
export const DEFAULT_OUT = 'generated';

/** The line that says where output goes when neither --out nor a config named it; undefined when one did. */
export function defaultOutNotice(flags: GenerateFlags, configFile: string | undefined): string | undefined {
  if (configFile !== undefined || flags.options.out !== undefined) return undefined;
  const where = `./${DEFAULT_OUT}${flags.all ? '/<version>' : ''}`;
  return `no --out given: ${flags.check ? 'checking' : 'writing to'} ${where} (pass --out <dir> to choose)`;
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Targets from flags alone (the config file adds its own, see targets.ts). */
export function targetsFromFlags(flags: GenerateFlags, cwd: string): Target[] {
  const { options } = flags;
  const picked = [options.schema && '--schema', options.spec && '--spec', flags.all && '--all'].filter(Boolean);
  if (picked.length > 1)
    throw new UsageError(
      `${picked.join(' and ')} cannot be used together`,
      'name one schema: --schema <file>, --spec <version>, or --all',
    );
  if (picked.length === 0) {
    // A config file under another name (mcp-typegen.json, .mcp-typegen.config.json, …) is never read.
    const misnamed = readdirSafe(cwd).find(
      (name) => /mcp-typegen.*\.json$/i.test(name) && name !== CONFIG_NAME && name !== '.mcp-typegen.json',
    );
    throw new UsageError(
      'no schema given',
      misnamed !== undefined
        ? `${join(cwd, misnamed)} is not read: the config file is named ${CONFIG_NAME} (rename it, or pass --config ${misnamed})`
        : `pass --schema <file>, --spec <version> or --all (or write a ${CONFIG_NAME})`,
    );
  }
  const { out: outOption, ...rest } = options;
  const out = resolve(cwd, outOption ?? DEFAULT_OUT);
  const common: GenerateOptions = { ...rest, ...flags.policy, cwd };
  if (flags.all) {
    return knownVersionNames().map((version) => ({
      label: version,
      outDir: resolve(out, version),
      options: { ...common, spec: version, outDir: resolve(out, version) },
    }));
  }
  return [{ label: options.spec ?? options.schema ?? out, outDir: out, options: { ...common, outDir: out } }];
}

/** `notice`: a line said before anything is written or checked (where output goes without --out). */
export async function runGenerate(targets: Target[], check: boolean, out: Out, notice?: string): Promise<number> {
  return check ? runCheck(targets, out, notice) : runWrite(targets, out, notice);
}

export async function runWrite(targets: Target[], out: Out, notice?: string): Promise<number> {
  const { writeOutput } = await import('../write/write.js');
  const { assertWritableOutDir } = await import('../write/preflight.js');
  for (const target of targets) await assertWritableOutDir(target.outDir);
  const results: { target: Target; result: GenerateResult; ms: number }[] = [];
  for (const target of targets) {
    const started = performance.now();
    const result = await generateTarget(target.options);
    results.push({ target, result, ms: performance.now() - started });
    for (const warning of result.warnings) out.warn(warning);
  }
  // Only once every target generated: a run that fails writes nothing and has nothing to say about where.
  if (notice) out.info(notice);
  for (const { target, result, ms } of results) {
    const summary = await writeOutput(
      target.outDir,
      result.files,
      result.inputsHash,
      toolPackage().version,
      result.formatted,
    );
    const methods = result.model.methods.length;
    out.info(
      `${target.label}: ${methods} methods → ${displayPath(target.outDir)} (${summary.written.length} written, ${summary.unchanged.length} unchanged${
        summary.removed.length ? `, ${summary.removed.length} removed` : ''
      }) in ${Math.round(ms)} ms`,
    );
    for (const path of summary.written) out.verbose(`  wrote ${path}`);
    for (const path of summary.removed) out.verbose(`  removed ${path}`);
  }
  return EXIT.ok;
}

async function runCheck(targets: Target[], out: Out, notice?: string): Promise<number> {
  if (notice) out.info(notice);
  let staleCount = 0;
  for (const target of targets) {
    const started = performance.now();
    const stale = await checkTarget(target);
    const ms = Math.round(performance.now() - started);
    if (stale.length === 0) {
      out.info(upToDateLine(target, ms));
      continue;
    }
    staleCount += stale.length;
    out.info(`${target.label}: ${stale.length} stale file(s) in ${displayPath(target.outDir)}`);
    for (const file of stale) {
      out.info(`  ${file.reason}: ${file.path}`);
      if (file.diff) out.info(file.diff.replace(/^/gm, '    '));
    }
  }
  if (staleCount > 0) out.info('run `mcp-typegen generate` to update the output');
  return staleCount > 0 ? EXIT.found : EXIT.ok;
}

/** Check one target: the fast path by hashes, else regenerate in memory and compare. */
/** True when the manifest's inputs hash and every file hash still match: up to date without regenerating. */
export async function isTargetUpToDateFast(target: Target): Promise<boolean> {
  const { hash } = await targetInputs({ ...target.options, outDir: target.outDir });
  return hash !== undefined && (await isUpToDateFast(target.outDir, hash));
}

export async function checkTarget(target: Target): Promise<StaleFile[]> {
  if (await isTargetUpToDateFast(target)) return [];
  const { compareOutput } = await import('../write/check.js');
  const result = await generateTarget(target.options);
  return compareOutput(target.outDir, result.files, {
    inputsHash: result.inputsHash,
    version: toolPackage().version,
    format: result.formatted,
  });
}

export function upToDateLine(target: Target, ms: number): string {
  return `${target.label}: up to date (${displayPath(target.outDir)}) in ${ms} ms`;
}

function displayPath(path: string): string {
  const rel = path.startsWith(process.cwd()) ? path.slice(process.cwd().length + 1) : path;
  return rel || '.';
}
