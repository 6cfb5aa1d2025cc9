/**
 * A new spec version with no new features is a change to schema/mcp-versions.json alone (issue 14).
 *
 * The test makes that change to a copy of the built tool: its manifest gains one entry, 2027-01-15, for a
 * schema with 2026-07-28's definitions (other bytes, so another sha256) and the method facts the
 * version-facts script would write for it. src/ and templates/ are the repository's, unchanged. The copy
 * generates the new version, and the generated peers speak it with each other and down to the versions
 * before it, in memory and over Streamable HTTP: what the runtime checks comes from the generated facts
 * (the runtime keeps no version list of its own).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from '@mcp-typegen/runtime';
import { createStreamableHttpServer } from '@mcp-typegen/runtime/node';
import { ROOT, SCHEMA_DIR, TMP, built, importBuilt, transpileFile, type Version } from '../client/helpers/build.js';
import { listen } from '../transports/helpers/http.js';

type Json = Record<string, any>;
const SIXTH = '2027-01-15';
const MODERN: Version = '2026-07-28';
const run = promisify(execFile);

let sixth: Json;
let dir: string;
const gen = new Map<Version, Json>();
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  mkdirSync(TMP, { recursive: true });
  dir = mkdtempSync(join(TMP, 'sixth-version-'));
  // The tool as it ships (package.json, dist/src, the bundled bin in dist/cli, schema, templates): node_modules resolve from the repository.
  const tool = join(dir, 'tool');
  cpSync(join(ROOT, 'package.json'), join(tool, 'package.json'));
  for (const part of ['dist/src', 'dist/cli', 'schema', 'templates'])
    cpSync(join(ROOT, part), join(tool, part), { recursive: true });

  // The new version's schema: 2026-07-28's definitions, different bytes.
  const base = JSON.parse(readFileSync(join(SCHEMA_DIR, MODERN, 'schema.json'), 'utf8')) as Json;
  const text = `${JSON.stringify({ ...base, $comment: `MCP ${SIXTH}: no new features` }, null, 2)}\n`;
  mkdirSync(join(dir, 'schemas', SIXTH), { recursive: true });
  writeFileSync(join(dir, 'schemas', SIXTH, 'schema.json'), text);

  // The one change: a manifest entry, with the facts scripts/version-facts.mjs computes (the same methods).
  const manifestFile = join(tool, 'schema', 'mcp-versions.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { versions: Json[] };
  const previous = manifest.versions.find((v) => v.version === MODERN)!;
  manifest.versions.push({
    ...previous,
    version: SIXTH,
    sha256: createHash('sha256').update(text).digest('hex'),
    url: `https://example.invalid/${SIXTH}/schema.json`,
  });
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);

  const out = join(dir, 'generated');
  // The bin, as published (the CLI bundle).
  const { bin } = JSON.parse(readFileSync(join(tool, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const cli = join(tool, bin['mcp-typegen']!);
  const args = ['generate', '--spec', SIXTH, '--schema-dir', join(dir, 'schemas'), '--out', out];
  const { stderr } = await run(process.execPath, [cli, ...args], { cwd: dir });
  // A known version: no "not a known MCP schema" warning.
  expect(stderr).not.toMatch(/not a known MCP schema/);

  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  mkdirSync(join(dir, 'js'), { recursive: true });
  for (const name of readdirSync(out)) {
    // validators.js is JavaScript already (its .d.ts has nothing to run).
    if (name.endsWith('.js')) copyFileSync(join(out, name), join(dir, 'js', name));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts'))
      transpileFile(join(out, name), join(dir, 'js', name.replace(/\.ts$/, '.js')));
  }
  sixth = (await import(/* @vite-ignore */ join(dir, 'js', 'index.js'))) as Json;
  for (const v of [MODERN, '2025-11-25'] as Version[]) gen.set(v, await importBuilt(await built(v), 'index.js'));
}, 60_000);

afterAll(async () => {
  for (const c of cleanups.splice(0)) await c();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const peers = (version: Version | typeof SIXTH): Json => (version === SIXTH ? sixth : gen.get(version)!);
const isModern = (version: string) => version >= MODERN;

function serverOf(version: Version | typeof SIXTH) {
  return peers(version).createServer(
    {
      'tools/call': (params: Json, ctx: Json) => ({
        content: [{ type: 'text', text: `${ctx.session.protocolVersion}|${params.arguments.text}` }],
        ...(isModern(version) ? { resultType: 'complete' } : {}),
      }),
    },
    { serverInfo: { name: `server-${version}`, version: '1' } },
  );
}

describe(`a sixth version (${SIXTH}) added to the manifest alone`, () => {
  it('is generated as a known version, newest in the facts the runtime reads', () => {
    expect(sixth.PROTOCOL.version).toBe(SIXTH);
    expect(sixth.PROTOCOL.protocolVersion).toBe(SIXTH);
    expect(sixth.PROTOCOL.facts.versions.map((v: Json) => [v.version, v.era])).toEqual([
      [SIXTH, 'modern'],
      [MODERN, 'modern'],
      ['2025-11-25', 'legacy'],
      ['2025-06-18', 'legacy'],
      ['2025-03-26', 'legacy'],
      ['2024-11-05', 'legacy'],
    ]);
  });

  for (const [client, server, want, era] of [
    [SIXTH, SIXTH, SIXTH, 'modern'],
    [SIXTH, MODERN, MODERN, 'modern'],
    [MODERN, SIXTH, MODERN, 'modern'],
    ['2025-11-25', SIXTH, '2025-11-25', 'legacy'],
    [SIXTH, '2025-11-25', '2025-11-25', 'legacy'],
  ] as const) {
    it(`in memory: client ${client} ↔ server ${server} agree on ${era} ${want}`, async () => {
      const c = peers(client);
      const [clientSide, serverSide] = c.createInMemoryPair();
      await serverOf(server).connect(serverSide);
      const cli = c.createClient(clientSide, {
        clientInfo: { name: `client-${client}`, version: '1' },
        eraCache: new Map(),
        probeTimeout: 2000,
      });
      await cli.connect();
      expect([cli.era, cli.protocolVersion]).toEqual([era, want]);
      const result = await cli.tools.call({ name: 'echo', arguments: { text: 'hi' } });
      expect(result.content).toEqual([{ type: 'text', text: `${want}|hi` }]);
      await cli.close();
    });
  }

  // `server` (what a generated server passes), or `onSession` wired by hand with the generated `PROTOCOL`:
  // either way the endpoint checks `MCP-Protocol-Version` against the model's versions.
  for (const [client, server, want, wiring] of [
    [SIXTH, SIXTH, SIXTH, 'server'],
    [SIXTH, SIXTH, SIXTH, 'onSession + protocol'],
    [SIXTH, MODERN, MODERN, 'server'],
    ['2025-11-25', SIXTH, '2025-11-25', 'server'],
  ] as const) {
    it(`over Streamable HTTP (${wiring}): client ${client} → server ${server} on ${want}, headers included`, async () => {
      const srv = serverOf(server);
      const handler = createStreamableHttpServer(
        wiring === 'server'
          ? { keepAliveMs: 0, server: srv }
          : { keepAliveMs: 0, protocol: peers(server).PROTOCOL, onSession: (t) => void srv.connect(t) },
      );
      const http = await listen(handler);
      cleanups.push(async () => {
        await handler.close();
        await http.close();
      });
      const versionHeaders: string[] = [];
      const fetchSpy: typeof fetch = (input, init) => {
        const header = new Headers(init?.headers).get('mcp-protocol-version');
        if (header !== null) versionHeaders.push(header);
        return fetch(input, init);
      };
      const cli = peers(client).createClient(
        new StreamableHttpClientTransport(`${http.url}/mcp`, { fetch: fetchSpy }),
        { clientInfo: { name: 'c', version: '1' }, eraCache: new Map() },
      );
      await cli.connect();
      expect(cli.protocolVersion).toBe(want);
      const result = await cli.tools.call({ name: 'echo', arguments: { text: 'hi' } });
      expect(result.content).toEqual([{ type: 'text', text: `${want}|hi` }]);
      // The call's POST carried the version agreed.
      expect(versionHeaders.at(-1)).toBe(want);
      await cli.close();
    });
  }
});
