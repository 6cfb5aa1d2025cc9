/**
 * Which targets `generate` runs: from flags alone, or from the config file with the flags overriding
 * each target's values.
 *
 * - `--config <file>`: config mode, flags override.
 * - no `--schema`/`--spec`/`--all` and a mcp-typegen.config.json found upward from the cwd: config mode.
 * - else: flags only (a config file nearby is not read).
 */
import { existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { findConfig, loadConfig, type ConfigTarget } from '../config/load.js';
import { TARGET_OPTIONS, pickTargetOptions, type OptionSpec, type TargetOptions } from '../config/options.js';
import { InputError } from '../errors.js';
import { extensionReadError } from '../extensions/read-error.js';
import type { FetchPolicy } from '../load/download.js';
import type { Target } from './target.js';
import { UsageError } from './console.js';
import { targetsFromFlags, type GenerateFlags } from './generate.js';

export interface TargetFlags extends GenerateFlags {
  config?: string;
  target?: string[];
}

export interface ResolvedTargets {
  targets: Target[];
  /** The config file read, when there was one (watch mode watches it). */
  configFile?: string;
}

/** A config target with the flags' values over it: a flag `--spec` drops the target's `schema` and back. */
export function targetFromConfig(
  t: ConfigTarget,
  overrides: TargetOptions,
  configFile: string,
  policy: FetchPolicy = {},
): Target {
  checkInputFiles(t, overrides, configFile);
  const merged: TargetOptions = { ...pickTargetOptions(t), ...overrides };
  if (overrides.spec !== undefined) delete merged.schema;
  if (overrides.schema !== undefined) delete merged.spec;
  const { out, ...rest } = merged;
  const outDir = out ?? t.out;
  return { label: t.name, outDir, options: { ...rest, ...policy, outDir, cwd: dirname(configFile) } };
}

/**
 * A missing input file the config names (an extension, the pairing file, a snapshot, a schema) is the config's
 * error: reported at its place in the config file, with what the loader would have said of the file. Values the
 * flags override are the flags' to name.
 */
function checkInputFiles(t: ConfigTarget, overrides: TargetOptions, configFile: string): void {
  const dir = dirname(configFile);
  for (const o of TARGET_OPTIONS as readonly OptionSpec[]) {
    const key = o.key as keyof TargetOptions;
    const value = t[key];
    if (o.file === undefined || value === undefined || overrides[key] !== undefined) continue;
    const values = (Array.isArray(value) ? value : [value]) as string[];
    values.forEach((path, i) => {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path) || o.notAPath?.(path, dir) || existsSync(path)) return;
      const found =
        key === 'extensions'
          ? extensionReadError(path, { code: 'ENOENT' })
          : { reason: `${o.file} not found`, hint: undefined };
      const pointer = `${t.pointers[key] ?? `/${key}`}${Array.isArray(value) ? `/${i}` : ''}`;
      throw new InputError(configFile, pointer, `${relative(dir, path)}: ${found.reason}`, found.hint);
    });
  }
}

export async function resolveTargets(flags: TargetFlags, cwd: string): Promise<ResolvedTargets> {
  const { options } = flags;
  const picked = Boolean(options.schema || options.spec || flags.all);
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
  if (options.spec && options.schema) throw new UsageError('--schema and --spec cannot be used together');
  const config = await loadConfig(configFile, cwd);
  let chosen = config.targets;
  const wanted = flags.target ?? [];
  if (wanted.length > 0) {
    const names = config.targets.map((t) => t.name);
    for (const name of wanted) {
      if (!names.includes(name))
        throw new UsageError(`no target named "${name}" in ${config.file}`, `targets: ${names.join(', ')}`);
    }
    chosen = config.targets.filter((t) => wanted.includes(t.name));
  }
  if (chosen.length > 1 && options.out !== undefined) {
    throw new UsageError(
      `--out would send ${chosen.length} targets to one directory`,
      'pick one with --target <name>, or set "out" per target in the config',
    );
  }
  return {
    targets: chosen.map((t) => targetFromConfig(t, options, config.file, flags.policy)),
    configFile: config.file,
  };
}
