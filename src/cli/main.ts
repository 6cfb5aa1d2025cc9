#!/usr/bin/env node
/**
 * The mcp-typegen command line: yargs, the one argument parser, with the commands of commands.ts (each
 * command's options are built only when it is chosen). Exit codes are decided here; each command's work
 * lives in its own module and in the pure core.
 */
import { toolPackage } from '../load/package-root.js';
import { EXIT, createOut, reportError, type Out } from '../run/console.js';
import type { OptionSpec } from '../config/options.js';
import type { CliContext } from './commands.js';
import { verbosity, type GlobalFlags } from './options.js';
import { enableCompileCache } from './compile-cache.js';
import { keepYoungGenerationSmall } from './v8-tuning.js';
import { usageError } from './usage-errors.js';
import { EXIT_CODES } from './environment.js';
import { CONFIG_NAME } from '../config/name.js';

/** The commands, with their subcommands: what an unknown command is compared with (keep in step with the .command() calls below). */
const COMMANDS = {
  generate: [],
  methods: [],
  diff: [],
  schemas: ['list', 'pull'],
  init: [],
  snapshot: [],
  completion: [],
} as const;

/**
 * The option names (and aliases) yargs knows at the time of a failure: the chosen command's. yargs'
 * public getOptions() is missing from @types/yargs; without it the messages only lose their "did you mean".
 */
function optionNames(parser: object): string[] {
  const { getOptions } = parser as { getOptions?: () => { key?: Record<string, unknown> } };
  const keys = typeof getOptions === 'function' ? getOptions.call(parser).key : undefined;
  return Object.keys(keys ?? {}).filter((k) => !/[A-Z]/.test(k));
}

/**
 * yargs lays out the chosen command's whole help text as soon as it has started the command's handler,
 * and keeps it for a handler that asks to show help. Ours never do; the layout (cliui measuring every word
 * with Unicode segmentation) cost `diff` about a tenth of its CPU. `--help` and usage errors lay it out
 * when they print it, as before. Reached through yargs' internal methods (pinned in package.json); a yargs
 * without them keeps its cache.
 */
function skipHelpCache(parser: object): void {
  type Usage = { cacheHelpMessage?: () => void };
  const internal = (parser as { getInternalMethods?: () => { getUsageInstance?: () => Usage } }).getInternalMethods;
  const usage = typeof internal === 'function' ? internal.call(parser).getUsageInstance?.() : undefined;
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}

/** `bin`: running as the bin, the process its own (the V8 settings of v8-tuning.ts may be applied). */
/**
 * generate's option table (and the generator modules it names) is read only by generate's builder: a run
 * whose first word is another command never builds it. Anything else (generate, no command, a word that is
 * no command) loads it, as yargs may then run generate's builder.
 */
function mayRunGenerate(argv: readonly string[]): boolean {
  const named = argv.find((arg) => !arg.startsWith('-'));
  return named === undefined || named === 'generate' || !Object.hasOwn(COMMANDS, named);
}

export async function main(argv: string[], out?: Out, { bin = false }: { bin?: boolean } = {}): Promise<number> {
  const [{ default: yargs }, targetOptions, { DIFF_OPTIONS }, commands] = await Promise.all([
    import('yargs'),
    mayRunGenerate(argv) ? import('../config/options.js').then((m) => m.TARGET_OPTIONS) : [],
    import('./diff-options.js'),
    import('./commands.js'),
  ]);
  let exitCode: number = EXIT.ok;
  let output = out;
  const ctx: CliContext = {
    configName: CONFIG_NAME,
    bin,
    outFor: (flags: GlobalFlags) => (output ??= createOut(verbosity(flags))),
    run: (work) => async (flags) => {
      try {
        exitCode = await work(flags);
      } catch (error) {
        exitCode = reportError(ctx.outFor(flags as GlobalFlags), error);
      }
    },
  };
  const parser = yargs(argv)
    .scriptName('mcp-typegen')
    // English messages whatever LANG says: usage-errors.ts rewrites them.
    .locale('en')
    .usage('$0 <command> [options]')
    .option('quiet', { alias: 'q', type: 'boolean', describe: 'Print errors only' })
    .command(commands.generateCommand(ctx, targetOptions as readonly OptionSpec[]))
    .command(commands.methodsCommand(ctx))
    .command(commands.diffCommand(ctx, DIFF_OPTIONS))
    .command(commands.schemasCommand(ctx))
    .command(commands.initCommand(ctx))
    .command(commands.snapshotCommand(ctx))
    .demandCommand(1, 'name a command: generate, methods, diff, schemas, init or snapshot')
    .strict()
    .recommendCommands()
    .completion('completion', 'Print a shell completion script')
    .help()
    .alias('help', 'h')
    // The tool's own version: bare .version() would read the package.json of the user's project.
    .version(toolPackage().version)
    .epilogue(EXIT_CODES)
    .exitProcess(false)
    .fail((message, error) => {
      // A YError is yargs' own report of bad usage (a coerce refusal arrives as one too); anything else is ours.
      if (error && error.name !== 'YError') throw error;
      // The options yargs knows at this point are the chosen command's.
      const options = optionNames(parser);
      throw usageError(message ?? error?.message ?? 'invalid usage', { argv, commands: COMMANDS, options });
    });
  skipHelpCache(parser);
  try {
    await parser.parseAsync();
  } catch (error) {
    exitCode = reportError(ctx.outFor({}), error);
  }
  return exitCode;
}

// Run when executed as the bin (not when imported by tests).
const invokedAs = process.argv[1] ?? '';
if (/(?:^|[\\/])(?:main\.js|mcp-typegen)$/.test(invokedAs)) {
  // Before the first dynamic import: every module loaded after this is compiled once per machine.
  enableCompileCache();
  keepYoungGenerationSmall();
  main(process.argv.slice(2), undefined, { bin: true }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`error: ${String(error)}\n`);
      process.exitCode = EXIT.badInput;
    },
  );
}
