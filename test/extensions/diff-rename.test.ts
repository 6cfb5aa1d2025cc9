/**
 * Renaming an extension (SEP-2133's way to make a breaking change) is one diff fact, however many
 * messages carry its id (capabilities.extensions in initialize/discover, the settings definition,
 * method sources).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModelFor } from '../../src/cli/methods-command.js';
import { diffModels } from '../../src/diff/diff.js';
import { ROOT, SCHEMA_DIR } from './helpers.js';

const ACME = join(ROOT, 'schema', 'examples', 'acme-jobs.extension.json');

function model(extensions: string[]) {
  return loadModelFor({ spec: '2026-07-28', schemaDir: SCHEMA_DIR, cwd: ROOT, extensions, outDir: ROOT }).then(
    (r) => r.model,
  );
}

describe('diff: an extension id change', () => {
  it('is one fact, breaking on both sides, and nothing else changes', async () => {
    const renamed = join(mkdtempSync(join(tmpdir(), 'mcp-typegen-rename-')), 'acme-v2.extension.json');
    const doc = JSON.parse(readFileSync(ACME, 'utf8')) as { extension: string; $schema?: string };
    delete doc.$schema;
    writeFileSync(renamed, JSON.stringify({ ...doc, extension: 'acme/jobs-v2' }));
    const report = diffModels(await model([ACME]), await model([renamed]));
    expect(report.facts.map((f) => [f.rule, f.message, f.details])).toEqual([
      [
        'extension-id-changed',
        'extension "acme/jobs" is now "acme/jobs-v2"',
        { newId: 'acme/jobs-v2', oldId: 'acme/jobs' },
      ],
    ]);
    expect(report.summary.client.breaking).toBe(1);
    expect(report.summary.server.breaking).toBe(1);
  });

  it('an extension removed and a different one added stay two separate changes', async () => {
    const other = join(mkdtempSync(join(tmpdir(), 'mcp-typegen-rename-')), 'other.extension.json');
    writeFileSync(
      other,
      JSON.stringify({
        extension: 'acme/other',
        description: 'd',
        methods: { 'acme/other.ping': { kind: 'notification', direction: 'client->server' } },
      }),
    );
    const rules = diffModels(await model([ACME]), await model([other])).facts.map((f) => f.rule);
    expect(rules).not.toContain('extension-id-changed');
    expect(rules).toContain('notification-added');
  });
});
