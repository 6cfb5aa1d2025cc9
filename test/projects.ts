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
 * not listed fails the config at load, so no test is ever left out of `npm test`. The projects are what
 * `--project` picks; a run without it is one project of every file (vitest.config.ts says why).
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
  'test/snapshot/tools-server.test.ts': 'interop',
  'test/snapshot/live.test.ts': 'interop',
  'test/versions/version-facts.test.ts': 'unit',
};

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
