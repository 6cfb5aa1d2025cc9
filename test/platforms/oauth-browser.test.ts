/**
 * The OAuth client in a real browser (headless Chromium): a generated 2026-07-28 client with `auth: oauthClient(…)`,
 * bundled by esbuild for the browser from the runtime's sources, on the MCP server's origin (the SDK v2 server behind
 * its requireBearerAuth, test/helpers/protected-server.ts). The authorization server (oidc-provider, another origin)
 * is reached with CORS for discovery and the token (the app is registered beforehand); the user's step is a full-page redirect there and
 * back (its login and consent pages answer at once), and the page that comes back finishes the authorization from
 * sessionStorage. No Node API on the path: the bundle imports no `node:` module.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAuthorizationServer, type AuthorizationServer } from '../helpers/authorization-server.js';
import { generated, writeFiles } from '../helpers/generate.js';
import { ROOT, TMP } from '../helpers/paths.js';
import { startProtectedServer, type ProtectedServer } from '../helpers/protected-server.js';
import { CHROMIUM, requireTool } from './tools.js';

let browser: Browser;
let as: AuthorizationServer;
let server: ProtectedServer;
let bundle = '';

beforeAll(async () => {
  const browserPath = requireTool(CHROMIUM, 'the Debian package chromium (test/platforms/global-setup.ts)');
  const dir = join(TMP, 'oauth-browser');
  mkdirSync(dir, { recursive: true });
  writeFiles(join(dir, 'generated'), (await generated('2026-07-28', { artifacts: ['client'] })).files);
  const bundled = await build({
    entryPoints: [join(ROOT, 'test', 'fixtures', 'oauth-browser', 'app.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    alias: {
      '@mcp-typegen/runtime/auth': join(ROOT, 'templates', 'auth.ts'),
      '@mcp-typegen/runtime': join(ROOT, 'templates', 'index.ts'),
    },
  });
  bundle = bundled.outputFiles[0]?.text ?? '';
  server = await startProtectedServer({
    issuer: () => as.issuer,
    pages: {
      '/app.html': {
        type: 'text/html',
        body: () => '<!doctype html><meta charset="utf-8"><script type="module" src="/app.js"></script>',
      },
      '/app.js': { type: 'text/javascript', body: () => bundle },
    },
  });
  // A browser app cannot register dynamically here: oidc-provider answers no CORS on its registration endpoint (a
  // browser app uses a Client ID Metadata Document or a client registered beforehand, as this one).
  as = await startAuthorizationServer({
    resources: { [server.url]: { scopes: ['mcp:read'] } },
    clients: [
      {
        client_id: 'browser-app',
        application_type: 'native',
        redirect_uris: [new URL('/app.html', server.url).href],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
    ],
  });
  browser = await chromium.launch({ executablePath: browserPath });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await as?.close();
});

it('a browser app authorizes through a full-page redirect and calls the protected server', async () => {
  expect(bundle).not.toMatch(/["']node:/);
  const page = await browser.newPage();
  try {
    await page.goto(new URL('/app.html', server.url).href);
    await page.waitForFunction(() => (globalThis as { result?: unknown }).result !== undefined, null, {
      timeout: 30_000,
    });
    const state = await page.evaluate(() => {
      const { result, steps } = globalThis as unknown as { result: unknown; steps: string[] };
      return { result, steps };
    });
    expect(state.result).toEqual({ text: expect.stringMatching(/^read as /) });
    expect(state.steps).toEqual(['redirect', 'callback', 'called']);
    expect(new URL(page.url()).search).toBe('');
    expect(server.schemes).toContain('Bearer');
  } finally {
    await page.close();
  }
});
