#!/usr/bin/env node
/**
 * Installs the tools the test suite needs beside the project's own dependencies, one folder each under
 * tools/ with its own package.json and lock: Node 22 (the MCP conformance runner needs it; the platform
 * matrix runs the runtime's tests on it), Node 24, and TypeScript 6.0 and 7.x for the platform matrix.
 * None of them is a root devDependency because each links a bin (`node`, `tsc`) that would replace the
 * project's own Node 20 or TypeScript 5.9 in every npm script, tests included. Tests call them by path.
 *
 * Run by the test suite's global setup (test/setup/fresh-builds.ts) and by `npm run conformance`; a no-op when
 * every tool is installed at its locked version. Not an npm lifecycle script: the published package has no
 * install-time scripts. Skipped where it does not apply: outside the repo (an installed tarball has no
 * tools/), on `npm pack`, and on platforms the binaries are not built for.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tools = join(root, 'tools');

if (!existsSync(tools)) process.exit(0);
if (process.env.npm_command === 'pack' || process.env.npm_command === 'publish') process.exit(0);
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log('install-tools: the tool binaries are linux-x64 only; the tests that need them will be skipped');
  process.exit(0);
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** `npm ci` in one tool folder, its output passed through; rejects when npm fails. */
const npmCi = (dir) =>
  new Promise((resolve, reject) => {
    const child = spawn('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm ci failed in ${dir} (${code})`))));
  });

const missing = [];
for (const name of readdirSync(tools).sort()) {
  const dir = join(tools, name);
  if (!existsSync(join(dir, 'package.json'))) continue;
  const wanted = readJson(join(dir, 'package.json')).dependencies ?? {};
  // Up to date when every dependency (alias included) is installed at the version the lock pins.
  const locked = readJson(join(dir, 'package-lock.json')).packages ?? {};
  const upToDate = Object.keys(wanted).every((dep) => {
    const installed = join(dir, 'node_modules', dep, 'package.json');
    return existsSync(installed) && readJson(installed).version === locked[`node_modules/${dep}`]?.version;
  });
  if (upToDate) continue;
  console.log(`install-tools: installing ${Object.keys(wanted).join(', ')} into tools/${name}`);
  missing.push(dir);
}
// Side by side: each is mostly a download and the unpacking of one Node binary (14 s one after another, 7 s so).
const results = await Promise.allSettled(missing.map(npmCi));
for (const result of results)
  if (result.status === 'rejected') console.error(`install-tools: ${result.reason.message}`);
if (results.some((result) => result.status === 'rejected')) process.exitCode = 1;
