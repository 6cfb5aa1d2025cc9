/**
 * Which targets `generate` runs: from flags alone, or from the config file with the flags overriding
 * each target's values.
 *
 * - `--config <file>`: config mode, flags override.
 * - no `--schema`/`--spec`/`--all` and a mcp-typegen.config.json found upward from the cwd: config mode.
 * - else: flags only (a config file nearby is not read).
 */
import { dirname, resolve } from 'node:path';
import { findConfig, loadConfig, type ConfigTarget } from '../config/load.js';
import type { TargetOptions } from '../config/options.js';
import type { Target } from '../config/target.js';
import { UsageError } from './console.js';
import { targetsFromFlags, type GenerateFlags } from './generate-command.js';

export interface TargetFlags extends GenerateFlags {
  config?: string;
  target?: string[];
}

export interface ResolvedTargets {
  targets: Target[];
  /** The config file read, when there was one (watch mode watches it). */
  configFile?: string;
}

/** Flags given on the command line, as target options (paths resolved against the cwd). */
export function flagOverrides(flags: GenerateFlags, cwd: string): TargetOptions {
  const o: TargetOptions = {};
  if (flags.spec !== undefined) o.spec = flags.spec;
  if (flags.schema !== undefined) o.schema = resolve(cwd, flags.schema);
  if (flags.schemaDir !== undefined) o.schemaDir = resolve(cwd, flags.schemaDir);
  if (flags.out !== undefined) o.out = resolve(cwd, flags.out);
  if (flags.ext !== undefined) o.extensions = flags.ext.map((e) => resolve(cwd, e));
  if (flags.pairing !== undefined) o.pairing = resolve(cwd, flags.pairing);
  if (flags.artifacts !== undefined) o.artifacts = flags.artifacts;
  if (flags.importExtension !== undefined) o.importExtension = flags.importExtension;
  if (flags.singleFile !== undefined) o.singleFile = flags.singleFile;
  if (flags.format !== undefined) o.format = flags.format;
  if (flags.runtime !== undefined) o.runtime = flags.runtime;
  return o;
}

export function targetFromConfig(t: ConfigTarget, overrides: TargetOptions, configFile: string): Target {
  const merged: ConfigTarget = { ...t, ...overrides } as ConfigTarget;
  if (overrides.spec !== undefined) delete merged.schema;
  if (overrides.schema !== undefined) delete merged.spec;
  const outDir = merged.out;
  return {
    label: t.name,
    outDir,
    options: {
      spec: merged.spec,
      schema: merged.schema,
      schemaDir: merged.schemaDir,
      extensions: merged.extensions,
      pairing: merged.pairing,
      artifacts: merged.artifacts,
      importExtension: merged.importExtension,
      singleFile: merged.singleFile,
      format: merged.format,
      runtime: merged.runtime,
      outDir,
      cwd: dirname(configFile),
    },
  };
}

export async function resolveTargets(flags: TargetFlags, cwd: string): Promise<ResolvedTargets> {
  const picked = Boolean(flags.schema || flags.spec || flags.all);
  const configFile = flags.config !== undefined ? resolve(cwd, flags.config) : picked ? undefined : findConfig(cwd);
  if (!configFile) {
    if (flags.target?.length)
      throw new UsageError(
        '--target needs a config file',
        'write mcp-typegen.config.json (mcp-typegen init) or pass --config <file>',
      );
    return { targets: targetsFromFlags(flags, cwd) };
  }
  if (flags.all)
    throw new UsageError(
      '--all cannot be used with a config file',
      'list the versions as targets in the config, or pass --spec/--schema without --config',
    );
  if (flags.spec && flags.schema) throw new UsageError('--schema and --spec cannot be used together');
  const config = await loadConfig(configFile, cwd);
  let chosen = config.targets;
  if (flags.target?.length) {
    const names = config.targets.map((t) => t.name);
    for (const name of flags.target) {
      if (!names.includes(name))
        throw new UsageError(`no target named "${name}" in ${config.file}`, `targets: ${names.join(', ')}`);
    }
    chosen = config.targets.filter((t) => flags.target!.includes(t.name));
  }
  if (chosen.length > 1 && flags.out !== undefined) {
    throw new UsageError(
      `--out would send ${chosen.length} targets to one directory`,
      'pick one with --target <name>, or set "out" per target in the config',
    );
  }
  const overrides = flagOverrides(flags, cwd);
  return { targets: chosen.map((t) => targetFromConfig(t, overrides, config.file)), configFile: config.file };
}
