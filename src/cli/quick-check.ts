/**
 * `generate --check` when nothing changed, answered before yargs is even loaded: CI runs it on every
 * build, and most of its time was Node and yargs start-up. It parses the same options (from the one
 * option table) with node:util, and answers only "up to date" — when every target's manifest hashes
 * match. Anything else (stale output, an error, an option it does not know) returns undefined and the
 * full command line handles it, so every other outcome has one implementation.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { TARGET_OPTIONS } from '../config/options.js';
import type { Artifact, ImportExtension } from '../generate-artifacts.js';
import { createOut, EXIT, type Out } from './console.js';
import { isTargetUpToDateFast, upToDateLine } from './generate-command.js';
import { resolveTargets } from './targets.js';

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
      { type: o.type === 'boolean' ? 'boolean' : 'string', ...(o.type === 'string[]' ? { multiple: true } : {}), ...(o.key === 'out' ? { short: 'o' } : {}) },
    ]),
  ),
};

export async function quickCheck(argv: string[], given?: Out): Promise<number | undefined> {
  if (argv[0] !== 'generate' || !argv.includes('--check') || argv.some((a) => a.startsWith('--no-') || a === '--watch' || a === '-w')) return undefined;
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
        artifacts: list('artifacts') as Artifact[] | undefined,
        importExtension: importExtension === 'none' ? '' : (importExtension as ImportExtension | undefined),
        singleFile: values['single-file'] === true ? true : undefined,
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
