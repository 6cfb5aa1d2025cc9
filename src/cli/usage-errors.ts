/**
 * yargs' reports of bad usage, rewritten as one line that says what to do: an unknown command, option or
 * positional gets a "did you mean", a value outside its choices lists them on the same line. yargs runs
 * with the English locale (main.ts), so its messages have a fixed form; one this module does not know
 * passes through, folded onto one line.
 */
import { UsageError } from '../run/console.js';
import { closest, didYouMean } from '../load/suggest.js';

export interface UsageContext {
  /** The raw command line (without node and the script). */
  argv: readonly string[];
  /** Each command, with its subcommands (`schemas` → list, pull). */
  commands: Readonly<Record<string, readonly string[]>>;
  /** The option names (and aliases) the chosen command takes, as yargs keys (`out`, `o`, `schema-dir`). */
  options: readonly string[];
}

const flag = (name: string) => (name.length === 1 ? `-${name}` : `--${name}`);
const SPEC_VERSION = /^\d{4}-\d{2}-\d{2}$/;

/** The positionals of argv, in order (a value after `--opt` is taken as the option's, which is close enough here). */
function positionals(argv: readonly string[]): string[] {
  return argv.filter((a) => !a.startsWith('-'));
}

function helpFor(ctx: UsageContext): string {
  const [command] = positionals(ctx.argv);
  const known = command !== undefined && Object.hasOwn(ctx.commands, command);
  return `see mcp-typegen${known ? ` ${command}` : ''} --help`;
}

function unknownCommand(ctx: UsageContext): UsageError | undefined {
  const [command, sub] = positionals(ctx.argv);
  const names = Object.keys(ctx.commands);
  if (command === undefined) return undefined;
  if (!names.includes(command))
    return new UsageError(
      `unknown command "${command}"${didYouMean(command, names, (s) => `"${s}"`)}`,
      `commands: ${names.join(', ')}`,
    );
  const subs = ctx.commands[command] ?? [];
  if (subs.length > 0 && sub !== undefined && !subs.includes(sub))
    return new UsageError(
      `unknown command "${command} ${sub}"${didYouMean(sub, subs, (s) => `"${command} ${s}"`)}`,
      `${command} commands: ${subs.join(', ')}`,
    );
  return undefined;
}

/** One unknown name yargs reported: an option when the command line spelt it as one, else a stray positional. */
function unknownName(name: string, ctx: UsageContext): UsageError {
  const asOption = ctx.argv.some((a) => a.replace(/^-+/, '').split('=')[0] === name && a.startsWith('-'));
  if (asOption) {
    // A one-letter flag is too short to guess from, and a one-letter alias too short to suggest.
    const longer = ctx.options.filter((o) => o.length > 1);
    // `--format json` where the command takes `--json`: the value is the option meant.
    const index = ctx.argv.findIndex((a) => a.replace(/^-+/, '').split('=')[0] === name && a.startsWith('-'));
    const value = ctx.argv[index]?.split('=')[1] ?? ctx.argv[index + 1];
    const named = value !== undefined && !value.startsWith('-') && longer.includes(value) ? value : undefined;
    const match = named ?? (name.length > 1 ? closest(name, longer) : undefined);
    return new UsageError(
      `unknown option ${flag(name)}${match === undefined ? '' : `: did you mean ${flag(match)}?`}`,
      helpFor(ctx),
    );
  }
  const takes = (option: string) => ctx.options.includes(option);
  if (positionals(ctx.argv)[0] === 'snapshot') {
    const at = ctx.argv.indexOf(name);
    return new UsageError(
      `unexpected argument "${name}": the server's command goes after \`--\``,
      `mcp-typegen snapshot ${ctx.argv.slice(1, at).join(' ')} -- ${ctx.argv.slice(at).join(' ')}`.replace(
        / {2,}/g,
        ' ',
      ),
    );
  }
  const meant =
    SPEC_VERSION.test(name) && takes('spec')
      ? `--spec ${name}`
      : /\.json$/i.test(name) && takes('schema')
        ? `--schema ${name}`
        : undefined;
  return new UsageError(`unexpected argument "${name}"${meant ? `: did you mean ${meant}?` : ''}`, helpFor(ctx));
}

/** `"a", "b"` → ['a', 'b'] (yargs' list of given values or choices). */
function quotedList(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"|([^\s,]+)/g)].map((m) => m[1] ?? m[2] ?? '');
}

function invalidChoice(argument: string, given: string[], choices: string[], ctx: UsageContext): UsageError {
  const value = given[0] ?? '';
  const isOption = ctx.options.includes(argument);
  const name = isOption ? flag(argument) : `<${argument}>`;
  const list = choices.filter((c) => c !== '').join(', ');
  if (isOption && value.includes(',') && value.split(',').every((v) => choices.includes(v.trim())))
    return new UsageError(
      `${name} "${value}": one value per word, not comma-separated`,
      `pass them space-separated (${name} ${value.split(',').join(' ')}) or repeat ${name}`,
    );
  return new UsageError(
    `${name} "${value}" is not one of ${list}${didYouMean(value, choices, (s) => `"${s}"`)}`,
    helpFor(ctx),
  );
}

/** What to do about two options that do not go together, where the choice needs saying. */
const CONFLICT_HINTS: Readonly<Record<string, string>> = {
  'check watch': '--check compares once and exits (CI); --watch regenerates on every change: pass one of them',
};

function conflictError(a: string, b: string, ctx: UsageContext): UsageError {
  return new UsageError(
    `${flag(a)} and ${flag(b)} cannot be used together`,
    CONFLICT_HINTS[`${a} ${b}`] ?? CONFLICT_HINTS[`${b} ${a}`] ?? `pass one of them (${helpFor(ctx)})`,
  );
}

/** The one-line usage error for a yargs failure message. */
export function usageError(message: string, ctx: UsageContext): UsageError {
  const command = unknownCommand(ctx);
  if (command) return command;
  const unknown = /^Unknown (?:arguments?|command): (.*)$/s.exec(message);
  if (unknown) {
    const [first] = (unknown[1] ?? '').split(', ');
    if (first !== undefined) return unknownName(first, ctx);
  }
  const conflict = /^Arguments (\S+) and (\S+) are mutually exclusive$/.exec(message);
  if (conflict) return conflictError(conflict[1] ?? '', conflict[2] ?? '', ctx);
  const choice = /^Invalid values?:\s*Argument: (\S+), Given: (.*), Choices: (.*)$/s.exec(message);
  if (choice) return invalidChoice(choice[1] ?? '', quotedList(choice[2] ?? ''), quotedList(choice[3] ?? ''), ctx);
  return new UsageError(message.replace(/\s*\n\s*/g, ' '), helpFor(ctx));
}
