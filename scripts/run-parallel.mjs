#!/usr/bin/env node
/**
 * `node scripts/run-parallel.mjs <npm script>...`: runs the named npm scripts side by side, as many at once as
 * the machine has cores, longest first (the order given), and prints each one's output whole when it ends, so
 * the log reads as if they ran one after another. Exits 1 if any failed, after all have ended.
 *
 * `npm test` runs the checks this way (typecheck, lint, format check: independent, each mostly one thread).
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const scripts = process.argv.slice(2);
const npm = process.env['npm_execpath'];

function runScript(name) {
  return new Promise((resolve) => {
    const started = Date.now();
    // npm_execpath is the npm that runs us (npm test): the same npm, without looking it up on the PATH.
    const [command, args] = npm ? [process.execPath, [npm, 'run', '-s', name]] : ['npm', ['run', '-s', name]];
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ name, ok: false, output: `${output}${error.message}\n`, ms: 0 }));
    child.on('close', (code) => resolve({ name, ok: code === 0, output, ms: Date.now() - started }));
  });
}

const queue = [...scripts];
let failed = false;
async function worker() {
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const { ok, output, ms } = await runScript(name);
    failed ||= !ok;
    process.stdout.write(`\n> ${name} (${(ms / 1000).toFixed(1)} s): ${ok ? 'ok' : 'FAILED'}\n${output}`);
  }
}
await Promise.all(Array.from({ length: Math.min(availableParallelism(), scripts.length) }, worker));
if (failed) process.exitCode = 1;
