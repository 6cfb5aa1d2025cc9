#!/usr/bin/env node
/**
 * The mcp-typegen command line. Parsing and exit codes live here; each command's work lives in its
 * own module and in the pure core (generate, model, diff).
 */
import type { Argv } from 'yargs';
import type { FetchPolicy } from '../load/download.js';
import { toolPackage } from '../load/package-root.js';
import { EXIT, UsageError, createOut, reportError, type Out, type Verbosity } from '../run/console.js';
import type { OptionSpec } from '../config/options.js';
import type { DiffOptionSpec } from './diff-options.js';
import type { DiffFlags } from './diff-command.js';
import type { TargetFlags } from '../run/targets.js';

interface GlobalFlags {
  quiet?: boolean;
  verbose?: boolean;
}

interface FetchFlags {
  offline?: boolean;
  fetchTimeout?: number;
}

function verbosity(flags: GlobalFlags): Verbosity {
  return flags.quiet ? 'quiet' : flags.verbose ? 'verbose' : 'normal';
}

function schemaOptions<T>(y: Argv<T>) {
  return fetchOptions(
    y
      .option('schema', { type: 'string', describe: 'An MCP JSON Schema file, or an https:// URL' })
      .option('schema-sha256', { type: 'string', describe: 'The sha256 the --schema bytes must have' })
      .option('spec', {
        type: 'string',
        describe: 'A known MCP spec version, e.g. 2025-11-25 (schema root, else the user cache, else downloaded)',
      })
      .option('schema-dir', {
        type: 'string',
        describe: 'Schema root for --spec: <dir>/<version>/schema.json (default: $MCP_SCHEMA_DIR, else the cache)',
      })
      .option('ext', { type: 'string', array: true, describe: 'A vendor extension file (repeatable)' }),
  );
}

const fetchOptionSpecs = {
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
  return y.option('offline', fetchOptionSpecs.offline).option('fetch-timeout', fetchOptionSpecs.fetchTimeout);
}

/** yargs options of `diff`, from its table (cli/diff-options.ts). */
function diffYargsOptions<T>(y: Argv<T>, table: readonly DiffOptionSpec[]): Argv<T> {
  let out: Argv<T> = y;
  for (const o of table) {
    out = out.option(o.flag, {
      type: o.type === 'boolean' ? 'boolean' : o.type === 'number' ? 'number' : 'string',
      ...(o.type === 'string[]' ? { array: true } : {}),
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
      ...(choices ? { choices } : {}),
      ...(o.alias ? { alias: o.alias } : {}),
      describe: o.describe,
    }) as Argv<T>;
  }
  return out;
}

export async function main(argv: string[], out?: Out): Promise<number> {
  // `generate --check` on up-to-date output and a plain `diff` run without loading yargs (quick-check.ts).
  const { quickCheck, quickDiff } = await import('./quick-check.js');
  const quick = (await quickCheck(argv, out)) ?? (await quickDiff(argv, out));
  if (quick !== undefined) return quick;
  // Loaded only past the quick paths: a plain diff never reads the generator's modules.
  const [{ default: yargs }, { CONFIG_NAME }, { TARGET_OPTIONS, optionsFromFlags }, { DIFF_OPTIONS }] =
    await Promise.all([
      import('yargs'),
      import('../config/load.js'),
      import('../config/options.js'),
      import('./diff-options.js'),
    ]);
  const { runGenerate } = await import('../run/generate.js');
  const { resolveTargets } = await import('../run/targets.js');
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
        fetchOptions(targetOptions(y, TARGET_OPTIONS as readonly OptionSpec[]))
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
            FetchFlags & { all?: boolean; config?: string; target?: string[]; check?: boolean; watch?: boolean },
        ) => {
          const cwd = process.cwd();
          const o = outFor(flags);
          const tflags: TargetFlags = {
            options: optionsFromFlags((opt) => (flags as Record<string, unknown>)[opt.flag], cwd),
            policy: fetchPolicy(flags),
            all: flags.all,
            config: flags.config,
            target: flags.target,
          };
          if (flags.watch) {
            const first = await resolveTargets(tflags, cwd);
            const { startWatch } = await import('../run/watch.js');
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
          flags: GlobalFlags &
            FetchFlags & {
              schema?: string;
              schemaSha256?: string;
              spec?: string;
              schemaDir?: string;
              ext?: string[];
              json?: boolean;
            },
        ) => {
          if (!flags.schema && !flags.spec)
            throw new UsageError('no schema given', 'pass --schema <file> or --spec <version>');
          if (flags.schema && flags.spec) throw new UsageError('--schema and --spec cannot be used together');
          const { loadModelFor, methodsJson, methodsTable } = await import('./methods-command.js');
          const { model, loaded, extensions } = await loadModelFor({
            schema: flags.schema,
            spec: flags.spec,
            sha256: flags.schemaSha256,
            schemaDir: flags.schemaDir,
            extensions: flags.ext,
            ...fetchPolicy(flags),
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
        diffYargsOptions(
          y
            .positional('old', {
              type: 'string',
              describe: 'The baseline: a schema file, a spec version, or git:<ref>:<path>',
            })
            .positional('new', {
              type: 'string',
              describe: 'The candidate: a schema file, a spec version, or git:<ref>:<path>',
            }),
          DIFF_OPTIONS,
        )
          .option('offline', fetchOptionSpecs.offline)
          .option('fetch-timeout', fetchOptionSpecs.fetchTimeout)
          .example('$0 diff 2025-11-25 2026-07-28', 'What a spec upgrade breaks')
          .example('$0 diff git:main:schema.json schema.json --format github', 'In CI: annotate a PR')
          .example(
            '$0 diff 2025-11-25 2025-11-25 --old-ext git:main:acme.extension.json --new-ext acme.extension.json',
            'What an extension change breaks',
          )
          .example('$0 diff --rules', 'Every rule and why'),
      run(async (flags: GlobalFlags & FetchFlags & DiffFlags) => {
        const { runDiff } = await import('./diff-command.js');
        return runDiff({ ...flags, policy: fetchPolicy(flags) }, outFor(flags));
      }),
    )
    .command(
      'schemas <action>',
      'The MCP spec schemas: list known versions and where each comes from, or pull them into the cache',
      (y) =>
        fetchOptions(
          y
            .positional('action', { type: 'string', choices: ['list', 'pull'], describe: 'list or pull' })
            .option('spec', { type: 'string', array: true, describe: 'pull: these versions (repeatable)' })
            .option('all', { type: 'boolean', describe: 'pull: every known version' })
            .option('json', { type: 'boolean', describe: 'list: stable JSON' })
            .option('schema-dir', {
              type: 'string',
              describe: 'list: the schema root to report (else MCP_SCHEMA_DIR)',
            }),
        )
          .example('$0 schemas pull --all', 'Fill the cache for offline CI (then generate with --offline)')
          .example('$0 schemas list --json', 'Each known version: cached?, source, sha256'),
      run(
        async (
          flags: GlobalFlags &
            FetchFlags & { action: string; spec?: string[]; all?: boolean; json?: boolean; schemaDir?: string },
        ) => {
          const { runSchemasList, runSchemasPull } = await import('./schemas-command.js');
          const o = outFor(flags);
          if (flags.action === 'list') return runSchemasList({ json: flags.json, schemaDir: flags.schemaDir }, o);
          return runSchemasPull({ specs: flags.spec ?? [], all: Boolean(flags.all), policy: fetchPolicy(flags) }, o);
        },
      ),
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
    .demandCommand(1, 'name a command: generate, methods, diff, schemas or init')
    .strict()
    .recommendCommands()
    .completion('completion', 'Print a shell completion script')
    .help()
    .alias('help', 'h')
    // The tool's own version: bare .version() would read the package.json of the user's project.
    .version(toolPackage().version)
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
