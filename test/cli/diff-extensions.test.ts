/**
 * Extension files diff too: the old side's extension from a git baseline, the new side's from the working
 * tree, against the same MCP version — what a vendor's CI runs when its extension file changes.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Out } from '../../src/run/console.js';
import { main } from '../../src/cli/main.js';

import { ROOT, SCHEMA_DIR } from '../helpers/paths.js';
const repo = mkdtempSync(join(tmpdir(), 'mcp-typegen-extdiff-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

function quiet(): Out & { errors: string[] } {
  const errors: string[] = [];
  return {
    errors,
    info: () => undefined,
    verbose: () => undefined,
    warn: () => undefined,
    error: (l) => errors.push(l),
  };
}

async function diffJson(argv: string[]): Promise<{
  code: number;
  report: {
    old: { extensions: string[] };
    new: { extensions: string[] };
    facts: { rule: string; location: { method: string; path: string }; verdicts: { client: string; server: string } }[];
  };
}> {
  const written: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  const cwd = process.cwd();
  try {
    process.chdir(repo);
    const code = await main(['diff', ...argv, '--schema-dir', SCHEMA_DIR, '--format', 'json'], quiet());
    return { code, report: JSON.parse(written.join('')) };
  } finally {
    process.chdir(cwd);
    spy.mockRestore();
  }
}

describe('diff --old-ext / --new-ext', () => {
  it('reports what an extension change breaks, with the old extension read from git', async () => {
    const file = join(repo, 'acme.extension.json');
    copyFileSync(join(ROOT, 'schema', 'examples', 'acme-jobs.extension.json'), file);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.email=ci@example.com', '-c', 'user.name=ci', 'commit', '-qm', 'baseline');

    const ext = JSON.parse(readFileSync(file, 'utf8'));
    delete ext.methods['acme/jobs.cancel'];
    ext.methods['acme/jobs.start'].params.required.push('inputs');
    writeFileSync(file, JSON.stringify(ext, null, 2));

    const { code, report } = await diffJson([
      '2025-11-25',
      '2025-11-25',
      '--old-ext',
      'git:HEAD:acme.extension.json',
      '--new-ext',
      'acme.extension.json',
    ]);
    expect(code).toBe(1);
    const facts = report.facts.map((f) => [
      f.rule,
      f.location.method,
      f.location.path,
      f.verdicts.client,
      f.verdicts.server,
    ]);
    expect(facts).toEqual([
      ['method-removed', 'acme/jobs.cancel', '', 'breaking', 'non-breaking'],
      ['request-param-required-added', 'acme/jobs.start', 'params.inputs', 'breaking', 'non-breaking'],
    ]);

    // The report names the extension files each side was compared with.
    expect([report.old.extensions, report.new.extensions]).toEqual([
      ['git:HEAD:acme.extension.json'],
      ['acme.extension.json'],
    ]);

    // The same extension on both sides: nothing changed.
    const same = await diffJson(['2025-11-25', '2025-11-25', '--ext', 'acme.extension.json']);
    expect(same.code).toBe(0);
    expect(same.report.facts).toEqual([]);
    expect(same.report.new.extensions).toEqual(['acme.extension.json']);
  }, 60_000);
});
