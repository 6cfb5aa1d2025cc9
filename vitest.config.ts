import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { PROJECTS, TIERS, projectOf, testFiles, tierOf } from './test/projects.js';
import LongestFirst from './test/setup/sequencer.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const files = testFiles(root);
// Every file has a project (a folder without one fails here), whichever way the run is split below.
for (const file of files) projectOf(file);
/**
 * `--project <name>` picks among the named projects of test/projects.ts: a tier (`npm test` runs `fast`,
 * `npm run test:slow` runs `slow`) or a kind (`npm run test:unit`).
 */
const picking = process.argv.some((arg) => arg === '--project' || arg.startsWith('--project='));

export default defineConfig({
  test: {
    // Named projects (test/projects.ts) when `--project` picks some (`npm test`: `--project fast`). Any other run
    // (a file, a folder, a bare `vitest run`) is one project of every file: vitest hands a worker, and the modules it
    // has loaded, only files of its own project, so five projects meant each worker loading the generator up
    // to five times. Measured (unit+interop+stress, same load): 128 s → 118 s CPU, wall 117 → 112 s.
    projects: picking
      ? [
          ...TIERS.map((name) => ({
            extends: true,
            test: { name, include: files.filter((file) => tierOf(file) === name) },
          })),
          ...PROJECTS.map((name) => ({
            extends: true,
            test: { name, include: files.filter((file) => projectOf(file) === name) },
          })),
        ]
      : [{ extends: true, test: { name: 'suite', include: files } }],
    // test/.tmp holds generated projects and copies; a .test.ts left there must not run as part of the suite.
    exclude: ['test/.tmp/**', '**/node_modules/**'],
    // First, rebuild whatever build is older than the sources (tests always run the code on disk); then
    // install Chromium (Debian package) for the platform matrix when missing, outside the tests' time.
    globalSetup: ['test/setup/fresh-builds.ts', 'test/platforms/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores in CI: keep workers few so interop tests that spawn servers are not starved.
    maxWorkers: 2,
    // One module registry per worker, not per file: each file would otherwise load the generator (ts-morph,
    // prettier, ajv, JSTT) afresh, and the one-per-run generations of test/helpers/generate.ts would be
    // one-per-file. No test file mocks modules; the few that change process state (env, cwd, globals) put
    // it back. Measured: --project unit 123 s → 68 s CPU, e2e 238 s → 194 s, interop+stress 95 s → 77 s.
    isolate: false,
    // Longest files first, each project's files together (test/setup/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    reporters: ['default'],
    env: {
      // The project's own tests read the official schemas from the development layout; the tool itself
      // never names it (a user's --spec resolves through the cache and downloads).
      MCP_SCHEMA_DIR: `${root}../shared/mcp-schema`,
      // Never the developer's own cache, and never the internet: download tests opt in with a loopback
      // server (MCP_TYPEGEN_SCHEMA_BASE_URL) and MCP_TYPEGEN_OFFLINE=0.
      MCP_TYPEGEN_CACHE: `${root}test/.tmp/cache`,
      MCP_TYPEGEN_OFFLINE: '1',
    },
  },
});
