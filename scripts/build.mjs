#!/usr/bin/env node
/**
 * `npm run build`: the two builds the repository ships, each stamped with the fingerprint of the sources it
 * was built from, so nothing ever runs against a build older than the code on disk.
 *
 * - tool: `src/` → `dist/` (tsc), then the published bin bundle (scripts/bundle-cli.mjs);
 * - runtime: `templates/` → `packages/runtime/dist/` (packages/runtime/build.mjs).
 *
 * `--if-stale` rebuilds only the builds whose stamp differs from their sources' fingerprint (the test suite's
 * global setup runs it before any test, and again before each watch-mode rerun); `--status` prints what is
 * stale and builds nothing. The fingerprint hashes file contents, never mtimes: a checkout or a `touch` that
 * changes no byte rebuilds nothing.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = '.build-inputs';

/**
 * What each build reads. A path is a file or a folder (every file below it). Nothing generated or installed
 * is listed: dependencies are pinned by package.json, which is listed.
 */
export const BUILDS = {
  tool: {
    out: 'dist',
    inputs: [
      'src',
      // The snapshot command's client is the runtime's own (src/snapshot/capture.ts imports templates/).
      'templates',
      'scripts/build.mjs',
      'scripts/bundle-cli.mjs',
      'scripts/record-base-members.mjs',
      'tsconfig.json',
      'tsconfig.build.json',
      'package.json',
    ],
  },
  runtime: {
    out: 'packages/runtime/dist',
    inputs: [
      'templates',
      'scripts/build.mjs',
      'packages/runtime/build.mjs',
      'packages/runtime/tsconfig.json',
      'packages/runtime/package.json',
    ],
  },
};

function filesBelow(root, path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .sort()
    .flatMap((name) => filesBelow(root, join(path, name)));
}

/** sha256 over every input file's path and bytes, in a fixed order. */
export function fingerprint(root, inputs) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((path) => filesBelow(root, path))) {
    hash.update(relative(root, join(root, file)).split('\\').join('/')).update('\0');
    hash.update(readFileSync(join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

/** The fingerprint a build was stamped with, or undefined when it was never built (or built by hand). */
export function stampOf(root, build) {
  const file = join(root, build.out, STAMP);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/** The names of the builds whose output is missing or older than their sources. */
export function staleBuilds(root = ROOT) {
  return Object.entries(BUILDS)
    .filter(([, build]) => stampOf(root, build) !== fingerprint(root, build.inputs))
    .map(([name]) => name);
}

/** Runs `node <args>` in the repository; rejects when it fails (its output went to ours as it came). */
const node = (args) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`node ${args.map((a) => relative(ROOT, a)).join(' ')} failed (${signal ?? code})`)),
    );
  });

const STEPS = {
  async tool() {
    rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    await node([tsc, '-p', join(ROOT, 'tsconfig.build.json')]);
    await node([join(ROOT, 'scripts', 'bundle-cli.mjs')]);
    await node([join(ROOT, 'scripts', 'record-base-members.mjs')]);
  },
  async runtime() {
    await node([join(ROOT, 'packages', 'runtime', 'build.mjs')]);
  },
};

/**
 * Builds the named builds side by side (each is one tsc program and single-threaded: two cores halve the
 * wait) and stamps each with the fingerprint taken before it started.
 */
export async function build(names) {
  await Promise.all(
    names.map(async (name) => {
      const spec = BUILDS[name];
      // Taken first: a source edited while the build runs leaves the stamp stale, never wrongly fresh.
      const before = fingerprint(ROOT, spec.inputs);
      await STEPS[name]();
      writeFileSync(join(ROOT, spec.out, STAMP), `${before}\n`);
    }),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const flags = new Set(process.argv.slice(2));
  const unknown = [...flags].filter((flag) => flag !== '--if-stale' && flag !== '--status');
  if (unknown.length > 0) {
    console.error(`build: unknown option ${unknown[0]} (use --if-stale or --status)`);
    process.exit(2);
  }
  const stale = staleBuilds();
  if (flags.has('--status')) {
    console.log(stale.length === 0 ? 'fresh' : `stale: ${stale.join(', ')}`);
  } else {
    const names = flags.has('--if-stale') ? stale : Object.keys(BUILDS);
    if (flags.has('--if-stale') && names.length > 0)
      console.error(`build: ${names.join(', ')} older than the sources, rebuilding`);
    await build(names).catch((error) => {
      console.error(`build: ${error.message}`);
      process.exitCode = 1;
    });
  }
}
