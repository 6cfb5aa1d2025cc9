/**
 * The official MCP conformance suites' `auth/*` client scenarios against the example client
 * (examples/conformance-client/auth.ts, on a generated 2026-07-28 client and `@mcp-typegen/runtime/auth`), each at
 * the version it is for (2025-11-25, 2026-07-28, the 2025-03-26 back-compat ones at 2025-03-26, the extension and
 * draft ones at the runner's default), for the newest suite and the stable one: `npm run conformance -- --only
 * auth`, the same runner as conformance.test.ts. Every one the suites list ran and passed, but the suite's own gaps
 * (docs/conformance.md); none skipped a check.
 */
import { describe, expect, it } from 'vitest';
import { SUPPORTED, runAndExpectAll } from './runner.js';

describe.skipIf(!SUPPORTED)('official MCP conformance suites: auth/* client scenarios', () => {
  it('pass every one at every version it is for', { timeout: 1_200_000 }, async () => {
    const runs = await runAndExpectAll({ only: ['auth'], keeps: (name) => name.startsWith('auth/') });
    expect(runs.every((r) => r.side === 'client')).toBe(true);
    // A dated scenario ran at each version it is for: those of 2026-07-28 at the stateless era.
    expect(new Set(runs.map((r) => `${r.suite} ${r.label}`))).toEqual(
      new Set([
        'newest auth 2025-11-25',
        'newest auth 2026-07-28',
        'newest auth 2025-03-26',
        'newest auth extension',
        'stable auth 2025-11-25',
        'stable auth 2025-03-26',
        'stable auth draft',
        'stable auth extension',
      ]),
    );
    const skipping = runs.flatMap((r) => r.scenarios.filter((s) => s.skipped > 0).map((s) => `${r.label} ${s.name}`));
    expect(skipping).toEqual([]);
  });
});
