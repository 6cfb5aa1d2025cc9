/**
 * Issue 13's browser budget, held by the suite (the bench prints the same figure in its `bundle` row, with the
 * SDK beside it): a client with the Streamable HTTP transport, from client-only output and the built
 * `@mcp-typegen/runtime`, bundled by esbuild for the browser (bundle, minify, ESM) and gzipped at level 9.
 * Both a legacy-only client (2025-11-25) and the dual-era one (2026-07-28, which also falls back to
 * `initialize` servers) are measured: each must stay within the budget and import nothing from `node:`.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appsBundleSizes, bundleSizes } from '../../bench/lib/bundle.mjs';
import { ROOT, generated, tempDir, writeFiles } from '../helpers/generate.js';

/**
 * Bytes of gzip, as the bench prints them: issue 13's goal is 12 kB, 12,000 bytes, for both. The metadata headers
 * of 2026-07-28 (templates/peer/http-headers.ts) reach only a client of that version on, so a legacy client's bundle
 * leaves them out. On Dec 1 the dual-era 2026-07-28 client was 11,989 bytes and the 2025-11-25 one 11,072: the
 * 2026-07-28 call path of issue 37 (a sealed per-request `_meta`, no spread objects, no async layers, the result
 * looked at as it arrives) had taken it to 12,281, paid back by counting UTF-8 with TextEncoder, one size bound
 * for every non-string leaf, request ids as Map keys, declared (not defined) fields, and metaOf where `_meta`
 * was read by hand. Earlier, `connected(client)` (the legacy era's calls) became a function beside the client
 * class, not a method: a bundle that does not call it leaves its 107 bytes out. Later (issue 48), breaking the
 * runtime core's import circle changed the order of its modules in the bundle, not its minified bytes (35,504):
 * 11,998 and 11,077 bytes of gzip. Issue 42 gave the HTTP client transports their `auth` option (a hook of 30 bytes:
 * the option wraps the transport's fetch, and a LocalError the fetch throws passes unchanged), paid for by dropping
 * StreamableHttpError.resourceMetadata (a hand-written regex over WWW-Authenticate: the auth option reads the
 * challenge with oauth4webapi's parser); a probe refused by the auth option no longer falls back (15 bytes):
 * 11,993 and 11,078. Issue 43's probe fixes (asking again after a refusal naming our version, or a refused
 * initialize naming one) cost about 45 bytes, paid for by one message reusing the others' words: 11,988 and 11,076.
 * The modern-only refusal's advice (add an initialize-era version) took it to 12,026, paid back by shorter wording
 * in four messages (the outgoing frame, resumeStream, an x-mcp-header type, that advice itself): 11,998 and 11,089.
 */
const BUDGET_BYTES = 12_000;
/** Issue 42: the same client with `auth: oauthClient(…)`, oauth4webapi included, at most this much more. */
const AUTH_BUDGET_BYTES = 16_000;

describe('browser bundle budget', () => {
  it.each(['2025-11-25', '2026-07-28'] as const)(
    'createClient + StreamableHttpClientTransport from client-only %s output (and with oauthClient)',
    async (version) => {
      const dir = tempDir(`bundle-${version}`);
      writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
      writeFiles(join(dir, 'gen'), (await generated(version, { artifacts: ['client'] })).files);
      const { ours, auth } = await bundleSizes(dir, ['ours', 'auth']);
      expect(ours.nodeImports).toBe(false);
      expect(ours.headerEra).toBe(version >= '2026-07-28');
      expect(ours.gzip, `${ours.gzip} bytes gzip, ${ours.raw} minified`).toBeLessThanOrEqual(BUDGET_BYTES);
      expect(auth.nodeImports).toBe(false);
      expect(auth.gzip - ours.gzip, `${auth.gzip} bytes gzip with auth`).toBeLessThanOrEqual(AUTH_BUDGET_BYTES);
    },
  );
});

/**
 * Issue 46 item 5: an MCP Apps view (UiView + PostMessageTransport, every artifact generated with
 * `--ext io.modelcontextprotocol/ui`) at most 8 kB gzip. It is not there yet: on Dec 3 the view was 15,558 bytes
 * (2025-11-25) and 15,519 (2026-07-28), from 29,903 and 23,361 (channels carry only the MCP methods their
 * extension lists; an anyOf of constants compiles as an enum; no check that property names are strings;
 * collected errors in one statement; of a schema, only the enums the code reads; long enums in a loop). The runtime
 * alone (core engine, calls, frames, the postMessage transport, channel peer) is ~7.4 kB of it; the validators of
 * what a view receives are the rest, host-context-changed and tool-result most. VIEW_CEILING holds what was
 * reached, so the figure only goes down; the goal itself is the bench row's (`npm run bench -- --only
 * bundle-view`), which reports the miss. The host grew on Dec 3 (17,286 → 21,586 and 20,766 → 22,532): it now
 * receives and checks what ext-apps' App sends against MCP's direction (`channel.mcpMethodsReversed`), a view's
 * log messages, its tool list changes and its sampling requests, whose params (messages of every content kind,
 * tools with their schemas) are most of it.
 */
const VIEW_CEILING: Record<string, { view: number; host: number }> = {
  '2025-11-25': { view: 15_600, host: 21_600 },
  '2026-07-28': { view: 15_600, host: 22_550 },
};

describe('MCP Apps bundles', () => {
  const sizes = new Map<string, Awaited<ReturnType<typeof appsBundleSizes>>>();
  async function appsSizes(version: '2025-11-25' | '2026-07-28') {
    const known = sizes.get(version);
    if (known) return known;
    const dir = tempDir(`bundle-apps-${version}`);
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFiles(join(dir, 'gen'), (await generated(version, { extensions: ['io.modelcontextprotocol/ui'] })).files);
    const found = await appsBundleSizes(dir);
    sizes.set(version, found);
    return found;
  }

  it.each(['2025-11-25', '2026-07-28'] as const)(
    '%s: view and host no larger than reached on Dec 3',
    async (version) => {
      const { view, host } = await appsSizes(version);
      const ceiling = VIEW_CEILING[version]!;
      expect(view.gzip, `view ${view.gzip} bytes gzip, ${view.raw} minified`).toBeLessThanOrEqual(ceiling.view);
      expect(host.gzip, `host ${host.gzip} bytes gzip, ${host.raw} minified`).toBeLessThanOrEqual(ceiling.host);
    },
    120_000,
  );
});
