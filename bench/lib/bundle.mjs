// The browser bundle row: a client with the Streamable HTTP transport, bundled for the browser by esbuild
// (bundle, minify, ESM, platform browser) from our client-only output and from the SDK, in the same build
// settings; the figures are the bundles' bytes, raw and gzip. Sizes are deterministic: one build each.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The entry modules: each exports the client and its HTTP transport, so neither is shaken out. */
const ENTRIES = {
  ours: `export { createClient, StreamableHttpClientTransport } from './gen/index.js';\n`,
  // The same client with the OAuth client (@mcp-typegen/runtime/auth, oauth4webapi included) for its auth option.
  auth: `export { createClient, StreamableHttpClientTransport } from './gen/index.js';
export { oauthClient } from '@mcp-typegen/runtime/auth';\n`,
  sdk: `export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';\n`,
};

/**
 * Bundles both sides (or those named) under `dir` (`dir/gen` must hold client-only generated output; `dir`
 * must resolve the repository's node_modules) and returns `{ ours, sdk }` sizes in bytes:
 * `{ raw, gzip, nodeImports, headerEra }`; `auth` is ours with the OAuth client. test/platforms/bundle-budget.test.ts
 * holds ours (and auth's growth) to the goal.
 */
export async function bundleSizes(dir, sides = Object.keys(ENTRIES)) {
  const sizes = {};
  for (const side of sides) {
    const { raw, gzip, text } = await browserBundle(dir, side, ENTRIES[side]);
    sizes[side] = {
      raw,
      gzip,
      nodeImports: /["']node:/.test(text),
      // The x-mcp-header rules (templates/peer/http-headers.ts): only a client of 2026-07-28 on needs them.
      headerEra: text.includes('x-mcp-header'),
    };
  }
  return sizes;
}

/** The MCP Apps ends (issue 46): ours from output generated with io.modelcontextprotocol/ui, and ext-apps' own. */
const APPS_ENTRIES = {
  view: `export { UiView } from './gen/client.js';\nexport { PostMessageTransport } from '@mcp-typegen/runtime';\n`,
  host: `export { UiHost } from './gen/server.js';\nexport { PostMessageTransport } from '@mcp-typegen/runtime';\n`,
  extView: `export { App, PostMessageTransport } from '@modelcontextprotocol/ext-apps';\n`,
  extHost: `export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';\n`,
};

/**
 * The view and host bundles (`dir/gen`: output of a version with `io.modelcontextprotocol/ui`, client, server and
 * validators) beside ext-apps' App and AppBridge: `{ view, host, extView, extHost }`, each `{ raw, gzip }`.
 */
export async function appsBundleSizes(dir) {
  const sizes = {};
  for (const [side, source] of Object.entries(APPS_ENTRIES)) {
    const { raw, gzip } = await browserBundle(dir, side, source);
    sizes[side] = { raw, gzip };
  }
  return sizes;
}

/**
 * One entry module's browser bundle (`<dir>/<name>-entry.ts`, resolving from `dir`): esbuild --bundle --minify
 * --platform=browser --format=esm; its minified and gzip -9 bytes, and its text.
 */
export async function browserBundle(dir, name, source) {
  const { build } = await import('esbuild');
  const entry = join(dir, `${name}-entry.ts`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(entry, source);
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: dir,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles[0].contents;
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, text: Buffer.from(bytes).toString('utf8') };
}
