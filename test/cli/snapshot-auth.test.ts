/**
 * `mcp-typegen snapshot --url … --auth` end to end: the built CLI against the SDK v2 server behind its
 * `requireBearerAuth` (test/helpers/protected-server.ts), tokens from the tests' oidc-provider. The code flow goes
 * through the CLI's loopback redirect: the test reads the authorization URL the CLI prints, approves it as the
 * user's browser would (the helper's `approve`), and follows the redirect back to the CLI's listener. The tokens are
 * kept in the cache folder (0600), and the next run refreshes them without asking; in CI, client credentials come
 * from MCP_TYPEGEN_AUTH_CLIENT_ID and MCP_TYPEGEN_AUTH_CLIENT_SECRET.
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthorizationServer, type AuthorizationServer } from '../helpers/authorization-server.js';
import { startProtectedServer, type ProtectedServer } from '../helpers/protected-server.js';
import { CLI, REPO_ROOT, runCli, tempDir } from './helpers.js';

let as: AuthorizationServer;
let server: ProtectedServer;

beforeAll(async () => {
  server = await startProtectedServer({ issuer: () => as.issuer });
  as = await startAuthorizationServer({
    resources: { [server.url]: { scopes: ['mcp:read', 'mcp:write'] } },
    clients: [
      {
        client_id: 'ci-machine',
        client_secret: 'ci-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
  });
});
afterAll(async () => {
  await server?.close();
  await as?.close();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The authorization URLs the CLI printed (each approved as it came). */
  prompts: string[];
  /** What the CLI's listener answered the browser's return. */
  pages: string[];
}

/** The built CLI; every authorization URL it prints is approved and its callback delivered, as a browser would. */
function snapshotWithAuth(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'snapshot', '--url', server.url, '--auth', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run: Run = { code: null, stdout: '', stderr: '', prompts: [], pages: [] };
    const browsing: Promise<void>[] = [];
    child.stderr.on('data', (chunk: Buffer) => {
      run.stderr += chunk.toString();
      for (const [, url = ''] of run.stderr.matchAll(/open (http\S+)/g)) {
        if (run.prompts.includes(url)) continue;
        run.prompts.push(url);
        browsing.push(
          as
            .approve(url)
            .then((back) => fetch(back))
            .then(async (page) => void run.pages.push(await page.text())),
        );
      }
    });
    child.stdout.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', async (code) => {
      await Promise.allSettled(browsing);
      resolve({ ...run, code });
    });
  });
}

const tools = (file: string): string[] => Object.keys(JSON.parse(readFileSync(file, 'utf8')).tools).sort();

describe('snapshot --auth', () => {
  it('authorizes in the browser through a loopback redirect, keeps the tokens (0600), refreshes them next time', async () => {
    const cache = tempDir('snapshot-auth-cache');
    const out = join(tempDir('snapshot-auth'), 'server.snapshot.json');
    const first = await snapshotWithAuth(['--out', out], { MCP_TYPEGEN_CACHE: cache });
    expect(first.code, first.stderr).toBe(0);
    expect(first.prompts).toHaveLength(1);
    const asked = new URL(first.prompts[0] ?? '').searchParams;
    expect(asked.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(asked.get('resource')).toBe(server.url);
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(first.pages).toEqual(['mcp-typegen is authorized; you can close this page.\n']);
    expect(tools(out)).toEqual(['read', 'write']);

    const file = join(cache, 'auth', 'oauth.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(cache, 'auth')).mode & 0o777).toBe(0o700);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    const tokens = JSON.parse(kept[`mcp-auth:tokens:${server.url}`] ?? '{}') as { access_token: string };
    expect(tokens.access_token).toBeTruthy();

    // The server no longer takes that access token: the refresh token gets another, and nobody is asked.
    server.revoked.add(tokens.access_token);
    const second = await snapshotWithAuth(['--out', out, '--check'], { MCP_TYPEGEN_CACHE: cache });
    expect(second.code, second.stderr).toBe(0);
    expect(second.prompts).toEqual([]);
    expect(second.stdout).toContain('is up to date');
  });

  it('in CI: client credentials from MCP_TYPEGEN_AUTH_CLIENT_ID and MCP_TYPEGEN_AUTH_CLIENT_SECRET, nobody asked', async () => {
    const out = join(tempDir('snapshot-auth-ci'), 'server.snapshot.json');
    const run = await snapshotWithAuth(['--out', out], {
      MCP_TYPEGEN_CACHE: tempDir('snapshot-auth-ci-cache'),
      MCP_TYPEGEN_AUTH_CLIENT_ID: 'ci-machine',
      MCP_TYPEGEN_AUTH_CLIENT_SECRET: 'ci-secret',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.prompts).toEqual([]);
    expect(tools(out)).toEqual(['read', 'write']);
  });

  it('refuses --auth where it cannot apply, in one line', async () => {
    const stdio = await runCli(['snapshot', '--auth', '--', 'node', 'server.js']);
    expect([stdio.code, stdio.stderr.split('\n')[0]]).toEqual([2, 'error: --auth applies to --url only']);
    const both = await runCli(['snapshot', '--url', server.url, '--auth', '--header', 'Authorization: Bearer x']);
    expect([both.code, both.stderr.split('\n')[0]]).toEqual([
      2,
      'error: give --auth or an Authorization --header, not both',
    ]);
    const secretOnly = await runCli(['snapshot', '--url', server.url, '--auth'], {
      env: { MCP_TYPEGEN_AUTH_CLIENT_SECRET: 'x', MCP_TYPEGEN_AUTH_CLIENT_ID: '' },
    });
    expect([secretOnly.code, secretOnly.stderr.split('\n')[0]]).toEqual([
      2,
      'error: MCP_TYPEGEN_AUTH_CLIENT_SECRET: is set without MCP_TYPEGEN_AUTH_CLIENT_ID',
    ]);
  });
});
