/// <reference types="node" preserve="true" />
/**
 * How the stdio client starts a server command, per platform. On POSIX a command is spawned as given. On
 * Windows, `npx`, `pnpm`, `uvx` and every package bin are `.cmd`/`.bat` shims, which only cmd.exe can run:
 * Node refuses to spawn them without a shell (CVE-2024-27980), and `shell: true` would pass the arguments
 * to cmd.exe unescaped. So the command is looked up on PATH with PATHEXT, as cmd.exe would, and a shim is
 * run through `cmd.exe /d /s /c "…"` with every metacharacter escaped — the rules of cross-spawn, which both
 * official SDKs use; the runtime has no dependencies, so they are kept here.
 *
 * Not covered: a script without an extension that relies on a shebang (Windows cannot run it either way).
 */
import { statSync } from 'node:fs';
import { win32 } from 'node:path';

export interface SpawnPlan {
  command: string;
  args: string[];
  /** Set for cmd.exe: the arguments are already quoted and escaped for it. */
  windowsVerbatimArguments: boolean;
}

export interface SpawnEnvironment {
  platform: NodeJS.Platform;
  /** The environment the child gets (its PATH, PATHEXT and ComSpec are the ones that count). */
  env: NodeJS.ProcessEnv;
  cwd?: string | undefined;
  /** Whether a path names a file; the real file system unless a test simulates one. */
  isFile?: (path: string) => boolean;
}

/** cmd.exe's metacharacters: each is escaped with `^`. */
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;
/** Executables Windows starts itself; anything else (a .cmd or .bat shim) needs cmd.exe. */
const NATIVE = /\.(?:com|exe)$/i;
/** npm's bin shims re-parse their arguments once more: their metacharacters are escaped twice. */
const NPM_SHIM = /node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i;

export function planSpawn(command: string, args: readonly string[], environment: SpawnEnvironment): SpawnPlan {
  if (environment.platform !== 'win32') return { command, args: [...args], windowsVerbatimArguments: false };
  const resolved = resolveWindowsCommand(command, environment);
  if (resolved !== undefined && NATIVE.test(resolved)) {
    return { command, args: [...args], windowsVerbatimArguments: false };
  }
  // A shim, or a command cmd.exe may still know (a built-in such as `dir`): run it through cmd.exe.
  const twice = resolved !== undefined && NPM_SHIM.test(resolved);
  const line = [escapeCommand(win32.normalize(command)), ...args.map((arg) => escapeArgument(arg, twice))].join(' ');
  return {
    command: envValue(environment.env, 'ComSpec') ?? 'cmd.exe',
    args: ['/d', '/s', '/c', `"${line}"`],
    windowsVerbatimArguments: true,
  };
}

/** The file cmd.exe would run for a command: the command with a PATHEXT extension, in cwd or on PATH. */
export function resolveWindowsCommand(command: string, environment: SpawnEnvironment): string | undefined {
  const isFile = environment.isFile ?? defaultIsFile;
  const extensions = (envValue(environment.env, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean);
  const hasExtension = extensions.some((ext) => command.toLowerCase().endsWith(ext.toLowerCase()));
  const candidates = (base: string) => [...(hasExtension ? [base] : []), ...extensions.map((ext) => base + ext)];
  const cwd = environment.cwd ?? '';
  const hasDirectory = /[\\/]/.test(command);
  const directories = hasDirectory
    ? [cwd]
    : [cwd, ...(envValue(environment.env, 'PATH') ?? '').split(';').filter(Boolean)];
  for (const directory of directories) {
    for (const candidate of candidates(win32.resolve(directory || '.', command))) {
      if (isFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/** A Windows environment variable, whatever its case (`Path`, `PATH`). */
function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : env[key];
}

function escapeCommand(command: string): string {
  return command.replace(CMD_META, '^$1');
}

/**
 * Quotes an argument for the C runtime's parser, then escapes it for cmd.exe (https://qntm.org/cmd): a run of
 * backslashes before a quote, or before the closing quote, is doubled and the quote escaped; other
 * backslashes stay as they are. (cross-spawn doubles only the last backslash of such a run; one loop, no
 * backtracking, does them all.)
 */
export function escapeArgument(arg: string, twice: boolean): string {
  let quoted = '';
  let backslashes = 0;
  for (const char of arg) {
    if (char === '\\') {
      backslashes++;
      continue;
    }
    quoted += char === '"' ? `${'\\'.repeat(backslashes * 2 + 1)}"` : `${'\\'.repeat(backslashes)}${char}`;
    backslashes = 0;
  }
  quoted = `"${quoted}${'\\'.repeat(backslashes * 2)}"`.replace(CMD_META, '^$1');
  return twice ? quoted.replace(CMD_META, '^$1') : quoted;
}

function defaultIsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
