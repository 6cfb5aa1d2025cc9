#!/usr/bin/env node
/**
 * The mcp-typegen command line. Parsing and exit codes live here; each command's work lives in its
 * own module and in the pure core (generate, model, diff).
 */
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { ARTIFACTS, type Artifact, type ImportExtension } from '../generate-artifacts.js';
import { EXIT, UsageError, createOut, reportError, type Out, type Verbosity } from './console.js';
import { runGenerate, targetsFromFlags, type GenerateFlags } from './generate-command.js';

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
    .option('spec', { type: 'string', describe: 'A known MCP spec version, e.g. 2025-11-25 (resolved in the schema root)' })
    .option('schema-dir', { type: 'string', describe: 'Schema root for --spec (default: $MCP_SCHEMA_DIR, else ../shared/mcp-schema)' })
    .option('ext', { type: 'string', array: true, describe: 'A vendor extension file (repeatable)' });
}

export async function main(argv: string[], out?: Out): Promise<number> {
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
        schemaOptions(y)
          .option('all', { type: 'boolean', describe: 'Every known spec version, into <out>/<version>/' })
          .option('out', { alias: 'o', type: 'string', describe: 'Output directory (default: generated)' })
          .option('artifacts', { type: 'string', array: true, choices: ARTIFACTS as unknown as string[], describe: 'Artifacts to emit (default: all)' })
          .option('import-extension', { type: 'string', choices: ['.js', '.ts', 'none'], describe: 'Specifier extension between generated files (default .js)' })
          .option('format', { type: 'boolean', default: true, describe: 'Format with prettier (--no-format to skip)' })
          .option('check', { type: 'boolean', describe: 'Write nothing; exit 1 if the output on disk is stale or missing' })
          .example('$0 generate --spec 2025-11-25 --out src/mcp', 'Generate for one spec version')
          .example('$0 generate --schema ./schema.json --ext acme.extension.json', 'Generate from a file, with a vendor extension')
          .example('$0 generate --spec 2025-11-25 --out src/mcp --check', 'In CI: fail when the generated code drifted'),
      run(async (flags: Omit<GenerateFlags, 'importExtension'> & GlobalFlags & { importExtension?: string }) => {
        const cwd = process.cwd();
        const importExtension = flags.importExtension === 'none' ? '' : (flags.importExtension as ImportExtension | undefined);
        const targets = targetsFromFlags({ ...flags, importExtension, artifacts: flags.artifacts as Artifact[] | undefined }, cwd);
        return runGenerate(targets, Boolean(flags.check), outFor(flags));
      }),
    )
    .command(
      'methods',
      'Print the protocol model: every method with its kind, directions, params and result',
      (y) =>
        schemaOptions(y)
          .option('json', { type: 'boolean', describe: 'Stable JSON: an array sorted by method' })
          .example('$0 methods --spec 2026-07-28 --json', 'The model as JSON'),
      run(async (flags: GlobalFlags & { schema?: string; spec?: string; schemaDir?: string; ext?: string[]; json?: boolean }) => {
        if (!flags.schema && !flags.spec) throw new UsageError('no schema given', 'pass --schema <file> or --spec <version>');
        if (flags.schema && flags.spec) throw new UsageError('--schema and --spec cannot be used together');
        const { loadModelFor, methodsJson, methodsTable } = await import('./methods-command.js');
        const { model, loaded, extensions } = await loadModelFor({
          schema: flags.schema,
          spec: flags.spec,
          schemaDir: flags.schemaDir,
          extensions: flags.ext,
        });
        const o = outFor(flags);
        for (const warning of [...loaded.warnings, ...extensions.flatMap((e) => e.warnings)]) o.warn(warning);
        process.stdout.write(flags.json ? methodsJson(model.methods) : methodsTable(model.methods));
        return EXIT.ok;
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
  main(hideBin(process.argv)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`error: ${String(error)}\n`);
      process.exitCode = EXIT.badInput;
    },
  );
}
