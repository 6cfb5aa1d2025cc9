/**
 * Issue 35, item 2: a browser channel end bundles the params validators of the methods it receives, and no
 * others. The MCP Apps host and view (2025-11-25, `--ext io.modelcontextprotocol/ui`, every artifact) are
 * bundled by esbuild as test/platforms/bundle-budget.test.ts bundles the client (minified ESM for the
 * browser, built runtime): a validator's property names show which validators a bundle kept.
 *
 * Measured on Dec 1: the host was 484,885 bytes minified (63,897 gzip) with every validator; it is now
 * 143,645 (24,133): the validators of what a view sends it. The view was 18,031 (6,280) with none; it is
 * now 198,286 (29,697): the validators of what a host sends it (sampling and elicitation requests among them).
 * Dec 3 (issue 46 item 5): the channel carries only the MCP methods the extension file lists
 * (`channel.mcpMethods`), on every version: no sampling, elicitation, roots or tasks for the view, no
 * `initialize` for the host; host 113,154 (18,991), view 83,383 (16,771). Then the host also checks what a
 * view sends against MCP's direction (`channel.mcpMethodsReversed`: log messages, tool list changes, sampling
 * requests): 128,366 (21,586).
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { browserBundle } from '../../bench/lib/bundle.mjs';
import { describe, expect, it } from 'vitest';
import { ROOT, generated, tempDir, writeFiles } from '../helpers/generate.js';

async function bundle(dir: string, entry: string): Promise<{ text: string; gzip: number }> {
  const from = entry === 'host' ? 'server' : 'client';
  const name = entry === 'host' ? 'UiHost' : 'UiView';
  const source = `export { ${name} } from './gen/${from}.js';\nexport { PostMessageTransport } from '@mcp-typegen/runtime';\n`;
  return browserBundle(dir, entry, source);
}

/**
 * Property names only one validator family checks: the host receives the first two (ui/initialize, and a view's
 * sampling request, which the channel carries against MCP's direction), the view the other (host-context-changed).
 */
const HOST_ONLY = ['appCapabilities', 'modelPreferences'];
const VIEW_ONLY = ['toolInfo'];
/** What the MCP session carries and the channel does not: elicitation (view), initialize (host). */
const NEITHER = ['requestedSchema', 'clientInfo'];

describe('browser bundles of the MCP Apps channel ends', () => {
  it('each keeps the validators of what it receives, no result validators, nothing from node:', async () => {
    const dir = tempDir('channel-bundle');
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const output = await generated('2025-11-25', { extensions: ['io.modelcontextprotocol/ui'] });
    writeFiles(join(dir, 'gen'), output.files);
    const [host, view] = [await bundle(dir, 'host'), await bundle(dir, 'view')];
    for (const name of HOST_ONLY)
      expect([name, host.text.includes(name), view.text.includes(name)]).toEqual([name, true, false]);
    for (const name of VIEW_ONLY)
      expect([name, host.text.includes(name), view.text.includes(name)]).toEqual([name, false, true]);
    for (const name of NEITHER)
      expect([name, host.text.includes(name), view.text.includes(name)]).toEqual([name, false, false]);
    // The host's capabilities are in results only. (A Tool's inputSchema reaches the host inside a view's sampling
    // request, and the view inside its host context's toolInfo.)
    expect(`${host.text}${view.text}`).not.toContain('hostCapabilities');
    expect(`${host.text}${view.text}`).not.toMatch(/["']node:/);
    // Each well under the 484,885 bytes the host was with every validator, and the 198,286 of the view before
    // the channel's MCP methods were listed.
    expect(host.text.length).toBeLessThan(135_000);
    expect(view.text.length).toBeLessThan(100_000);
  }, 60_000);
});
