/**
 * Vitest global setup: installs Chromium (the Debian package) when the platform matrix is about to run
 * and it is missing, so the browser row finds it and its install time stays out of the tests' own time.
 * Installing needs root (CI runs as root); `apt-get update` runs first only when the install alone fails.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, LINUX_X64 } from './tools.js';

function aptGet(args: string[]): void {
  execFileSync('apt-get', args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: 600_000,
  });
}

export default function setup(project: TestProject): void {
  if (!LINUX_X64 || existsSync(CHROMIUM)) return;
  // Only when the run includes the matrix: `vitest run test/runtime` and the fast tier need no browser.
  if (project.name !== 'suite' && project.name !== 'slow' && project.name !== 'platforms') return;
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern ?? [];
  if (filters.length > 0 && !filters.some((f) => f.includes('platforms') || f.includes('matrix'))) return;
  const install = ['install', '-y', '-q', '--no-install-recommends', 'chromium'];
  process.stderr.write('platform matrix: installing the Debian package chromium (apt-get)…\n');
  try {
    aptGet(install);
  } catch {
    aptGet(['update', '-q']);
    aptGet(install);
  }
}
