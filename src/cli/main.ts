#!/usr/bin/env node
/**
 * The mcp-typegen command line. Parsing and exit codes live here; each command's work lives in its
 * own module and in the pure core (generate, model, diff).
 */
import type { Argv } from 'yargs';
import type { RuntimeMode } from '../emit/runtime.js';
import type { Artifact, ImportExtension } from '../generate-artifacts.js';
import { EXIT, UsageError, createOut, reportError, type Out, type Verbosity } from './console.js';
import { CONFIG_NAME } from '../config/load.js';
import { TARGET_OPTIONS } from '../config/options.js';
// The choice lists only: importing diff/index.js would load the whole diff on every command.
import { FAIL_ON, SIDE_FILTERS } from '../diff/types.js';
import { REPORT_FORMATS } from '../diff/render.js';
import type { DiffFlags } from './diff-command.js';
import { runGenerate, type GenerateFlags } from './generate-command.js';
import { resolveTargets, type TargetFlags } from './targets.js';

interface GlobalFlags {
  quiet?: boolean;
  verbose?: boolean;
}

function verbosity(flags: GlobalFlags): Verbosity {
  return flags.quiet ? 'quiet' : flags.verbose ? 'verbose' : 'normal';
}

function schemaOptions<T>(y: Argv<T>) {
  return y
    .option('schema', { type: 'string', describe: 'An MCP JSON Schema file' })
    .option('spec', {
      type: 'string',
      describe: 'A known MCP spec version, e.g. 2025-11-25 (resolved in the schema root)',
    })
    .option('schema-dir', {
      type: 'string',
      describe: 'Schema root for --spec (default: $MCP_SCHEMA_DIR, else ../shared/mcp-schema)',
    })
    .option('ext', { type: 'string', array: true, describe: 'A vendor extension file (repeatable)' });
}

/** yargs options of every per-target option, from the one table (src/config/options.ts). */
export function targetOptions<T>(y: Argv<T>): Argv<T> {
  let out: Argv<T> = y;
  for (const o of TARGET_OPTIONS) {
    const choices =
      'choices' in o ? (o.key === 'importExtension' ? ['.js', '.ts', 'none', ''] : [...o.choices]) : undefined;
    out = out.option(o.flag, {
      type: o.type === 'boolean' ? 'boolean' : 'string',
      ...(o.type === 'string[]' ? { array: true } : {}),
      ...(choices ? { choices } : {}),
      ...(o.key === 'out' ? { alias: 'o' } : {}),
      describe: o.describe,
    }) as Argv<T>;
  }
  return out;
}

/** Flags as yargs parsed them (camel-cased) → the generate flags. */
type RawTargetFlags = {
  spec?: string;
  schema?: string;
  schemaDir?: string;
  out?: string;
  ext?: string[];
  artifacts?: string[];
  importExtension?: string;
  singleFile?: boolean;
  format?: boolean;
  runtime?: string;
};
function targetFlags(flags: RawTargetFlags): GenerateFlags {
  return {
    spec: flags.spec,
    schema: flags.schema,
    schemaDir: flags.schemaDir,
    out: flags.out,
    ext: flags.ext,
    artifacts: flags.artifacts as Artifact[] | undefined,
    importExtension: flags.importExtension === 'none' ? '' : (flags.importExtension as ImportExtension | undefined),
    singleFile: flags.singleFile,
    format: flags.format,
    runtime: flags.runtime as RuntimeMode | undefined,
  };
}

export async function main(argv: string[], out?: Out): Promise<number> {
  // `generate --check` on up-to-date output and a plain `diff` run without loading yargs (quick-check.ts).
  const { quickCheck, quickDiff } = await import('./quick-check.js');
  const quick = (await quickCheck(argv, out)) ?? (await quickDiff(argv, out));
  if (quick !== undefined) return quick;
  const { default: yargs } = await import('yargs');
  let exitCode: number = EXIT.ok;
  let output = out;
  const outFor = (flags: GlobalFlags) => (output ??= createOut(verbosity(flags)));
  const run = (work: (flags: never) => Promise<number>) => async (flags: GlobalFlags) => {
    try {
      exitCode = await work(flags as never);
    } catch (error) {
      exitCode = reportError(outFor(flags), error);
    }
  };

  const parser = yargs(argv)
    .scriptName('mcp-typegen')
    .usage('$0 <command> [options]')
    .option('quiet', { alias: 'q', type: 'boolean', describe: 'Print errors only' })
    .option('verbose', { alias: 'v', type: 'boolean', describe: 'Print every file written' })
    .command(
      'generate',
      'Generate types, method maps, client, server and validators from an MCP schema',
      (y) =>
        targetOptions(y)
          .option('all', { type: 'boolean', describe: 'Every known spec version, into <out>/<version>/' })
          .option('config', {
            alias: 'c',
            type: 'string',
            describe: `A config file (default: ${CONFIG_NAME} found upward from the cwd, unless --schema/--spec/--all is given)`,
          })
          .option('target', {
            alias: 't',
            type: 'string',
            array: true,
            describe: 'Only these config targets (by name; repeatable)',
          })
          .option('check', {
            type: 'boolean',
            describe: 'Write nothing; exit 1 if the output on disk is stale or missing',
          })
          .option('watch', {
            alias: 'w',
            type: 'boolean',
            describe: 'Regenerate when a schema, an extension or the config changes (Ctrl-C to stop)',
          })
          .conflicts('check', 'watch')
          .example('$0 generate', `Every target of ${CONFIG_NAME}`)
          .example('$0 generate --spec 2025-11-25 --out src/mcp', 'Generate for one spec version')
          .example(
            '$0 generate --schema ./schema.json --ext acme.extension.json',
            'Generate from a file, with a vendor extension',
          )
          .example('$0 generate --check', 'In CI: fail when the generated code drifted')
          .example('$0 generate --watch', 'Regenerate on every save'),
      run(
        async (
          flags: GlobalFlags &
            RawTargetFlags & { all?: boolean; config?: string; target?: string[]; check?: boolean; watch?: boolean },
        ) => {
          const cwd = process.cwd();
          const o = outFor(flags);
          const tflags: TargetFlags = {
            ...targetFlags(flags),
            all: flags.all,
            config: flags.config,
            target: flags.target,
          };
          if (flags.watch) {
            const first = await resolveTargets(tflags, cwd);
            const { startWatch } = await import('./watch.js');
            const controller = new AbortController();
            const onSigint = () => controller.abort();
            process.once('SIGINT', onSigint);
            try {
              await startWatch(
                first.configFile ? async () => (await resolveTargets(tflags, cwd)).targets : first.targets,
                {
                  signal: controller.signal,
                  out: o,
                  configFile: first.configFile,
                },
              );
            } finally {
              process.off('SIGINT', onSigint);
            }
            o.info('watch: stopped');
            return EXIT.ok;
          }
          const { targets } = await resolveTargets(tflags, cwd);
          return runGenerate(targets, Boolean(flags.check), o);
        },
      ),
    )
    .command(
      'methods',
      'Print the protocol model: every method with its kind, directions, params and result',
      (y) =>
        schemaOptions(y)
          .option('json', { type: 'boolean', describe: 'Stable JSON: an array sorted by method' })
          .example('$0 methods --spec 2026-07-28 --json', 'The model as JSON'),
      run(
        async (
          flags: GlobalFlags & { schema?: string; spec?: string; schemaDir?: string; ext?: string[]; json?: boolean },
        ) => {
          if (!flags.schema && !flags.spec)
            throw new UsageError('no schema given', 'pass --schema <file> or --spec <version>');
          if (flags.schema && flags.spec) throw new UsageError('--schema and --spec cannot be used together');
          const { loadModelFor, methodsJson, methodsTable } = await import('./methods-command.js');
          const { model, loaded, extensions } = await loadModelFor({
            schema: flags.schema,
            spec: flags.spec,
            schemaDir: flags.schemaDir,
            extensions: flags.ext,
          });
          const o = outFor(flags);
          for (const warning of [
            ...loaded.warnings,
            ...(model.warnings ?? []),
            ...extensions.flatMap((e) => e.warnings),
          ])
            o.warn(warning);
          process.stdout.write(flags.json ? methodsJson(model.methods) : methodsTable(model.methods));
          return EXIT.ok;
        },
      ),
    )
    .command(
      'diff [old] [new]',
      'Compare two MCP schemas at protocol level: what breaks clients, what breaks servers',
      (y) =>
        y
          .positional('old', {
            type: 'string',
            describe: 'The baseline: a schema file, a spec version, or git:<ref>:<path>',
          })
          .positional('new', {
            type: 'string',
            describe: 'The candidate: a schema file, a spec version, or git:<ref>:<path>',
          })
          .option('ext', {
            type: 'string',
            array: true,
            describe: 'A vendor extension file merged into both sides (repeatable)',
          })
          .option('old-ext', {
            type: 'string',
            array: true,
            describe: 'An extension of the old side only: a file or git:<ref>:<path> (repeatable)',
          })
          .option('new-ext', {
            type: 'string',
            array: true,
            describe: 'An extension of the new side only: a file or git:<ref>:<path> (repeatable)',
          })
          .option('schema-dir', {
            type: 'string',
            describe: 'Schema root for spec versions (default: $MCP_SCHEMA_DIR, else ../shared/mcp-schema)',
          })
          .option('format', {
            alias: 'f',
            type: 'string',
            choices: REPORT_FORMATS as unknown as string[],
            default: 'text',
            describe: 'Report format',
          })
          .option('fail-on', {
            type: 'string',
            choices: FAIL_ON as unknown as string[],
            default: 'breaking',
            describe: 'Exit 1 when a change reaches this level',
          })
          .option('side', {
            type: 'string',
            choices: SIDE_FILTERS as unknown as string[],
            default: 'both',
            describe: 'Whose verdicts count: client, server or both',
          })
          .option('ignore', {
            type: 'string',
            describe: 'An ignore file: a JSON array of { rule, location?, reason? }',
          })
          .option('pairing', {
            type: 'string',
            describe: 'A pairing file for requests whose result is not named after them (both sides)',
          })
          .option('rules', { type: 'boolean', describe: 'List every rule with its one-line reason and exit' })
          .option('include-descriptions', { type: 'boolean', describe: 'Also report description-only changes' })
          .example('$0 diff 2025-11-25 2026-07-28', 'What a spec upgrade breaks')
          .example('$0 diff git:main:schema.json schema.json --format github', 'In CI: annotate a PR')
          .example(
            '$0 diff 2025-11-25 2025-11-25 --old-ext git:main:acme.extension.json --new-ext acme.extension.json',
            'What an extension change breaks',
          )
          .example('$0 diff --rules', 'Every rule and why'),
      run(async (flags: GlobalFlags & DiffFlags) => {
        const { runDiff } = await import('./diff-command.js');
        return runDiff(flags, outFor(flags));
      }),
    )
    .command(
      'init',
      `Write a starter ${CONFIG_NAME} and a starter extension file (never overwrites)`,
      (y) =>
        y.option('spec', {
          type: 'string',
          default: '2025-11-25',
          describe: 'The spec version the starter target uses',
        }),
      run(async (flags: GlobalFlags & { spec: string }) => {
        const { runInit } = await import('./init-command.js');
        return runInit(process.cwd(), flags.spec, outFor(flags));
      }),
    )
    .demandCommand(1, 'name a command: generate, methods, diff or init')
    .strict()
    .recommendCommands()
    .completion('completion', 'Print a shell completion script')
    .help()
    .alias('help', 'h')
    .version()
    .epilogue('Exit codes: 0 ok, 1 stale output or breaking changes found, 2 bad input or usage.')
    .exitProcess(false)
    .fail((message, error) => {
      if (error) throw error;
      throw new UsageError(message ?? 'invalid usage', 'see mcp-typegen --help');
    });

  try {
    await parser.parseAsync();
  } catch (error) {
    exitCode = reportError(outFor({}), error);
  }
  return exitCode;
}

// Run when executed as the bin (not when imported by tests).
const invokedAs = process.argv[1] ?? '';
if (/(?:^|[\\/])(?:main\.js|mcp-typegen)$/.test(invokedAs)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`error: ${String(error)}\n`);
      process.exitCode = EXIT.badInput;
    },
  );
}
