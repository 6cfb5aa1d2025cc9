/**
 * The runtime package's public API is a list, not whatever its modules happen to export: each entry point
 * names its exports, packages/runtime/api-report.md (scripts/api-report.mjs) shows every public name with
 * its declaration, and generated code imports nothing else. The global setup has rebuilt the runtime from
 * the templates on disk, so the report is compared against the current sources.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generated } from '../helpers/generate.js';
import { ROOT } from '../helpers/paths.js';

const { apiReport, REPORT } = (await import(pathToFileURL(join(ROOT, 'scripts', 'api-report.mjs')).href)) as {
  apiReport(): string;
  REPORT: string;
};
const report = apiReport();

/** The public names of one entry point, as the report lists them. */
function publicNames(specifier: string): Set<string> {
  const start = report.indexOf(`## \`${specifier}\`\n`);
  const end = report.indexOf('\n## ', start + 1);
  return new Set([...report.slice(start, end).matchAll(/^### (\S+)$/gm)].map((m) => m[1] ?? ''));
}
const ENTRIES = [
  '@mcp-typegen/runtime',
  '@mcp-typegen/runtime/node',
  '@mcp-typegen/runtime/ws',
  '@mcp-typegen/runtime/redis',
  '@mcp-typegen/runtime/auth',
  '@mcp-typegen/runtime/auth/server',
];

/** Modules' helpers that once leaked into the package's surface through `export *`. */
const INTERNAL = [
  'isPlainObject',
  'isValidRequestId',
  'jsonCopy',
  'LineBuffer',
  'FrameWriter',
  'parseMessageLine',
  'serializeMessage',
  'isJsonRpcMessage',
  'SseParser',
  'formatSseEvent',
  'setMeta',
  'paramsIssue',
  'resultIssue',
  'mergeCapabilities',
  'inputRound',
];

describe('the runtime’s public API', () => {
  it('is the checked-in API report (run `npm run api-report` after changing it)', () => {
    expect(report).toBe(readFileSync(REPORT, 'utf8'));
  });

  it('names every export of each entry point: no `export *`', () => {
    for (const entry of ['index.ts', 'node.ts', 'ws.ts', 'redis.ts', 'auth.ts', 'auth-server.ts']) {
      expect(readFileSync(join(ROOT, 'templates', entry), 'utf8')).not.toMatch(/^export \* from/m);
    }
  });

  it('leaves internal helpers out', () => {
    const all = ENTRIES.flatMap((entry) => [...publicNames(entry)]);
    expect(all.length).toBeGreaterThan(100);
    expect(INTERNAL.filter((name) => all.includes(name))).toEqual([]);
  });

  it('is all that generated code imports from the package', async () => {
    const outputs = await Promise.all([
      generated('2025-11-25'),
      generated('2026-07-28', { extensions: ['io.modelcontextprotocol/tasks', 'io.modelcontextprotocol/ui'] }),
    ]);
    const used = new Map<string, Set<string>>();
    const statement = /(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(@mcp-typegen\/runtime[^']*)'/g;
    for (const file of outputs.flatMap((o) => o.files)) {
      for (const [, names = '', from = ''] of file.contents.matchAll(statement)) {
        const set = used.get(from) ?? new Set<string>();
        for (const name of names.split(',')) {
          const bare = name
            .replace(/^\s*type\s+/, '')
            .replace(/\s+as\s+.*$/s, '')
            .trim();
          if (bare) set.add(bare);
        }
        used.set(from, set);
      }
    }
    expect([...used.keys()].sort()).toEqual(['@mcp-typegen/runtime', '@mcp-typegen/runtime/node']);
    for (const [from, names] of used) {
      const allowed = publicNames(from);
      expect(
        [...names].filter((name) => !allowed.has(name)),
        from,
      ).toEqual([]);
    }
  });
});
