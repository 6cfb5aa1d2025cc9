/**
 * Window channels in a real browser (headless Chromium, three loopback origins): the runtime's
 * PostMessageTransport reads only its peer's messages. A host page embeds a view from another origin and,
 * in some scenarios, an attacker frame from a third; the view asks the host to open a link. Checked:
 *
 * - an attacker frame's forged `ui/open-link` (to the host) and forged tool input (to the view) are dropped,
 *   and each end reports it once, however often it is posted;
 * - a view that navigated to another origin keeps its window object, and is still refused;
 * - a sandboxed (opaque-origin) view works only where the host opted in with `opaqueOrigin`;
 * - a view whose parent is at an origin it does not allow fails at once, naming that origin;
 * - ext-apps 2.0.4 both ways: their App against our generated UiHost, our UiView against their AppBridge.
 *
 * The bundle is built by esbuild from the runtime's sources (templates/) and the generated 2025-11-25 MCP
 * Apps ends; every server listens on 127.0.0.1 and is closed.
 */
import { createServer, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generated, writeFiles } from '../helpers/generate.js';
import { ROOT, TMP } from '../helpers/paths.js';
import { CHROMIUM, requireTool } from './tools.js';

const OK_URL = 'https://ok.example/';
const servers: Server[] = [];
let browser: Browser;
let origins: { host: string; view: string; attacker: string };

/** One origin: every `*.html` is a page that loads the bundle (cross-origin readable, for opaque origins). */
async function site(bundle: string): Promise<string> {
  const server = createServer((request, response) => {
    if (request.url === '/bundle.js') {
      response.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' });
      response.end(bundle);
    } else if (request.url?.split('?')[0]?.endsWith('.html')) {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><meta charset="utf-8"><body><script type="module" src="/bundle.js"></script>');
    } else {
      response.writeHead(404).end();
    }
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const browserPath = requireTool(CHROMIUM, 'the Debian package chromium (test/platforms/global-setup.ts)');
  const dir = join(TMP, 'post-message');
  mkdirSync(dir, { recursive: true });
  const output = await generated('2025-11-25', {
    extensions: ['io.modelcontextprotocol/ui'],
    artifacts: ['client', 'server'],
  });
  writeFiles(join(dir, 'generated'), output.files);
  const bundled = await build({
    entryPoints: [join(ROOT, 'test', 'fixtures', 'post-message', 'pages.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    alias: { '@mcp-typegen/runtime': join(ROOT, 'templates', 'index.ts') },
  });
  const bundle = bundled.outputFiles[0]?.text ?? '';
  origins = { host: await site(bundle), view: await site(bundle), attacker: await site(bundle) };
  browser = await chromium.launch({ executablePath: browserPath });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

interface HostResult {
  opened: string[];
  diagnostics: string[];
  logged?: unknown[];
  view?: Record<string, unknown>;
  error?: string;
}

async function scenario(name: string): Promise<HostResult> {
  const page = await browser.newPage();
  try {
    const url = new URL('/host.html', origins.host);
    for (const [key, value] of Object.entries({
      role: 'host',
      scenario: name,
      viewOrigin: origins.view,
      attackerOrigin: origins.attacker,
    }))
      url.searchParams.set(key, value);
    await page.goto(url.href);
    // Run in the page: its global is the window.
    await page.waitForFunction(() => (globalThis as { result?: unknown }).result !== undefined, null, {
      timeout: 20_000,
    });
    return (await page.evaluate(() => (globalThis as { result?: unknown }).result)) as HostResult;
  } finally {
    await page.close();
  }
}

describe('window channels in Chromium', () => {
  it('an attacker frame’s forged messages reach neither end; each end reports them once', async () => {
    const result = await scenario('cross');
    expect(result.error).toBeUndefined();
    expect(result.opened).toEqual([OK_URL]);
    const dropped = `PostMessageTransport: dropped a message from ${origins.attacker} (another window)`;
    expect(result.diagnostics.filter((d) => d.includes('dropped'))).toEqual([`Transport error: ${dropped}`]);
    expect(result.view).toEqual({ forgedToView: [], diagnostics: [`Transport error: ${dropped}`] });
  });

  it('a view that navigated to another origin is refused, though its window is the same', async () => {
    const result = await scenario('navigated');
    expect(result.opened).toEqual([OK_URL]);
    expect(result.diagnostics).toContain(
      `Transport error: PostMessageTransport: dropped a message from ${origins.attacker} (an origin not in ${origins.view})`,
    );
  });

  it('a sandboxed view (opaque origin) works where the host opted in with opaqueOrigin', async () => {
    const result = await scenario('sandboxed');
    expect(result.opened).toEqual([OK_URL]);
    expect(result.diagnostics).toEqual([]);
  });

  it('a sandboxed view is refused by a host that named only real origins', async () => {
    const result = await scenario('sandboxed-strict');
    expect(result.opened).toEqual([]);
    expect(result.diagnostics).toContain(
      `Transport error: PostMessageTransport: dropped a message from null (an origin not in ${origins.view})`,
    );
  });

  it('a view whose parent is at an origin it does not allow fails at once, naming it', async () => {
    const result = await scenario('failfast');
    expect(result.opened).toEqual([]);
    expect(String(result.view?.error)).toContain(
      `the parent window is at ${origins.host}, which is not one of the allowed origins (http://127.0.0.1:9)`,
    );
  });

  it('ext-apps’ App in the view talks to our generated UiHost, its log and sampling requests included', async () => {
    const result = await scenario('their-app');
    expect(result.error).toBeUndefined();
    expect(result.opened).toEqual([OK_URL]);
    expect(result.view?.hostInfo).toEqual({ name: 'our-host', version: '1' });
    // App.sendLog and App.createSamplingMessage: MCP methods the channel carries against MCP's direction.
    expect(result.logged).toEqual([{ level: 'info', data: 'from their app' }]);
    expect(result.view?.sampled).toEqual({ type: 'text', text: 'sampled 1 message(s)' });
  });

  it('our generated UiView talks to ext-apps’ AppBridge host', async () => {
    const result = await scenario('their-bridge');
    expect(result.error).toBeUndefined();
    expect(result.opened).toEqual([OK_URL]);
    expect(result.view?.hostInfo).toEqual({ name: 'their-host', version: '1' });
  });
});
