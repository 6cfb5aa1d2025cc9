/**
 * `snapshot --check` names what changed, wherever it is: a tool's description (which no diff rule reports,
 * as it breaks nobody), the server's version, a tool added. A small stdio fixture server, described by its
 * environment (`--env`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir } from './helpers.js';

const SERVER = ['--', process.execPath, join(REPO_ROOT, 'test', 'snapshot', 'fixtures', 'env-server.mjs')];
const env = (description: string) => [
  '--env',
  'SNAPSHOT_FIXTURE_NAME=fixture',
  '--env',
  `SNAPSHOT_FIXTURE_TOOL=${description}`,
];

describe('snapshot --check', () => {
  it('a changed description, a changed server version, an added tool: each named by its pointer, exit 1', async () => {
    const file = join(tempDir('snapshot-check'), 'fixture.snapshot.json');
    const wrote = await runCli(['snapshot', '--quiet', '--out', file, ...env('Echoes'), ...SERVER]);
    expect(wrote.code, wrote.stderr).toBe(0);
    expect((await runCli(['snapshot', '--check', '--out', file, ...env('Echoes'), ...SERVER])).code).toBe(0);

    const described = await runCli(['snapshot', '--check', '--out', file, ...env('Echoes back'), ...SERVER]);
    expect(described.code).toBe(1);
    expect(described.stderr).toContain(`differs from ${file} at /tools/echo/description (changed);`);
    expect(described.stderr).not.toMatch(/server info|capabilities or resources/);

    const committed = JSON.parse(readFileSync(file, 'utf8')) as { server: { version: string }; tools: object };
    committed.server.version = '0';
    delete (committed.tools as Record<string, unknown>)['echo'];
    writeFileSync(file, JSON.stringify(committed));
    const drift = await runCli(['snapshot', '--check', '--out', file, ...env('Echoes'), ...SERVER]);
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain('at /server/version (changed), /tools/echo (added);');
    // The diff's facts, where the change means something to clients or servers.
    expect(drift.stdout).toMatch(/tool echo[^\n]*\n[^\n]*method-added/);
  });
});
