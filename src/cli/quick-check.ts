/**
 * The commands CI and build scripts run most, answered before yargs is even loaded (loading yargs costs
 * about as much as Node's own start-up): `generate` and `generate --check`, and `diff <old> <new>`.
 *
 * `generate`: the same options (from the one option table) parsed with node:util, then the same
 * resolveTargets and runGenerate the yargs command calls. `--check` is answered here only when it is
 * "up to date" (every target's manifest hashes match). Anything else this parser does not take exactly as
 * yargs would (an option it does not know, `--no-*`, a repeated single-value option, which yargs refuses, a
 * value outside an option's choices, an empty path, help) returns undefined and the full command line handles it, so every other outcome
 * has one implementation.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { OptionSpec } from '../config/options.js';
import { createOut, EXIT, reportError, type Out } from '../run/console.js';
import type { TargetFlags } from '../run/targets.js';
import { pathFlagProblem } from './options.js';

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** parseArgs options of `generate`, from the one option table. */
const generateOptions = (TARGET_OPTIONS: readonly OptionSpec[]): NonNullable<ParseArgsConfig['options']> => ({
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

type Token = { kind: string; name?: string; rawName?: string; inlineValue?: boolean };

/**
 * Whether yargs would read these tokens otherwise than parseArgs: a repeated single-value option (yargs
 * refuses it, parseArgs keeps the last) or `-o=dir` ("dir" to yargs, "=dir" to parseArgs).
 */
function readsDifferently(tokens: Token[], options: NonNullable<ParseArgsConfig['options']>): boolean {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    if (token.inlineValue && !token.rawName?.startsWith('--')) return true;
    if (options[token.name]?.multiple) continue;
    if (seen.has(token.name)) return true;
    seen.add(token.name);
  }
  return false;
}

/** `generate`'s flags, or undefined when the invocation is one to leave to yargs. */
async function parseGenerate(argv: string[]): Promise<{ values: Values; flags: TargetFlags } | undefined> {
  if (
    argv[0] !== 'generate' ||
    argv.some((a) => a.startsWith('--no-') || a === '--watch' || a === '-w' || a === '--fetch-timeout')
  )
    return undefined;
  const { TARGET_OPTIONS, optionsFromFlags } = await import('../config/options.js');
  const table = TARGET_OPTIONS as readonly OptionSpec[];
  const options = generateOptions(table);
  let values: Values;
  let tokens: Token[];
  try {
    ({ values, tokens } = parseArgs({
      args: argv.slice(1),
      options,
      strict: true,
      allowPositionals: false,
      tokens: true,
    }));
  } catch {
    return undefined;
  }
  if (readsDifferently(tokens, options)) return undefined;
  // Values outside an option's choices, and paths that name nothing, are left to yargs, which reports them.
  if (pathFlagProblem('config', values.config) !== undefined) return undefined;
  for (const o of table) {
    const raw = values[o.flag];
    const allowed = o.choices ? [...o.choices, ...Object.keys(o.cliAliases ?? {})] : undefined;
    if (allowed && raw !== undefined && ![raw].flat().every((v) => allowed.includes(String(v)))) return undefined;
    if (o.path && [raw].flat().some((v) => pathFlagProblem(o.flag, v, o.output) !== undefined)) return undefined;
  }
  try {
    const flags: TargetFlags = {
      options: optionsFromFlags((o) => values[o.flag], process.cwd()),
      // What fetchPolicy (options.ts) makes of the same flags.
      policy: { ...(values.offline === true ? { offline: true } : {}), ...(values.quiet ? { quiet: true } : {}) },
      all: values.all === true ? true : undefined,
      config: typeof values.config === 'string' ? values.config : undefined,
      target: Array.isArray(values.target) ? (values.target as string[]) : undefined,
    };
    return { values, flags };
  } catch {
    return undefined;
  }
}

const outFor = (values: Values, given?: Out) =>
  given ?? createOut(values.quiet ? 'quiet' : values.verbose ? 'verbose' : 'normal');

/** `generate` without `--check`: the full run, errors reported as the yargs command reports them. */
export async function quickGenerate(argv: string[], given?: Out): Promise<number | undefined> {
  if (argv.includes('--check')) return undefined;
  const parsed = await parseGenerate(argv);
  if (!parsed) return undefined;
  const out = outFor(parsed.values, given);
  try {
    const [{ resolveTargets }, { runGenerate }] = await Promise.all([
      import('../run/targets.js'),
      import('../run/generate.js'),
    ]);
    const { targets } = await resolveTargets(parsed.flags, process.cwd());
    return await runGenerate(targets, false, out);
  } catch (error) {
    return reportError(out, error);
  }
}

/** `generate --check`: only "up to date" is answered here. */
export async function quickCheck(argv: string[], given?: Out): Promise<number | undefined> {
  if (!argv.includes('--check')) return undefined;
  const parsed = await parseGenerate(argv);
  if (!parsed) return undefined;
  try {
    const [{ isTargetUpToDateFast, upToDateLine }, { resolveTargets }] = await Promise.all([
      import('../run/generate.js'),
      import('../run/targets.js'),
    ]);
    const { targets } = await resolveTargets(parsed.flags, process.cwd());
    const lines: string[] = [];
    for (const target of targets) {
      const started = performance.now();
      if (!(await isTargetUpToDateFast(target))) return undefined;
      lines.push(upToDateLine(target, Math.round(performance.now() - started)));
    }
    const out = outFor(parsed.values, given);
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
  const options: NonNullable<ParseArgsConfig['options']> = {
    ...diffParseArgsOptions(),
    quiet: { type: 'boolean', short: 'q' },
    verbose: { type: 'boolean', short: 'v' },
  };
  let parsed: { values: Values; positionals: string[]; tokens: Token[] };
  try {
    parsed = parseArgs({ args: argv.slice(1), options, strict: true, allowPositionals: true, tokens: true });
  } catch {
    return undefined;
  }
  const { values, positionals } = parsed;
  if (readsDifferently(parsed.tokens, options)) return undefined;
  const flags = diffFlagsFrom((flag) => values[flag]);
  if (positionals.length !== 2 || !flags) return undefined;
  const out = outFor(values, given);
  const { runDiff } = await import('./diff-command.js');
  try {
    return await runDiff({ ...flags, old: positionals[0], new: positionals[1] }, out);
  } catch (error) {
    return reportError(out, error);
  }
}
