/**
 * The order the suite's files start in: longest first, so the run never ends with one long file on one
 * core while the other has nothing left. Vitest's own order needs its results cache, which a clean CI
 * checkout does not have (it then goes by file size: runtime-nodes.test.ts, 50 lines, runs a minute), so
 * the seconds below are measured and committed. They only order the run: a stale figure costs a few seconds
 * of wall time, never a test.
 *
 * Each project's files stay together, the projects with the longest files first: a worker keeps its module
 * registry (isolate: false) only while the next file is of its own project.
 */
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds of the slowest files in a full run on the 2-core CI machine (alone: less). Others count as 0. */
export const SECONDS: Record<string, number> = {
  'test/conformance/auth.test.ts': 160,
  'test/conformance/conformance.test.ts': 105,
  'test/docs/readme-snippets.test.ts': 79,
  'test/bench/smoke.test.ts': 77,
  'test/platforms/strictest.test.ts': 67,
  'test/stress/http-starved.test.ts': 60,
  'test/platforms/runtime-nodes.test.ts': 55,
  'test/docs/extensions-doc.test.ts': 39,
  'test/platforms/matrix.test.ts': 36,
  'test/platforms/post-message-browser.test.ts': 33,
  'test/stress/listener-bounds.test.ts': 33,
  'test/e2e-extensions/versions.test.ts': 32,
  'test/pack/pack.test.ts': 28,
  'test/versions/matrix.test.ts': 23,
  'test/cli/cli.test.ts': 22,
  'test/snapshot/live.test.ts': 21,
  'test/interop/cluster-redis.test.ts': 19,
  'test/generate/check-edges.test.ts': 19,
  'test/generate/check.test.ts': 19,
  'test/snapshot/tools-types.test.ts': 19,
  'test/generate/compile.test.ts': 16,
  'test/cli/schemas.test.ts': 16,
  'test/e2e-extensions/tasks.test.ts': 15,
  'test/platforms/bundle-budget.test.ts': 15,
  'test/generate/mutants.test.ts': 14,
  'test/e2e-extensions/runtime.test.ts': 13,
  'test/generate/bad-input.test.ts': 12,
  'test/interop/sdk-adapter.test.ts': 11,
  'test/transports/http-leaks.test.ts': 10,
  'test/extensions/cli-exit.test.ts': 9,
  'test/generate/validators-scale.test.ts': 9,
  'test/transports/frame-corpus.test.ts': 9,
};

export default class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = new Map(files.map((f) => [f, SECONDS[relative(root, f.moduleId).split('\\').join('/')] ?? 0]));
    const bytes = new Map(files.map((f) => [f, statSync(f.moduleId).size]));
    const longest = new Map<string, number>();
    for (const [file, s] of seconds) longest.set(file.project.name, Math.max(longest.get(file.project.name) ?? 0, s));
    const projectOf = (f: TestSpecification) => longest.get(f.project.name) ?? 0;
    return Promise.resolve(
      [...files].sort(
        (a, b) =>
          projectOf(b) - projectOf(a) ||
          a.project.name.localeCompare(b.project.name) ||
          (seconds.get(b) ?? 0) - (seconds.get(a) ?? 0) ||
          // Unmeasured files: the larger first, as vitest orders files it has no results for.
          (bytes.get(b) ?? 0) - (bytes.get(a) ?? 0),
      ),
    );
  }
}
