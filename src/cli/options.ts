/**
 * The yargs options shared by the commands: global flags, the network flags, the schema flags, and the
 * per-target and diff options generated from their tables.
 */
import type { Argv } from 'yargs';
import type { OptionSpec } from '../config/options.js';
import { SHA256_PATTERN, patternProblem } from '../config/patterns.js';
import type { FetchPolicy } from '../load/download.js';
import { UsageError, type Verbosity } from '../run/console.js';
import type { DiffOptionSpec } from './diff-options.js';

export interface GlobalFlags {
  quiet?: boolean;
  verbose?: boolean;
}

export interface FetchFlags {
  offline?: boolean;
  fetchTimeout?: number;
}

/**
 * yargs collects a repeated option into an array, which the commands would read as one value (`-o a -o b`
 * became the path "a,b"): an option that takes one value refuses a second, with one usage line.
 */
export function single(flag: string) {
  return (value: unknown): unknown => {
    if (Array.isArray(value)) throw new UsageError(`--${flag} was given more than once`);
    return value;
  };
}

/**
 * Why a path flag's value names nothing the user can have meant, or undefined when it is fine: '' resolves
 * to the working directory (`--out ''` wrote into it), and "-", standard output to most tools, would make
 * the output a directory named "-".
 */
export function pathFlagProblem(flag: string, value: unknown, output = false): string | undefined {
  // yargs reads `--out -` as an empty value and `-o -` as "-": the message covers both spellings.
  if (value === '') return `--${flag} needs a path, and its value is empty ("--${flag} -" reads as empty too)`;
  if (output && value === '-')
    return `--${flag} -: writing to standard output is not supported; name a directory (./- for one named "-")`;
  return undefined;
}

/** yargs coerce for a path flag: what `single` checks (unless it repeats), and `pathFlagProblem` for each value. */
export function pathFlag(flag: string, options: { output?: boolean; repeatable?: boolean } = {}) {
  const once = single(flag);
  return (value: unknown): unknown => {
    const checked = options.repeatable ? value : once(value);
    for (const one of [checked].flat()) {
      const problem = pathFlagProblem(flag, one, options.output);
      if (problem) throw new UsageError(problem);
    }
    return checked;
  };
}

/** yargs coerce for a single-value option whose value must match a pattern (a sha256 pin). */
export function patternFlag(flag: string, pattern: NonNullable<OptionSpec['pattern']>) {
  const once = single(flag);
  return (value: unknown): unknown => {
    const checked = once(value);
    const problem = patternProblem({ pattern }, checked);
    if (problem) throw new UsageError(`--${flag} ${String(checked)}: ${problem}`);
    return checked;
  };
}

export function verbosity(flags: GlobalFlags): Verbosity {
  return flags.quiet ? 'quiet' : flags.verbose ? 'verbose' : 'normal';
}

/** -v, for the commands that have something more to print (its description says what). */
export function verboseOption<T>(y: Argv<T>, describe: string) {
  return y.option('verbose', { alias: 'v', type: 'boolean', describe });
}

export function schemaOptions<T>(y: Argv<T>) {
  return fetchOptions(
    y
      .option('schema', {
        type: 'string',
        coerce: pathFlag('schema'),
        describe: 'An MCP JSON Schema file, or an https:// URL',
      })
      .option('schema-sha256', {
        type: 'string',
        coerce: patternFlag('schema-sha256', SHA256_PATTERN),
        describe: 'The sha256 the --schema bytes must have',
      })
      .option('spec', {
        type: 'string',
        coerce: single('spec'),
        describe: 'A known MCP spec version, e.g. 2025-11-25 (schema root, else the user cache, else downloaded)',
      })
      .option('schema-dir', {
        type: 'string',
        coerce: pathFlag('schema-dir'),
        describe: 'Schema root for --spec: <dir>/<version>/schema.json (default: $MCP_SCHEMA_DIR, else the cache)',
      })
      .option('ext', {
        type: 'string',
        array: true,
        coerce: pathFlag('ext', { repeatable: true }),
        describe: 'A vendor extension file (repeatable)',
      }),
  );
}

export const fetchOptionSpecs = {
  offline: {
    type: 'boolean',
    describe: 'Never download: spec versions come from the schema root or the cache (also MCP_TYPEGEN_OFFLINE=1)',
  },
  fetchTimeout: {
    type: 'number',
    describe: 'Seconds a schema download may take (default 30; also MCP_TYPEGEN_FETCH_TIMEOUT)',
  },
} as const;

/** The network options of every command that may download a schema. */
export function fetchOptions<T>(y: Argv<T>) {
  return y
    .option('offline', fetchOptionSpecs.offline)
    .option('fetch-timeout', { ...fetchOptionSpecs.fetchTimeout, coerce: single('fetch-timeout') });
}

/** yargs options of `diff`, from its table (cli/diff-options.ts). */
export function diffYargsOptions<T>(y: Argv<T>, table: readonly DiffOptionSpec[]): Argv<T> {
  let out: Argv<T> = y;
  for (const o of table) {
    out = out.option(o.flag, {
      type: o.type === 'boolean' ? 'boolean' : o.type === 'number' ? 'number' : 'string',
      ...(o.type === 'string[]' ? { array: true } : {}),
      ...coerceFor(o),
      ...(o.alias ? { alias: o.alias } : {}),
      ...(o.choices ? { choices: [...o.choices] } : {}),
      ...(o.default !== undefined ? { default: o.default } : {}),
      describe: o.describe,
    }) as Argv<T>;
  }
  return out;
}

/** The fetch policy from the network flags. */
export function fetchPolicy(flags: FetchFlags & GlobalFlags): FetchPolicy {
  const policy: FetchPolicy = {};
  if (flags.offline !== undefined) policy.offline = flags.offline;
  if (flags.fetchTimeout !== undefined) {
    if (!(flags.fetchTimeout > 0)) throw new UsageError('--fetch-timeout must be a positive number of seconds');
    policy.fetchTimeoutMs = flags.fetchTimeout * 1000;
  }
  if (flags.quiet) policy.quiet = true;
  return policy;
}

/** yargs options of every per-target option, from the one table (src/config/options.ts). */
export function targetOptions<T>(y: Argv<T>, table: readonly OptionSpec[]): Argv<T> {
  let out: Argv<T> = y;
  for (const o of table) {
    const choices = o.choices ? [...o.choices, ...Object.keys(o.cliAliases ?? {})] : undefined;
    out = out.option(o.flag, {
      type: o.type === 'boolean' ? 'boolean' : 'string',
      ...(o.type === 'string[]' ? { array: true } : {}),
      ...coerceFor(o),
      ...(choices ? { choices } : {}),
      ...(o.alias ? { alias: o.alias } : {}),
      describe: o.describe,
    }) as Argv<T>;
  }
  return out;
}

/** The yargs coerce of a table option: path checks for a path, one value for any other single-value option. */
function coerceFor(o: Pick<OptionSpec, 'flag' | 'path' | 'output' | 'pattern'> & { type: string }): {
  coerce?: (v: unknown) => unknown;
} {
  if (o.pattern) return { coerce: patternFlag(o.flag, o.pattern) };
  if (o.path) return { coerce: pathFlag(o.flag, { output: o.output, repeatable: o.type === 'string[]' }) };
  return o.type === 'string' || o.type === 'number' ? { coerce: single(o.flag) } : {};
}
