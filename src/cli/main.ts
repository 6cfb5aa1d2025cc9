#!/usr/bin/env node
/**
 * The mcp-typegen command line: the quick paths, then yargs with the commands of commands.ts. Exit codes
 * are decided here; each command's work lives in its own module and in the pure core.
 */
import { toolPackage } from '../load/package-root.js';
import { EXIT, UsageError, createOut, reportError, type Out } from '../run/console.js';
import type { OptionSpec } from '../config/options.js';
import type { CliContext } from './commands.js';
import { verbosity, type GlobalFlags } from './options.js';

export async function main(argv: string[], out?: Out): Promise<number> {
  // A plain `generate`, `generate --check` on up-to-date output and a plain `diff` run without loading yargs
  // (quick-check.ts).
  const { quickCheck, quickDiff, quickGenerate } = await import('./quick-check.js');
  const quick = (await quickGenerate(argv, out)) ?? (await quickCheck(argv, out)) ?? (await quickDiff(argv, out));
  if (quick !== undefined) return quick;
  // Loaded only past the quick paths: a plain diff never reads the generator's modules.
  const [{ default: yargs }, { CONFIG_NAME }, { TARGET_OPTIONS }, { DIFF_OPTIONS }, commands] = await Promise.all([
    import('yargs'),
    import('../config/load.js'),
    import('../config/options.js'),
    import('./diff-options.js'),
    import('./commands.js'),
  ]);
  let exitCode: number = EXIT.ok;
  let output = out;
  const ctx: CliContext = {
    configName: CONFIG_NAME,
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
    .usage('$0 <command> [options]')
    .option('quiet', { alias: 'q', type: 'boolean', describe: 'Print errors only' })
    .option('verbose', { alias: 'v', type: 'boolean', describe: 'Print every file written' })
    .command(commands.generateCommand(ctx, TARGET_OPTIONS as readonly OptionSpec[]))
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
    .epilogue('Exit codes: 0 ok, 1 stale output or breaking changes found, 2 bad input or usage.')
    .exitProcess(false)
    .fail((message, error) => {
      // A YError is yargs' own report of bad usage (a coerce refusal arrives as one too); anything else is ours.
      if (error && error.name !== 'YError') throw error;
      throw new UsageError(message ?? error?.message ?? 'invalid usage', 'see mcp-typegen --help');
    });
  skipHelpCache(parser);
  try {
    await parser.parseAsync();
  } catch (error) {
    exitCode = reportError(ctx.outFor({}), error);
  }
  return exitCode;
}

/**
 * yargs renders a command's whole help text as soon as the command runs (usage.cacheHelpMessage), in case the
 * program calls showHelp() later. This CLI never does (a failure prints one line and a hint), and rendering
 * generate's forty-odd options costs ~50 ms of every run, so that rendering is skipped. Guarded: should
 * yargs' internals change, nothing is patched and the help is rendered as before.
 */
function skipHelpCache(parser: object): void {
  type Usage = { cacheHelpMessage?: unknown };
  const internal = (parser as { getInternalMethods?: () => { getUsageInstance?: () => Usage } }).getInternalMethods;
  const usage = typeof internal === 'function' ? internal.call(parser).getUsageInstance?.() : undefined;
  if (usage !== undefined && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
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
