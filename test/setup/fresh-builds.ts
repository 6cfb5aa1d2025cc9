/**
 * Vitest global setup: before any test runs, however the suite was started (`npm test`, `npm run test:unit`,
 * `npx vitest run <file>`, `--project`, watch), rebuild whatever build is older than the code on disk: the
 * tool's `dist/` (the CLI the e2e tests spawn) and the runtime package's `dist/` (what generated code in the
 * tests imports). `scripts/build.mjs --if-stale` decides by content fingerprint, so a fresh tree costs one
 * hash of the sources. In watch mode the same check runs before every rerun. It also installs the tools under
 * tools/ when missing (no npm lifecycle script does: the published package has none).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

// Not from ../helpers/paths.ts: that module needs MCP_SCHEMA_DIR, which only the test workers are given.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The tools the platform and interop tests run (Node 22/24, TypeScript 6/7), each under tools/: a no-op when installed. */
function installTools(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'install-tools.mjs')], { cwd: ROOT, stdio: 'inherit' });
}

function buildIfStale(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
}

export default function setup(project: TestProject): void {
  installTools();
  buildIfStale();
  project.onTestsRerun(() => buildIfStale());
}
