// Watch mode as a user runs it on `mcp-typegen init`'s starter project (2025-11-25 + the example
// extension): after the first run, each edit of the extension file is timed from the file event to the
// last write, in CPU time of this process (user + sys; the debounce's idle wait costs none).
// Usage: node watch-edit.mjs <dir> <edits>. Prints JSON: { cpuMs: number[], wallMs: number[], rssMb } (wall
// time includes the debounce's wait).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { loadConfig, startWatch, targetFromConfig } = await import(join(ROOT, 'dist', 'src', 'index.js'));
const [dir, editsArg] = process.argv.slice(2);
const edits = Number(editsArg ?? 5);

execFileSync(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'init', '-q'], { cwd: dir });
const config = await loadConfig(join(dir, 'mcp-typegen.config.json'));
const targets = config.targets.map((t) => targetFromConfig(t, {}, config.file));
const extFile = join(dir, 'mcp.extension.json');

const silent = { info: () => {}, verbose: () => {}, warn: () => {}, error: (l) => process.stderr.write(`${l}\n`) };
const controller = new AbortController();
let waiting;
const nextRun = () => new Promise((resolve) => (waiting = resolve));
let first = nextRun();
const watching = startWatch(targets, {
  signal: controller.signal,
  out: silent,
  onRun: (outcome) => {
    if (!outcome.ok) process.stderr.write('watch-edit: a run failed\n');
    waiting?.(performance.now());
  },
});
await first;

const cpuMs = [];
const wallMs = [];
for (let i = 0; i < edits; i++) {
  const ext = JSON.parse(readFileSync(extFile, 'utf8'));
  ext.methods['example/hello.greet'].description = `Ask the server for a greeting (edit ${i}).`;
  const done = nextRun();
  const before = process.cpuUsage();
  const started = performance.now();
  writeFileSync(extFile, `${JSON.stringify(ext, null, 2)}\n`);
  wallMs.push((await done) - started);
  const used = process.cpuUsage(before);
  cpuMs.push((used.user + used.system) / 1000);
}
controller.abort();
await watching;
process.stdout.write(`${JSON.stringify({ cpuMs, wallMs, rssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
