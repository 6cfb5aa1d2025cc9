/**
 * The official MCP conformance suites against the example servers and clients in examples/, built only from
 * generated code (2025-11-25, and 2026-07-28 with the tasks and skills extensions): what `npm run conformance`
 * runs (scripts/conformance.mjs), but the `auth/*` client scenarios (auth.test.ts, the same runner, beside this
 * file so the two run at once). Every scenario the suites list — server and client, each spec version and
 * extension, the newest suite (@modelcontextprotocol/conformance 0.2.0-alpha.12) and the last stable one (0.1.16)
 * — ran and passed, except those docs/conformance.md lists as the suite's own gaps, which are asserted to still
 * fail the way it says (so the list goes stale loudly). A scenario whose checks were all skipped does not pass.
 * Needs dist/ (the global setup builds it) and tools/node22 (Node 22 for the runner, installed by the setup).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';
import { SUPPORTED, conformance, runAndExpectAll } from './runner.js';

describe.skipIf(!SUPPORTED)('the official MCP conformance suites', () => {
  it(
    'pass every scenario they list but auth/*, server and client, each version and extension',
    { timeout: 1_200_000 },
    async () => {
      const runs = await runAndExpectAll({ except: ['auth'], keeps: (name) => !name.startsWith('auth/') });
      // Each side, each suite, each version and extension ran.
      expect(new Set(runs.map((r) => `${r.suite} ${r.side} ${r.label}`))).toEqual(
        new Set([
          'newest server 2025-11-25',
          'newest server 2026-07-28',
          'newest server io.modelcontextprotocol/tasks',
          'newest server io.modelcontextprotocol/skills',
          'stable server 2025-11-25',
          'newest client 2025-11-25',
          'newest client 2026-07-28',
          'newest client io.modelcontextprotocol/skills',
          'stable client 2025-11-25',
        ]),
      );
    },
  );

  it("docs/conformance.md names every gap, with the suite's message", async () => {
    const { SUITE_GAPS } = await conformance();
    const doc = readFileSync(join(ROOT, 'docs/conformance.md'), 'utf8');
    for (const [key, gap] of Object.entries(SUITE_GAPS)) {
      expect(doc).toContain(`\`${key.split(' ').pop()}\``);
      expect(doc).toContain(gap.message);
    }
  });
});
