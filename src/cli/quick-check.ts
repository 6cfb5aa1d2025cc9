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
import { TARGET_OPTIONS } from '../config/options.js';
import type { Artifact, ImportExtension } from '../generate-artifacts.js';
import { FAIL_ON, SIDE_FILTERS, type FailOn, type SideFilter } from '../diff/types.js';
import { REPORT_FORMATS, type ReportFormat } from '../diff/render.js';
import { createOut, EXIT, reportError, type Out } from './console.js';
import { isTargetUpToDateFast, upToDateLine } from './generate-command.js';
import { resolveTargets } from './targets.js';
import type { RuntimeMode } from '../emit/runtime.js';

const OPTIONS: ParseArgsConfig['options'] = {
  all: { type: 'boolean' },
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
        ...(o.key === 'out' ? { short: 'o' } : {}),
      },
    ]),
  ),
};

export async function quickCheck(argv: string[], given?: Out): Promise<number | undefined> {
  if (
    argv[0] !== 'generate' ||
    !argv.includes('--check') ||
    argv.some((a) => a.startsWith('--no-') || a === '--watch' || a === '-w')
  )
    return undefined;
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({ args: argv.slice(1), options: OPTIONS, strict: true, allowPositionals: false }));
  } catch {
    return undefined;
  }
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const list = (k: string) => (Array.isArray(values[k]) ? (values[k] as string[]) : undefined);
  const importExtension = str('import-extension');
  try {
    const cwd = process.cwd();
    const { targets } = await resolveTargets(
      {
        spec: str('spec'),
        schema: str('schema'),
        schemaDir: str('schema-dir'),
        out: str('out'),
        ext: list('ext'),
        pairing: str('pairing'),
        artifacts: list('artifacts') as Artifact[] | undefined,
        importExtension: importExtension === 'none' ? '' : (importExtension as ImportExtension | undefined),
        singleFile: values['single-file'] === true ? true : undefined,
        runtime: str('runtime') as RuntimeMode | undefined,
        all: values.all === true ? true : undefined,
        config: str('config'),
        target: list('target'),
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

const DIFF_OPTIONS: ParseArgsConfig['options'] = {
  ext: { type: 'string', multiple: true },
  'old-ext': { type: 'string', multiple: true },
  'new-ext': { type: 'string', multiple: true },
  'schema-dir': { type: 'string' },
  format: { type: 'string', short: 'f' },
  'fail-on': { type: 'string' },
  side: { type: 'string' },
  ignore: { type: 'string' },
  pairing: { type: 'string' },
  'include-descriptions': { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  verbose: { type: 'boolean', short: 'v' },
};

/**
 * `diff <old> <new> [options]`: the same runDiff the full command line calls. Only a plain, valid
 * invocation is taken here; anything else (`--rules`, help, an unknown option or value, a missing side)
 * returns undefined so yargs parses and reports it.
 */
export async function quickDiff(argv: string[], given?: Out): Promise<number | undefined> {
  if (argv[0] !== 'diff') return undefined;
  let parsed: { values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv.slice(1), options: DIFF_OPTIONS, strict: true, allowPositionals: true });
  } catch {
    return undefined;
  }
  const { values, positionals } = parsed;
  const format = (values.format ?? 'text') as string;
  const failOn = (values['fail-on'] ?? 'breaking') as string;
  const side = (values.side ?? 'both') as string;
  if (
    positionals.length !== 2 ||
    !REPORT_FORMATS.includes(format as ReportFormat) ||
    !FAIL_ON.includes(failOn as FailOn) ||
    !SIDE_FILTERS.includes(side as SideFilter)
  ) {
    return undefined;
  }
  const out = given ?? createOut(values.quiet ? 'quiet' : values.verbose ? 'verbose' : 'normal');
  const { runDiff } = await import('./diff-command.js');
  try {
    return await runDiff(
      {
        old: positionals[0],
        new: positionals[1],
        ext: values.ext as string[] | undefined,
        oldExt: values['old-ext'] as string[] | undefined,
        newExt: values['new-ext'] as string[] | undefined,
        schemaDir: values['schema-dir'] as string | undefined,
        format: format as ReportFormat,
        failOn: failOn as FailOn,
        side: side as SideFilter,
        ignore: values.ignore as string | undefined,
        pairing: values.pairing as string | undefined,
        includeDescriptions: values['include-descriptions'] === true ? true : undefined,
      },
      out,
    );
  } catch (error) {
    return reportError(out, error);
  }
}
