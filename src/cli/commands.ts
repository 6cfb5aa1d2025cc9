/**
 * The commands of the command line, one yargs module each. The work of each lives in its own module
 * (run/, *-command.ts); these only declare flags and hand them over.
 */
import type { Argv, CommandModule } from 'yargs';
import { EXIT, UsageError, type Out } from '../run/console.js';
import type { TargetFlags } from '../run/targets.js';
import type { Target } from '../run/target.js';
import type { OptionSpec } from '../config/options.js';
import type { DiffOptionSpec } from './diff-options.js';
import type { DiffFlags } from './diff-command.js';
import { environmentEpilogue } from './environment.js';
import {
  diffYargsOptions,
  fetchOptionSpecs,
  fetchOptions,
  fetchPolicy,
  pathFlag,
  schemaOptions,
  single,
  targetOptions,
  type FetchFlags,
  type GlobalFlags,
  verboseOption,
} from './options.js';

/** What every command needs from main(): the console for its flags, and the exit code it returns. */
export interface CliContext {
  outFor(flags: GlobalFlags): Out;
  /** Wraps a command's work: its return value (or the error it throws) becomes the exit code. */
  run<F>(work: (flags: F) => Promise<number>): (flags: F) => Promise<void>;
  configName: string;
  /** The command line runs as the bin in its own process (not called by a program or a test). */
  bin: boolean;
}

export { snapshotCommand } from './snapshot-command.js';

type GenerateCliFlags = GlobalFlags &
  FetchFlags & { all?: boolean; config?: string; target?: string[]; check?: boolean; watch?: boolean };

function generateBuilder<T>(y: Argv<T>, table: readonly OptionSpec[], configName: string) {
  return verboseOption(fetchOptions(targetOptions(y, table)), 'Print every file written')
    .option('all', { type: 'boolean', describe: 'Every known spec version, into <out>/<version>/' })
    .option('config', {
      alias: 'c',
      type: 'string',
      coerce: pathFlag('config'),
      describe: `A config file (default: ${configName} found upward from the cwd, unless --schema/--spec/--all is given)`,
    })
    .option('target', {
      alias: 't',
      type: 'string',
      array: true,
      describe: 'Only these config targets (by name; repeatable)',
    })
    .option('check', { type: 'boolean', describe: 'Write nothing; exit 1 if the output on disk is stale or missing' })
    .option('watch', {
      alias: 'w',
      type: 'boolean',
      describe: 'Regenerate when a schema, an extension or the config changes (Ctrl-C to stop)',
    })
    .conflicts('check', 'watch')
    .example('$0 generate', `Every target of ${configName}`)
    .example('$0 generate --spec 2025-11-25 --out src/mcp', 'Generate for one spec version')
    .example(
      '$0 generate --schema ./schema.json --ext acme.extension.json',
      'Generate from a file, with a vendor extension',
    )
    .example('$0 generate --check', 'In CI: fail when the generated code drifted')
    .example('$0 generate --watch', 'Regenerate on every save')
    .epilogue(environmentEpilogue('generate'));
}

/** The bin's compiler setting for a one-off run, from the size of each target's inputs (v8-tuning.ts). */
async function tuneCompilerForTargets(targets: readonly Target[]): Promise<void> {
  const [{ targetInputs }, { tuneCompilerForRun }] = await Promise.all([
    import('../inputs.js'),
    import('./v8-tuning.js'),
  ]);
  const files = await Promise.all(
    targets.map(async (t) => (await targetInputs({ ...t.options, outDir: t.outDir })).files),
  );
  tuneCompilerForRun(files);
}

/** `generate --watch`: regenerate until Ctrl-C. */
async function watchTargets(tflags: TargetFlags, cwd: string, out: Out): Promise<number> {
  const { resolveTargets } = await import('../run/targets.js');
  const { startWatch } = await import('../run/watch.js');
  (await import('./v8-tuning.js')).letYoungGenerationGrow();
  const first = await resolveTargets(tflags, cwd);
  const { defaultOutNotice } = await import('../run/generate.js');
  const notice = defaultOutNotice(tflags, first.configFile);
  if (notice) out.info(notice);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const targets = first.configFile ? async () => (await resolveTargets(tflags, cwd)).targets : first.targets;
    await startWatch(targets, { signal: controller.signal, out, configFile: first.configFile });
  } finally {
    process.off('SIGINT', onSigint);
  }
  out.info('watch: stopped');
  return EXIT.ok;
}

export function generateCommand(
  ctx: CliContext,
  table: readonly OptionSpec[],
): CommandModule<object, GenerateCliFlags> {
  return {
    command: 'generate',
    describe: 'Generate types, method maps, client, server and validators from an MCP schema',
    builder: (y) => generateBuilder(y, table, ctx.configName) as unknown as Argv<GenerateCliFlags>,
    handler: ctx.run(async (flags: GenerateCliFlags) => {
      const cwd = process.cwd();
      const out = ctx.outFor(flags);
      const { optionsFromFlags } = await import('../config/options.js');
      const tflags: TargetFlags = {
        options: optionsFromFlags((opt) => (flags as Record<string, unknown>)[opt.flag], cwd),
        policy: fetchPolicy(flags),
        all: flags.all,
        config: flags.config,
        target: flags.target,
      };
      if (flags.watch) return watchTargets(tflags, cwd, out);
      const { resolveTargets } = await import('../run/targets.js');
      const { runGenerate, defaultOutNotice } = await import('../run/generate.js');
      const { targets, configFile } = await resolveTargets(tflags, cwd);
      // --check mostly answers from the inputs' hash and generates nothing: left as it is.
      if (ctx.bin && !flags.check) await tuneCompilerForTargets(targets);
      const notice = defaultOutNotice({ ...tflags, check: flags.check }, configFile);
      return runGenerate(targets, Boolean(flags.check), out, notice);
    }),
  };
}

type MethodsCliFlags = GlobalFlags &
  FetchFlags & {
    schema?: string;
    schemaSha256?: string;
    spec?: string;
    schemaDir?: string;
    ext?: string[];
    pairing?: string;
    json?: boolean;
  };

export function methodsCommand(ctx: CliContext): CommandModule<object, MethodsCliFlags> {
  return {
    command: 'methods',
    describe: 'Print the protocol model: every method with its kind, directions, params and result',
    builder: (y) =>
      schemaOptions(y)
        .option('pairing', {
          type: 'string',
          coerce: pathFlag('pairing'),
          describe: 'A pairing file for requests whose result is not named after them (as generate --pairing)',
        })
        .option('json', { type: 'boolean', describe: 'Stable JSON: an array sorted by method' })
        .example('$0 methods --spec 2026-07-28 --json', 'The model as JSON')
        .epilogue(environmentEpilogue('methods')) as unknown as Argv<MethodsCliFlags>,
    handler: ctx.run(async (flags: MethodsCliFlags) => {
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
        pairing: flags.pairing,
        ...fetchPolicy(flags),
      });
      const out = ctx.outFor(flags);
      for (const warning of [...loaded.warnings, ...(model.warnings ?? []), ...extensions.flatMap((e) => e.warnings)])
        out.warn(warning);
      process.stdout.write(flags.json ? methodsJson(model.methods) : methodsTable(model.methods));
      return EXIT.ok;
    }),
  };
}

type DiffCliFlags = GlobalFlags & FetchFlags & DiffFlags;

export function diffCommand(ctx: CliContext, table: readonly DiffOptionSpec[]): CommandModule<object, DiffCliFlags> {
  return {
    command: 'diff [old] [new]',
    describe:
      'Compare two MCP schemas (or two server snapshots) at protocol level: what breaks clients, what breaks servers',
    builder: (y) =>
      diffYargsOptions(
        y
          .positional('old', {
            type: 'string',
            describe: 'The baseline: a schema file, a spec version, git:<ref>:<path>, or a snapshot file',
          })
          .positional('new', {
            type: 'string',
            describe: 'The candidate: a schema file, a spec version, git:<ref>:<path>, or a snapshot file',
          }),
        table,
      )
        .option('offline', fetchOptionSpecs.offline)
        .option('fetch-timeout', fetchOptionSpecs.fetchTimeout)
        .option('verbose', {
          alias: 'v',
          type: 'boolean',
          describe: "Also print the schemas' and extensions' warnings",
        })
        .example('$0 diff 2025-11-25 2026-07-28', 'What a spec upgrade breaks')
        .example('$0 diff git:main:schema.json schema.json --format github', 'In CI: annotate a PR')
        .example(
          '$0 diff 2025-11-25 2025-11-25 --old-ext git:main:acme.extension.json --new-ext acme.extension.json',
          'What an extension change breaks',
        )
        .example('$0 diff --rules', 'Every rule and why')
        .epilogue(environmentEpilogue('diff')) as unknown as Argv<DiffCliFlags>,
    handler: ctx.run(async (flags: DiffCliFlags) => {
      const { runDiff } = await import('./diff-command.js');
      // The bin's compiler setting for the run, from the size of the two sides (v8-tuning.ts).
      const tune = ctx.bin ? (await import('./v8-tuning.js')).tuneCompilerForDiff : undefined;
      return runDiff({ ...flags, policy: fetchPolicy(flags) }, ctx.outFor(flags), undefined, tune);
    }),
  };
}

type SchemasListFlags = GlobalFlags & { json?: boolean; schemaDir?: string };
type SchemasPullFlags = GlobalFlags & FetchFlags & { spec?: string[]; all?: boolean };

function schemasListCommand(ctx: CliContext): CommandModule<object, SchemasListFlags> {
  return {
    command: 'list',
    describe: 'Each known spec version: where it comes from, or would be downloaded from',
    builder: (y) =>
      y
        .option('json', { type: 'boolean', describe: 'Stable JSON' })
        .option('schema-dir', {
          type: 'string',
          coerce: pathFlag('schema-dir'),
          describe: 'The schema root to report (default: $MCP_SCHEMA_DIR)',
        })
        .example('$0 schemas list --json', 'Each known version: cached?, source, sha256')
        .epilogue(environmentEpilogue('schemas list')) as unknown as Argv<SchemasListFlags>,
    handler: ctx.run(async (flags: SchemasListFlags) => {
      const { runSchemasList } = await import('./schemas-command.js');
      return runSchemasList({ json: flags.json, schemaDir: flags.schemaDir }, ctx.outFor(flags));
    }),
  };
}

function schemasPullCommand(ctx: CliContext): CommandModule<object, SchemasPullFlags> {
  return {
    command: 'pull',
    describe: 'Download spec versions into the user cache, verified (default: every known version)',
    builder: (y) =>
      fetchOptions(
        y
          .option('spec', { type: 'string', array: true, describe: 'These versions (repeatable)' })
          .option('all', { type: 'boolean', describe: 'Every known version' }),
      )
        .example('$0 schemas pull --all', 'Fill the cache for offline CI (then generate with --offline)')
        .epilogue(environmentEpilogue('schemas pull')) as unknown as Argv<SchemasPullFlags>,
    handler: ctx.run(async (flags: SchemasPullFlags) => {
      const { runSchemasPull } = await import('./schemas-command.js');
      const out = ctx.outFor(flags);
      return runSchemasPull({ specs: flags.spec ?? [], all: Boolean(flags.all), policy: fetchPolicy(flags) }, out);
    }),
  };
}

export function schemasCommand(ctx: CliContext): CommandModule<object, GlobalFlags> {
  return {
    command: 'schemas',
    describe: 'The MCP spec schemas: list known versions and where each comes from, or pull them into the cache',
    builder: (y) =>
      y
        .command(schemasListCommand(ctx))
        .command(schemasPullCommand(ctx))
        .demandCommand(1, 'name a schemas command: list or pull') as unknown as Argv<GlobalFlags>,
    handler: () => undefined,
  };
}

type InitCliFlags = GlobalFlags & { spec: string };

export function initCommand(ctx: CliContext): CommandModule<object, InitCliFlags> {
  return {
    command: 'init',
    describe: `Write a starter ${ctx.configName} and a starter extension file (never overwrites)`,
    builder: (y) =>
      y
        .option('spec', {
          type: 'string',
          default: '2025-11-25',
          coerce: single('spec'),
          describe: 'The spec version the starter target uses',
        })
        .epilogue(environmentEpilogue('init')) as unknown as Argv<InitCliFlags>,
    handler: ctx.run(async (flags: InitCliFlags) => {
      const { runInit } = await import('./init-command.js');
      return runInit(process.cwd(), flags.spec, ctx.outFor(flags));
    }),
  };
}
