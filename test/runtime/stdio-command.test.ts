/**
 * How the stdio client starts a server on Windows, simulated (no Windows machine is at hand): a `.cmd`/`.bat`
 * shim found through PATH and PATHEXT runs through cmd.exe with its arguments escaped as cross-spawn (the
 * official SDKs' spawner) escapes them, and every argument survives cmd.exe's and the C runtime's parsing
 * intact; a native `.exe` is spawned directly; on POSIX nothing changes.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { escapeArgument, planSpawn, resolveWindowsCommand } from '../../templates/transports/stdio/command.js';

const crossSpawnEscape = createRequire(import.meta.url)('cross-spawn/lib/util/escape.js') as {
  command(command: string): string;
  argument(arg: string, twice?: boolean): string;
};

const files = new Set([
  'C:\\Program Files\\nodejs\\npx.cmd',
  'C:\\Program Files\\nodejs\\node.exe',
  'C:\\work\\node_modules\\.bin\\my-server.cmd',
  'C:\\tools\\run.bat',
]);
const windows = {
  platform: 'win32' as const,
  env: {
    Path: 'C:\\Windows\\system32;C:\\Program Files\\nodejs',
    PATHEXT: '.COM;.EXE;.BAT;.CMD',
    ComSpec: 'C:\\Windows\\system32\\cmd.exe',
  },
  cwd: 'C:\\work',
  // Windows file names are case-insensitive (PATHEXT lists `.CMD`, the file is `npx.cmd`).
  isFile: (path: string) => [...files].some((file) => file.toLowerCase() === path.toLowerCase()),
};
const ARGS = ['-y', '@modelcontextprotocol/server-everything', 'a b&c', 'say "hi"', 'C:\\dir\\', '%PATH%', '!x!', ''];

describe('starting a stdio server on Windows (simulated)', () => {
  it('finds a command in cwd or on PATH with PATHEXT, whatever the case of the variable names', () => {
    const found = (command: string) => resolveWindowsCommand(command, windows)?.toLowerCase();
    expect(found('npx')).toBe('c:\\program files\\nodejs\\npx.cmd');
    expect(found('node')).toBe('c:\\program files\\nodejs\\node.exe');
    expect(found('node_modules\\.bin\\my-server')).toBe('c:\\work\\node_modules\\.bin\\my-server.cmd');
    expect(found('C:\\tools\\run.bat')).toBe('c:\\tools\\run.bat');
    expect(resolveWindowsCommand('nope', windows)).toBeUndefined();
  });

  it('runs a .cmd shim through cmd.exe, each argument escaped as cross-spawn escapes it', () => {
    const line = [crossSpawnEscape.command('npx'), ...ARGS.map((a) => crossSpawnEscape.argument(a, false))].join(' ');
    expect(planSpawn('npx', ARGS, windows)).toEqual({
      command: 'C:\\Windows\\system32\\cmd.exe',
      args: ['/d', '/s', '/c', `"${line}"`],
      windowsVerbatimArguments: true,
    });
  });

  it('escapes an npm bin shim’s arguments twice (the shim parses them again), as cross-spawn does', () => {
    const plan = planSpawn('node_modules\\.bin\\my-server', ['a&b'], windows);
    expect(plan.args[3]).toBe(
      `"${crossSpawnEscape.command('node_modules\\.bin\\my-server')} ${crossSpawnEscape.argument('a&b', true)}"`,
    );
  });

  it('escapes a hostile corpus as cross-spawn does, and each argument reaches the server intact', () => {
    const corpus = [...ARGS, '\\"', '^', '<>|', '(x)', 'a,b;c', '`*?`', 'é ü 日本', '"', '""', 'x\\y'];
    // Runs of several backslashes before a quote: cross-spawn doubles only the last one; all are doubled here.
    const runs = ['a\\\\"b', 'trailing\\\\', '\\\\\\"'];
    for (const twice of [false, true]) {
      expect(corpus.map((arg) => escapeArgument(arg, twice))).toEqual(
        corpus.map((arg) => crossSpawnEscape.argument(arg, twice)),
      );
      for (const arg of [...corpus, ...runs])
        expect(parseArgument(unCaret(escapeArgument(arg, twice), twice))).toBe(arg);
    }
  });

  it('spawns a native .exe directly, with its arguments as given', () => {
    expect(planSpawn('node', ['server.js', 'a b'], windows)).toEqual({
      command: 'node',
      args: ['server.js', 'a b'],
      windowsVerbatimArguments: false,
    });
  });

  it('changes nothing on POSIX', () => {
    expect(planSpawn('npx', ['-y', 'x'], { ...windows, platform: 'linux' })).toEqual({
      command: 'npx',
      args: ['-y', 'x'],
      windowsVerbatimArguments: false,
    });
  });
});

/** What cmd.exe does to a line: each `^x` becomes `x` (twice over for an npm shim, which is parsed again). */
function unCaret(text: string, twice: boolean): string {
  const once = text.replace(/\^(.)/g, '$1');
  return twice ? once.replace(/\^(.)/g, '$1') : once;
}

/** The C runtime's rules for one quoted argument: 2n backslashes + quote → n and a closing quote; 2n+1 → n and a literal quote. */
function parseArgument(text: string): string {
  expect(text.startsWith('"') && text.endsWith('"')).toBe(true);
  let out = '';
  let i = 1;
  while (i < text.length) {
    let backslashes = 0;
    while (text[i] === '\\') {
      backslashes++;
      i++;
    }
    if (text[i] === '"') {
      out += '\\'.repeat(Math.floor(backslashes / 2));
      if (backslashes % 2 === 0) {
        expect(i).toBe(text.length - 1); // the closing quote ends the argument
        return out;
      }
      out += '"';
    } else {
      out += '\\'.repeat(backslashes) + (text[i] ?? '');
    }
    i++;
  }
  throw new Error(`unterminated argument ${text}`);
}
