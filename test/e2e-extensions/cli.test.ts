/**
 * The extension through the built CLI: `methods --json` lists the vendor methods, and an extension that
 * breaks a name rule is rejected with exit 2 and one error line (file + JSON pointer) before anything
 * is written.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, snapshotDir, tempDir } from '../helpers/generate.js';
import { ACME, ACME_METHODS, FIXTURES } from './helpers.js';

describe('methods --json with the extension', () => {
  it('lists the acme methods with kind, directions, params and result', async () => {
    const { code, stdout, stderr } = await cli(['methods', '--spec', '2025-11-25', '--ext', ACME, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const methods = JSON.parse(stdout) as {
      method: string;
      kind: string;
      directions: string[];
      params: string | null;
      paramsRequired: boolean;
      result?: string[];
      extension?: string;
    }[];
    const acme = methods.filter((m) => m.method.startsWith('acme/'));
    expect(acme.map((m) => m.method)).toEqual(ACME_METHODS);
    const byName = Object.fromEntries(acme.map((m) => [m.method, m]));
    expect(byName['acme/jobs.start']).toMatchObject({
      kind: 'request',
      directions: ['client->server'],
      params: 'AcmeJobsStartRequestParams',
      paramsRequired: true,
      result: ['AcmeJobsStartResult'],
    });
    expect(byName['acme/jobs.list']).toMatchObject({
      params: 'AcmeJobsListRequestParams',
      paramsRequired: false,
      result: ['AcmeJobsListResult'],
    });
    expect(byName['acme/jobs.status']).toMatchObject({
      directions: ['client->server'],
      result: ['AcmeJobsStatusResult'],
    });
    expect(byName['acme/jobs.cancel']).toMatchObject({
      directions: ['client->server'],
      result: ['AcmeJobsCancelResult'],
    });
    expect(byName['acme/jobs.finished']).toMatchObject({
      kind: 'notification',
      directions: ['server->client'],
      params: 'AcmeJobsFinishedNotificationParams',
    });
    expect(byName['acme/jobs.finished']).not.toHaveProperty('result');
    // Each extension method names its extension; MCP's own methods name none.
    expect(acme.map((m) => m.extension)).toEqual(ACME_METHODS.map(() => 'acme/jobs'));
    expect(methods.find((m) => m.method === 'tools/call')).not.toHaveProperty('extension');
  });

  it('takes an official extension by its id (not a path relative to the cwd)', async () => {
    const cwd = tempDir('ext-cli-official');
    const args = ['methods', '--spec', '2026-07-28', '--ext', 'io.modelcontextprotocol/tasks', '--json'];
    const { code, stdout, stderr } = await cli(args, { cwd });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const methods = JSON.parse(stdout) as { method: string; extension?: string; result?: string[] }[];
    expect(methods.filter((m) => m.extension === 'io.modelcontextprotocol/tasks').map((m) => m.method)).toEqual([
      'notifications/tasks',
      'tasks/cancel',
      'tasks/get',
      'tasks/update',
    ]);
    expect(methods.find((m) => m.method === 'tools/call')?.result).toContain('CreateTaskResult');
  });
});

describe('a rejected extension writes nothing', () => {
  it('method "tools/acme" (MCP namespace) → exit 2, one error line with the file and the JSON pointer, out dir unchanged', async () => {
    const bad = join(FIXTURES, 'tools-namespace.extension.json');
    const out = tempDir('ext-e2e-rejected');
    // A previous run's output, a user file and a nested file: all must survive byte for byte.
    writeFileSync(join(out, 'maps.ts'), '// an earlier generation\nexport const METHODS = {};\n');
    writeFileSync(join(out, 'notes.md'), 'hand-written\n');
    mkdirSync(join(out, 'runtime'));
    writeFileSync(join(out, 'runtime', 'peer.ts'), 'export {};\n');
    const before = snapshotDir(out);

    const { code, stdout, stderr } = await cli(['generate', '--spec', '2025-11-25', '--ext', bad, '--out', out]);
    expect(code).toBe(2);
    const lines = (stdout + stderr).split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(bad);
    expect(lines[0]).toContain('#/methods/tools~1acme');
    expect(lines[0]).toMatch(/tools\//);
    expect(snapshotDir(out)).toEqual(before);
  });
});

describe('diff sees what an extension adds to MCP itself', () => {
  it('enabling the tasks extension: CreateTaskResult joins tools/call, SubscriptionFilter gains taskIds', async () => {
    const args = ['diff', '2026-07-28', '2026-07-28', '--new-ext', 'io.modelcontextprotocol/tasks', '--format', 'json'];
    const { stdout } = await cli(args, { cwd: tempDir('ext-cli-diff') });
    const facts = (
      JSON.parse(stdout) as {
        facts: { rule: string; location: { method: string; path: string }; verdicts: Record<string, string> }[];
      }
    ).facts.map((f) => [f.rule, f.location.method, f.location.path, f.verdicts.client]);
    expect(facts).toEqual(
      expect.arrayContaining([
        ['result-union-member-added', 'tools/call', 'result', 'potentially-breaking'],
        ['request-param-property-added', 'subscriptions/listen', 'params.notifications.taskIds', 'non-breaking'],
      ]),
    );
  });
});
