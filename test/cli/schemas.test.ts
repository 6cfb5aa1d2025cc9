/**
 * `--spec` anywhere: schema root → MCP_SCHEMA_DIR → user cache → download, through the built CLI
 * against a loopback server standing in for the download host (MCP_TYPEGEN_SCHEMA_BASE_URL). No test
 * here reaches the internet: every URL is 127.0.0.1 or a name only the loopback proxy answers.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForwardProxy, startSchemaServer, type SchemaServer } from '../helpers/schema-server.js';
import { runCli, SCHEMA_DIR, tempDir } from './helpers.js';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const officialSha = (version: string) => sha(readFileSync(join(SCHEMA_DIR, version, 'schema.json')));

let server: SchemaServer;
beforeAll(async () => {
  server = await startSchemaServer();
});
afterAll(async () => {
  await server?.close();
});

/** A user's environment: no MCP_SCHEMA_DIR, network allowed, its own empty cache. */
function userEnv(cache: string, base: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    MCP_SCHEMA_DIR: '',
    MCP_TYPEGEN_OFFLINE: '0',
    MCP_TYPEGEN_CACHE: cache,
    MCP_TYPEGEN_SCHEMA_BASE_URL: base,
    ...extra,
  };
}

/** The stderr error lines (hints excluded). */
const errorLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('error: '));

describe('spec schemas through the cache and downloads', () => {
  it('first run downloads and caches; the second works --offline without the network', async () => {
    const dir = tempDir('schemas-first');
    const cache = join(dir, 'cache');
    const first = await runCli(
      ['generate', '--spec', '2025-06-18', '--out', join(dir, 'out'), '--artifacts', 'types', '--no-format'],
      { cwd: dir, env: userEnv(cache, server.base('ok')) },
    );
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const cached = join(cache, 'schemas', '2025-06-18', 'schema.json');
    expect(sha(readFileSync(cached))).toBe(officialSha('2025-06-18'));
    expect(server.hits.filter((h) => h === 'ok/2025-06-18')).toHaveLength(1);

    // Offline, and the base URL points nowhere: only the cache can answer.
    const second = await runCli(['methods', '--spec', '2025-06-18', '--offline', '--json'], {
      cwd: dir,
      env: userEnv(cache, 'http://127.0.0.1:9/none'),
    });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).length).toBeGreaterThan(10);
    expect(server.hits.filter((h) => h === 'ok/2025-06-18')).toHaveLength(1);

    const missing = await runCli(['methods', '--spec', '2025-03-26', '--offline'], {
      cwd: dir,
      env: userEnv(cache, server.base('ok')),
    });
    expect(missing.code).toBe(2);
    expect(errorLines(missing.stderr)).toHaveLength(1);
    expect(missing.stderr).toContain('mcp-typegen schemas pull --spec 2025-03-26');
    expect(existsSync(join(cache, 'schemas', '2025-03-26'))).toBe(false);
  });

  it('wrong bytes, 404, a slow server and a truncated body: exit 2, one line naming the URL and what to do, nothing cached', async () => {
    const dir = tempDir('schemas-fail');
    const cases = [
      { mode: 'wrong', reason: 'sha256 mismatch', extra: [] },
      { mode: 'missing', reason: 'HTTP 404', extra: [] },
      { mode: 'slow', reason: 'timed out after 0.5 s', extra: ['--fetch-timeout', '0.5'] },
      { mode: 'truncated', reason: 'truncated', extra: [] },
    ] as const;
    const runs = await Promise.all(
      cases.map(async (c) => {
        const cache = join(dir, c.mode);
        const started = Date.now();
        const run = await runCli(['schemas', 'pull', '--spec', '2025-06-18', ...c.extra], {
          cwd: dir,
          env: userEnv(cache, server.base(c.mode)),
        });
        return { ...c, run, cache, ms: Date.now() - started };
      }),
    );
    for (const { mode, reason, run, cache, ms } of runs) {
      const url = `${server.base(mode)}/2025-06-18/schema.json`;
      expect(run.code, mode).toBe(2);
      expect(run.stdout, mode).toBe('');
      const lines = errorLines(run.stderr);
      expect(lines, mode).toHaveLength(1);
      expect(lines[0], mode).toContain(`error: ${url}: `);
      expect(lines[0], mode).toContain(reason);
      // Both hashes in full, not two prefixes that may look alike.
      if (mode === 'wrong')
        expect(lines[0]).toMatch(new RegExp(`hashing to [0-9a-f]{64}, expected ${officialSha('2025-06-18')} `));
      expect(lines[0], mode).toMatch(/check the network|schemas pull/);
      expect(run.stderr, mode).not.toContain('internal error');
      expect(existsSync(join(cache, 'schemas', '2025-06-18', 'schema.json')), mode).toBe(false);
      if (mode === 'slow') expect(ms).toBeLessThan(8_000);
    }
  });

  it('two concurrent pulls of every version leave whole, verified files and no temp files; diff then reads them', async () => {
    const dir = tempDir('schemas-concurrent');
    const cache = join(dir, 'cache');
    const env = userEnv(cache, server.base('trickle'));
    const [a, b] = await Promise.all([
      runCli(['schemas', 'pull', '--all'], { cwd: dir, env }),
      runCli(['schemas', 'pull', '--all'], { cwd: dir, env }),
    ]);
    // A slow download reports progress on stderr (and only there); nothing else may appear.
    const other = (stderr: string) => stderr.split('\n').filter((l) => l && !l.startsWith('mcp-typegen: downloading '));
    expect([a.code, b.code, other(a.stderr), other(b.stderr)]).toEqual([0, 0, [], []]);
    expect(a.stdout).toMatch(/^2024-11-05: (downloaded to|already cached in) /);
    const versions = readdirSync(join(cache, 'schemas')).sort();
    expect(versions).toEqual(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']);
    for (const v of versions) {
      expect(readdirSync(join(cache, 'schemas', v))).toEqual(['schema.json']);
      expect(sha(readFileSync(join(cache, 'schemas', v, 'schema.json'))), v).toBe(officialSha(v));
    }

    const list = await runCli(['schemas', 'list', '--json'], { cwd: dir, env });
    const entries = JSON.parse(list.stdout) as { version: string; cached: boolean; source: string; sha256: string }[];
    expect(entries.map((e) => [e.version, e.cached, e.source])).toEqual(versions.map((v) => [v, true, 'cache']));
    expect(entries.every((e) => e.sha256 === officialSha(e.version))).toBe(true);

    // diff with version names, from the cache alone.
    const diff = await runCli(['diff', '2025-06-18', '2025-11-25', '--offline', '--format', 'json'], {
      cwd: dir,
      env: userEnv(cache, 'http://127.0.0.1:9/none'),
    });
    expect(diff.stderr).toBe('');
    expect([0, 1]).toContain(diff.code);
    const report = JSON.parse(diff.stdout) as { old: { version: string }; new: { version: string } };
    expect([report.old.version, report.new.version]).toEqual(['2025-06-18', '2025-11-25']);
  });

  it('a cache that cannot be written: exit 2 naming the path, the errno meaning and MCP_TYPEGEN_CACHE', async () => {
    const dir = tempDir('schemas-readonly');
    let cache: string;
    let meaning: RegExp;
    if (process.getuid?.() === 0) {
      // root writes through permission bits: a path through a regular file fails for everyone.
      writeFileSync(join(dir, 'not-a-dir'), '');
      cache = join(dir, 'not-a-dir', 'cache');
      meaning = /ENOTDIR \(a part of the path is a file, not a directory\)/;
    } else {
      cache = join(dir, 'cache');
      mkdirSync(cache);
      chmodSync(cache, 0o555);
      meaning = /EACCES \(permission denied\)/;
    }
    const run = await runCli(['schemas', 'pull', '--spec', '2024-11-05'], {
      cwd: dir,
      env: userEnv(cache, server.base('ok')),
    });
    expect(run.code).toBe(2);
    const lines = errorLines(run.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(join(cache, 'schemas', '2024-11-05', 'schema.json'));
    expect(lines[0]).toMatch(meaning);
    expect(lines[0]).toContain('MCP_TYPEGEN_CACHE');
  });

  it('unknown version vs a known version missing from a named schema root', async () => {
    const dir = tempDir('schemas-messages');
    const env = userEnv(join(dir, 'cache'), server.base('ok'));
    const unknown = await runCli(['methods', '--spec', '1999-01-01'], { cwd: dir, env });
    expect(unknown.code).toBe(2);
    expect(errorLines(unknown.stderr)).toEqual(['error: 1999-01-01: unknown spec version "1999-01-01"']);
    expect(unknown.stderr).toContain('known versions: 2024-11-05, ');

    mkdirSync(join(dir, 'root'));
    const missing = await runCli(['methods', '--spec', '2025-06-18', '--schema-dir', 'root'], { cwd: dir, env });
    expect(missing.code).toBe(2);
    expect(errorLines(missing.stderr)).toEqual([
      `error: ${join(dir, 'root', '2025-06-18', 'schema.json')}: spec version 2025-06-18 is known, but its schema file is not in the schema root ${join(dir, 'root')} (from --schema-dir)`,
    ]);
  });

  it('--schema takes a loopback http URL with an integrity pin; plain http elsewhere is refused', async () => {
    const dir = tempDir('schemas-url');
    const env = userEnv(join(dir, 'cache'), server.base('ok'));
    const url = `${server.base('ok')}/2025-11-25/schema.json`;
    const [pinned, badPin, remoteHttp] = await Promise.all([
      runCli(['methods', '--schema', url, '--schema-sha256', officialSha('2025-11-25'), '--json'], { cwd: dir, env }),
      runCli(['methods', '--schema', url, '--schema-sha256', 'ab'.repeat(32)], { cwd: dir, env }),
      runCli(['methods', '--schema', 'http://example.invalid/schema.json'], { cwd: dir, env }),
    ]);
    expect(pinned.code).toBe(0);
    expect(JSON.parse(pinned.stdout).length).toBeGreaterThan(10);
    expect(badPin.code).toBe(2);
    expect(errorLines(badPin.stderr)[0]).toMatch(new RegExp(`^error: ${url}: sha256 mismatch`));
    expect(badPin.stderr).toContain('hint: the URL serves other bytes than were pinned');
    expect(remoteHttp.code).toBe(2);
    expect(errorLines(remoteHttp.stderr)[0]).toContain('plain http:// is only accepted for loopback hosts');
  });

  it('HTTP_PROXY is honoured and NO_PROXY bypasses it', async () => {
    const dir = tempDir('schemas-proxy');
    const proxy = await startForwardProxy(new URL(server.base('ok')).host);
    try {
      // A host only the proxy can reach: without the proxy the download cannot succeed.
      const base = 'http://schemas.mcp-typegen.invalid/ok';
      const via = await runCli(['schemas', 'pull', '--spec', '2025-03-26'], {
        cwd: dir,
        env: userEnv(join(dir, 'a'), base, {
          HTTP_PROXY: proxy.url,
          http_proxy: proxy.url,
          NO_PROXY: '',
          no_proxy: '',
        }),
      });
      expect(via.stderr).toBe('');
      expect(via.code).toBe(0);
      expect(proxy.seen).toEqual(['CONNECT schemas.mcp-typegen.invalid:80']);

      const bypass = await runCli(['schemas', 'pull', '--spec', '2025-03-26'], {
        cwd: dir,
        env: userEnv(join(dir, 'b'), base, {
          HTTP_PROXY: proxy.url,
          http_proxy: proxy.url,
          NO_PROXY: 'schemas.mcp-typegen.invalid',
          no_proxy: 'schemas.mcp-typegen.invalid',
        }),
      });
      expect(bypass.code).toBe(2);
      expect(errorLines(bypass.stderr)[0]).toContain(`${base}/2025-03-26/schema.json: download failed`);
      expect(proxy.seen).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});
