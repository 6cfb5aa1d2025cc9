// Watch mode as a user runs it: the published bin (`mcp-typegen generate --watch`, dist/cli/main.js) in its own
// process on `mcp-typegen init`'s starter project (2025-11-25 + the example extension). After the first run,
// each edit of the extension file is measured from the write to the bin's "waiting for changes" line: the bin's
// CPU time (user + sys, read from /proc/<pid>/stat, so nothing in the bin is instrumented) and the wall time
// (which includes the 100 ms debounce, costing no CPU). Linux only (/proc).
// Usage: node watch-edit.mjs <dir> <edits>. Prints JSON: { cpuMs: number[], wallMs: number[], rssMb }.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'dist', 'cli', 'main.js');
const [dir, editsArg] = process.argv.slice(2);
const edits = Number(editsArg ?? 5);
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

execFileSync(process.execPath, [BIN, 'init', '-q'], { cwd: dir });
const extFile = join(dir, 'mcp.extension.json');
const child = spawn(process.execPath, [BIN, 'generate', '--watch'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });

/** The bin's CPU so far (utime + stime), and its peak RSS, from /proc. */
function usage() {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return {
    cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
    rssMb: Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024,
  };
}

// Each finished run prints "watch: done in … waiting for changes".
let waiting;
let buffered = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (text) => {
  buffered += text;
  let end;
  while ((end = buffered.indexOf('\n')) !== -1) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    if (line.includes('waiting for changes')) waiting?.(performance.now());
  }
});
// A bin that exits (a crash, a bad setup) fails the run waited for instead of leaving this script hanging.
let failing;
let exitCode;
child.once('exit', (code) => {
  exitCode = code;
  failing?.(new Error(`watch-edit: the bin exited (${code}) before the run ended`));
});
const nextRun = () =>
  new Promise((resolve, reject) => {
    if (exitCode !== undefined) return reject(new Error(`watch-edit: the bin exited (${exitCode})`));
    waiting = resolve;
    failing = reject;
  });

await nextRun();
const cpuMs = [];
const wallMs = [];
for (let i = 0; i < edits; i++) {
  const ext = JSON.parse(readFileSync(extFile, 'utf8'));
  ext.methods['example/hello.greet'].description = `Ask the server for a greeting (edit ${i}).`;
  const done = nextRun();
  const before = usage().cpuMs;
  const started = performance.now();
  writeFileSync(extFile, `${JSON.stringify(ext, null, 2)}\n`);
  wallMs.push((await done) - started);
  cpuMs.push(usage().cpuMs - before);
}
const { rssMb } = usage();
failing = undefined;
const stopped = new Promise((resolve) => child.once('exit', resolve));
child.kill('SIGINT');
await stopped;
process.stdout.write(`${JSON.stringify({ cpuMs, wallMs, rssMb })}\n`);
