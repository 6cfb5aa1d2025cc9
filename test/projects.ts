/**
 * The suite's vitest projects, one `npm test`: which project every test file belongs to.
 *
 * - unit: in-process tests (the generator's core, the runtime over in-memory and loopback transports,
 *   goldens, type fidelity); fast feedback with `npm run test:unit`.
 * - stress: in-process too, but at volume: 5,000 calls with 256 in flight, validators for schemas of
 *   thousands of definitions.
 * - e2e: the built CLI and generated projects in child processes (generate, --check, watch, config).
 * - interop: real peers from the registry (the official SDKs, server-everything, the Inspector) and the
 *   version matrix.
 * - platforms: the packed tarballs installed into fresh projects (Node ESM/CJS, browsers, Bun, Deno,
 *   strictest TypeScript 5.9/6/7, other Node versions).
 *
 * A file belongs to its folder's project unless it is named in FILES. A test file in a folder that is
 * not listed fails the config at load, so no test is ever left out of a run. The projects are what
 * `--project` picks; a run without it is one project of every file (vitest.config.ts says why).
 *
 * Two tiers cut across the projects: `fast` (`npm test`: the generator, emit, goldens, in-process transports
 * and one real-peer smoke per kind of peer) and `slow` (`npm run test:slow`: the platform matrix, browsers,
 * the conformance suites, the Redis + HAProxy cluster, Python peers, the version matrix, stress, the bench
 * smoke). Every file is in exactly one tier; `.ci/run` runs both.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const PROJECTS = ['unit', 'stress', 'e2e', 'interop', 'platforms'] as const;
export type Project = (typeof PROJECTS)[number];

const FOLDERS: Record<string, Project> = {
  bench: 'e2e',
  cli: 'e2e',
  client: 'unit',
  config: 'e2e',
  conformance: 'interop',
  diff: 'unit',
  docs: 'platforms',
  'e2e-extensions': 'e2e',
  extensions: 'unit',
  generate: 'e2e',
  golden: 'unit',
  house: 'unit',
  interop: 'interop',
  pack: 'platforms',
  platforms: 'platforms',
  runtime: 'unit',
  server: 'unit',
  snapshot: 'unit',
  stress: 'stress',
  templates: 'unit',
  transports: 'unit',
  'types-fidelity': 'unit',
  versions: 'interop',
};

/** Files whose project is not their folder's. */
const FILES: Record<string, Project> = {
  'test/bench/check-fast-path.test.ts': 'unit',
  'test/cli/messages.test.ts': 'unit',
  'test/client/everything.test.ts': 'interop',
  'test/extensions/cli-exit.test.ts': 'e2e',
  'test/generate/inputs.test.ts': 'unit',
  'test/generate/model.test.ts': 'unit',
  'test/generate/validators-compact.test.ts': 'unit',
  'test/generate/validators-scale.test.ts': 'stress',
  'test/platforms/runtime-version.test.ts': 'unit',
  'test/server/sdk-client.test.ts': 'interop',
  'test/snapshot/tools-everything.test.ts': 'interop',
  'test/snapshot/tools-drift.test.ts': 'interop',
  'test/snapshot/tools-server.test.ts': 'interop',
  'test/snapshot/live.test.ts': 'interop',
  'test/versions/version-facts.test.ts': 'unit',
};

export const TIERS = ['fast', 'slow'] as const;
export type Tier = (typeof TIERS)[number];

/** Whole projects that are slow: they install tarballs into fresh projects, start browsers, or run at volume. */
const SLOW_PROJECTS: ReadonlySet<Project> = new Set(['platforms', 'stress']);

/**
 * Files of the other projects that run in the slow tier: a second peer of a kind the fast tier already
 * meets, or a whole matrix. Each line says which smoke of the fast tier covers its kind.
 */
const SLOW_FILES: ReadonlySet<string> = new Set([
  // The bench's own smoke run (every section, small): the bench is not a test of the product.
  'test/bench/smoke.test.ts',
  // The official conformance suite (fast tier: its behaviours in-process, test/server/ and test/transports/).
  'test/conformance/conformance.test.ts',
  // Its auth/* client scenarios, the same runner (fast tier: the OAuth client against a real authorization server
  // and the SDK v2 server, test/interop/oauth-client.test.ts).
  'test/conformance/auth.test.ts',
  // A real Redis and HAProxy (fast tier: the in-process cluster of test/transports/http-cluster*.test.ts).
  'test/interop/cluster-redis.test.ts',
  // The tasks extension with both SDK majors (fast tier: test/interop/sdk-adapter.test.ts).
  'test/interop/sdk-adapter-tasks.test.ts',
  // Every version against every version, and the official peers per version (fast tier: sixth-version,
  // test/server/sdk-client.test.ts and test/interop/official-http.test.ts).
  'test/versions/matrix.test.ts',
  'test/versions/official-peers.test.ts',
  // Every extension on every version (fast tier: the other e2e-extensions files, one version each).
  'test/e2e-extensions/versions.test.ts',
  // Python and SDK v2 servers over stdio and HTTP (fast tier: test/snapshot/tools-everything.test.ts).
  'test/snapshot/live.test.ts',
]);

/** The tier of a test file (a path relative to the repository root, `/`-separated). */
export function tierOf(file: string): Tier {
  return SLOW_PROJECTS.has(projectOf(file)) || SLOW_FILES.has(file) ? 'slow' : 'fast';
}

/** The project of a test file (a path relative to the repository root, `/`-separated). */
export function projectOf(file: string): Project {
  const named = FILES[file];
  if (named) return named;
  const folder = file.split('/')[1] ?? '';
  const project = FOLDERS[folder];
  if (!project) throw new Error(`${file}: test/${folder}/ has no vitest project; add it to test/projects.ts`);
  return project;
}

const SKIPPED = new Set(['.tmp', 'node_modules', 'fixtures']);

/** Every `*.test.ts` under test/, relative to `root`. */
export function testFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return SKIPPED.has(name) ? [] : walk(path);
      return name.endsWith('.test.ts') ? [relative(root, path).split('\\').join('/')] : [];
    });
  return walk(join(root, 'test')).sort();
}
