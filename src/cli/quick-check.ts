/**
 * The two commands CI runs on every build, answered before yargs is even loaded (most of their time
 * was Node and yargs start-up): `generate --check` when nothing changed, and `diff <old> <new>`.
 *
 * `generate --check` when nothing changed: It parses the same options (from the one
 * option table) with node:util, and answers only "up to date" — when every target's manifest hashes
 * match. Anything else (stale output, an error, an option it does not know) returns undefined and the
 * full command line handles it, so every other outcome has one implementation.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { OptionSpec } from '../config/options.js';
import { createOut, EXIT, reportError, type Out } from '../run/console.js';

/** parseArgs options of `generate --check`, from the one option table. */
const checkOptions = (TARGET_OPTIONS: readonly OptionSpec[]): ParseArgsConfig['options'] => ({
  all: { type: 'boolean' },
  offline: { type: 'boolean' },
  config: { type: 'string', short: 'c' },
  target: { type: 'string', short: 't', multiple: true },
  check: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  verbose: { type: 'boolean', short: 'v' },
  ...Object.fromEntries(
    TARGET_OPTIONS.map((o) => [
      o.flag,
      {
        type: o.type === 'boolean' ? 'boolean' : 'string',
        ...(o.type === 'string[]' ? { multiple: true } : {}),
        ...(o.alias ? { short: o.alias } : {}),
      },
    ]),
  ),
});

export async function quickCheck(argv: string[], given?: Out): Promise<number | undefined> {
  if (
    argv[0] !== 'generate' ||
    !argv.includes('--check') ||
    argv.some((a) => a.startsWith('--no-') || a === '--watch' || a === '-w' || a === '--fetch-timeout')
  )
    return undefined;
  // The generator's modules, loaded only for `generate --check` (a plain diff never needs them).
  const [{ TARGET_OPTIONS, optionsFromFlags }, { isTargetUpToDateFast, upToDateLine }, { resolveTargets }] =
    await Promise.all([import('../config/options.js'), import('../run/generate.js'), import('../run/targets.js')]);
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv.slice(1),
      options: checkOptions(TARGET_OPTIONS as readonly OptionSpec[]),
      strict: true,
      allowPositionals: false,
    }));
  } catch {
    return undefined;
  }
  try {
    const cwd = process.cwd();
    // Values outside an option's choices are left to yargs, which reports them.
    for (const o of TARGET_OPTIONS as readonly OptionSpec[]) {
      const raw = values[o.flag];
      const allowed = o.choices ? [...o.choices, ...Object.keys(o.cliAliases ?? {})] : undefined;
      if (allowed && raw !== undefined && ![raw].flat().every((v) => allowed.includes(String(v)))) return undefined;
    }
    const { targets } = await resolveTargets(
      {
        options: optionsFromFlags((o) => values[o.flag], cwd),
        policy: values.offline === true ? { offline: true } : {},
        all: values.all === true ? true : undefined,
        config: typeof values.config === 'string' ? values.config : undefined,
        target: Array.isArray(values.target) ? (values.target as string[]) : undefined,
      },
      cwd,
    );
    const lines: string[] = [];
    for (const target of targets) {
      const started = performance.now();
      if (!(await isTargetUpToDateFast(target))) return undefined;
      lines.push(upToDateLine(target, Math.round(performance.now() - started)));
    }
    const out = given ?? createOut(values.quiet ? 'quiet' : values.verbose ? 'verbose' : 'normal');
    for (const line of lines) out.info(line);
    return EXIT.ok;
  } catch {
    return undefined;
  }
}

/**
 * `diff <old> <new> [options]`: the same runDiff the full command line calls. Only a plain, valid
 * invocation is taken here; anything else (`--rules`, help, an unknown option or value, a missing side)
 * returns undefined so yargs parses and reports it.
 */
export async function quickDiff(argv: string[], given?: Out): Promise<number | undefined> {
  if (argv[0] !== 'diff') return undefined;
  const { diffFlagsFrom, diffParseArgsOptions } = await import('./diff-options.js');
  const options: ParseArgsConfig['options'] = {
    ...diffParseArgsOptions(),
    quiet: { type: 'boolean', short: 'q' },
    verbose: { type: 'boolean', short: 'v' },
  };
  let parsed: { values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv.slice(1), options, strict: true, allowPositionals: true });
  } catch {
    return undefined;
  }
  const { values, positionals } = parsed;
  const flags = diffFlagsFrom((flag) => values[flag]);
  if (positionals.length !== 2 || !flags) return undefined;
  const out = given ?? createOut(values.quiet ? 'quiet' : values.verbose ? 'verbose' : 'normal');
  const { runDiff } = await import('./diff-command.js');
  try {
    return await runDiff({ ...flags, old: positionals[0], new: positionals[1] }, out);
  } catch (error) {
    return reportError(out, error);
  }
}
