#!/usr/bin/env node
/**
 * `npm run build`: the builds the repository ships, each stamped with the fingerprint of the sources it was
 * built from, so nothing ever runs against a build older than the code on disk.
 *
 * - tool: `src/` → `dist/` JavaScript (file by file, scripts/transpile.mjs), then the published bin bundle
 *   (scripts/bundle-cli.mjs);
 * - types: the tool's declarations (`dist/src/**\/*.d.ts`, what the library's users compile against), by tsc
 *   incrementally: some of them are inferred from other files (the option table's types), which a per-file
 *   transpiler cannot write;
 * - runtime: `templates/` → `packages/runtime/dist/` (packages/runtime/build.mjs, the per-file transpiler:
 *   the runtime is written under `isolatedDeclarations`).
 *
 * None of them type-checks: `npm run checks` does (tsc over the whole program, the runtime under the strictest
 * settings), beside the build in `npm test`. Each rewrites only what its sources' changes touch, so a one-line
 * edit costs a file, not a program.
 *
 * `--if-stale [names]` rebuilds the named builds (default: the eager ones, tool and runtime, which every test
 * run uses) whose stamp differs from their sources' fingerprint: the test suite's global setup runs it before
 * any test and before each watch-mode rerun; what packs the tarballs asks for `types` the same way.
 * `--status [names]` prints what is stale and builds nothing. The fingerprint hashes file contents, never
 * mtimes: a checkout or a `touch` that changes no byte rebuilds nothing.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourcesBelow, transpile } from './transpile.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** A build's stamp file in its out folder: inside it, so deleting the folder makes the build stale. */
const stampFile = (name) => `.build-inputs.${name}`;

/**
 * What each build reads. A path is a file or a folder (every file below it). Nothing generated or installed
 * is listed: dependencies are pinned by package.json, which is listed.
 */
export const BUILDS = {
  tool: {
    out: 'dist',
    eager: true,
    inputs: [
      'src',
      // The snapshot command's client is the runtime's own (src/snapshot/capture.ts imports templates/).
      'templates',
      'scripts/build.mjs',
      'scripts/transpile.mjs',
      'scripts/bundle-cli.mjs',
      'scripts/record-base-members.mjs',
      'package.json',
    ],
  },
  types: {
    // Inside dist/src: a tool build that starts over (no manifest) empties dist/src, and this stamp and tsc's
    // build info go with it.
    out: 'dist/src',
    eager: false,
    after: 'tool',
    inputs: ['src', 'templates', 'scripts/build.mjs', 'tsconfig.json', 'tsconfig.build.json', 'package.json'],
  },
  runtime: {
    out: 'packages/runtime/dist',
    eager: true,
    inputs: [
      'templates',
      'scripts/build.mjs',
      'scripts/transpile.mjs',
      'packages/runtime/build.mjs',
      'packages/runtime/package.json',
    ],
  },
};

const EAGER = Object.keys(BUILDS).filter((name) => BUILDS[name].eager);

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
export function stampOf(root, name) {
  const file = join(root, BUILDS[name].out, stampFile(name));
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/** Of `names` (default: every build), those whose output is missing or older than their sources. */
export function staleBuilds(root = ROOT, names = Object.keys(BUILDS)) {
  return names.filter((name) => stampOf(root, name) !== fingerprint(root, BUILDS[name].inputs));
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
    // dist/src and dist/templates (the snapshot command's client is the runtime's own), file by file.
    transpile({
      root: ROOT,
      outDir: join(ROOT, 'dist'),
      sources: sourcesBelow(ROOT, ['src', 'templates']),
      targets: [{ dir: '.', module: 'esm', declarations: false }],
    });
    // In this process: each would spend a Node start of its own.
    await (await import('./bundle-cli.mjs')).bundleCli();
    await (await import('./record-base-members.mjs')).recordBaseMembers();
  },
  async types() {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const info = join(ROOT, BUILDS.types.out, '.tsbuildinfo');
    await node([
      tsc,
      '-p',
      join(ROOT, 'tsconfig.build.json'),
      '--emitDeclarationOnly',
      '--incremental',
      '--tsBuildInfoFile',
      info,
    ]);
  },
  async runtime() {
    await node([join(ROOT, 'packages', 'runtime', 'build.mjs')]);
  },
};

/**
 * Builds the named builds side by side (two cores halve the wait), each after the build it must follow, and
 * stamps each with the fingerprint taken before it started.
 */
export async function build(names) {
  const started = new Map();
  const run = (name) => {
    if (!started.has(name))
      started.set(
        name,
        (async () => {
          const spec = BUILDS[name];
          if (spec.after && names.includes(spec.after)) await run(spec.after);
          // Taken first: a source edited while the build runs leaves the stamp stale, never wrongly fresh.
          const before = fingerprint(ROOT, spec.inputs);
          await STEPS[name]();
          mkdirSync(join(ROOT, spec.out), { recursive: true });
          writeFileSync(join(ROOT, spec.out, stampFile(name)), `${before}\n`);
        })(),
      );
    return started.get(name);
  };
  await Promise.all(names.map(run));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const flags = new Set(args.filter((arg) => arg.startsWith('--')));
  const named = args.filter((arg) => !arg.startsWith('--'));
  const unknown = [
    ...[...flags].filter((flag) => flag !== '--if-stale' && flag !== '--status'),
    ...named.filter((n) => !(n in BUILDS)),
  ];
  if (unknown.length > 0) {
    console.error(
      `build: unknown option or build ${unknown[0]} (use --if-stale or --status, and ${Object.keys(BUILDS).join(', ')})`,
    );
    process.exit(2);
  }
  const checked = named.length > 0 ? named : flags.size > 0 ? EAGER : Object.keys(BUILDS);
  const stale = staleBuilds(ROOT, checked);
  if (flags.has('--status')) {
    console.log(stale.length === 0 ? 'fresh' : `stale: ${stale.join(', ')}`);
  } else {
    const names = flags.has('--if-stale') ? stale : checked;
    if (flags.has('--if-stale') && names.length > 0)
      console.error(`build: ${names.join(', ')} older than the sources, rebuilding`);
    await build(names).catch((error) => {
      console.error(`build: ${error.message}`);
      process.exitCode = 1;
    });
  }
}
