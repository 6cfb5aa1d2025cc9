/**
 * The generated 2026-07-28 and 2025-11-25 clients against the official servers, and the official clients
 * against generated 2026-07-28 and 2025-06-18 servers, all over stdio with default settings except where a
 * test says: each pair must connect on the era and version the rules give and make a real tools/call.
 * The v2 SDK speaks both eras over stdio behind its own switches: `serveStdio` on the server (the opening
 * exchange picks the era), `versionNegotiation: { mode: 'auto' }` on the client (its default is legacy only).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as SdkStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { StdioClientTransport } from '@mcp-typegen/runtime/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING_BIN, built, compileFixture, importBuilt, type Version } from '../client/helpers/build.js';

type Json = Record<string, any>;
const HERE = dirname(fileURLToPath(import.meta.url));
const SDK2_SERVER = join(HERE, 'fixtures', 'sdk2-server.mjs');
const SDK1_SERVER = join(HERE, 'fixtures', 'sdk1-server.mjs');
const gen = new Map<Version, any>();

beforeAll(async () => {
  for (const v of ['2025-11-25', '2026-07-28'] as Version[]) gen.set(v, await importBuilt(await built(v), 'index.js'));
});

const text = (result: Json) => result.content.map((c: Json) => c.text).join('');

async function generatedClient(version: Version, args: string[], options: Json = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' });
  const client = gen.get(version).createClient(transport, {
    clientInfo: { name: 'generated', version: '1' },
    eraCache: new Map(),
    ...options,
  });
  await client.connect();
  return client;
}

/** Generated client version, the server's name and command line, the era and version expected, echo's reply. */
const EVERYTHING = 'server-everything';
const SDK2 = '@modelcontextprotocol/server 2.4.0 (serveStdio)';
const SDK1 = '@modelcontextprotocol/sdk 1.32.2';
const TO_OFFICIAL: [Version, string, string[], 'legacy' | 'modern', string, string][] = [
  ['2026-07-28', EVERYTHING, [EVERYTHING_BIN, 'stdio'], 'legacy', '2025-11-25', 'Echo: hi'],
  ['2026-07-28', SDK2, [SDK2_SERVER], 'modern', '2026-07-28', 'sdk2|hi'],
  ['2025-11-25', SDK2, [SDK2_SERVER], 'legacy', '2025-11-25', 'sdk2|hi'],
  ['2026-07-28', SDK1, [SDK1_SERVER], 'legacy', '2025-11-25', 'sdk1|hi'],
  ['2025-11-25', SDK1, [SDK1_SERVER], 'legacy', '2025-11-25', 'sdk1|hi'],
];

describe('generated clients → official servers', () => {
  it.each(TO_OFFICIAL)('%s client → %s', async (version, _name, args, era, agreed, reply) => {
    const client = await generatedClient(version, args);
    try {
      expect([client.era, client.protocolVersion]).toEqual([era, agreed]);
      // server-everything's echo reads `message`, the fixtures' `text`.
      const result = await client.tools.call({ name: 'echo', arguments: { message: 'hi', text: 'hi' } });
      expect(text(result)).toBe(reply);
    } finally {
      await client.close();
    }
  });
});

describe('official clients → generated servers', () => {
  const fixture = (version: Version) => compileFixture(version, join(HERE, 'fixtures', 'stdio-server.ts'));

  for (const version of ['2026-07-28', '2025-06-18'] as Version[]) {
    it(`@modelcontextprotocol/sdk 1.32.2 → generated ${version} server`, async () => {
      const client = new SdkClient({ name: 'sdk1', version: '1' });
      await client.connect(
        new SdkStdio({ command: process.execPath, args: [await fixture(version)], stderr: 'ignore' }),
      );
      try {
        const agreed = version === '2026-07-28' ? '2025-11-25' : version;
        expect(client.getServerVersion()).toEqual({ name: `stdio-${version}`, version: '1' });
        const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
        expect(text(result as Json)).toBe(`${agreed}|hi|0`);
      } finally {
        await client.close();
      }
    });

    it(`@modelcontextprotocol/client 2.4.0 (versionNegotiation auto) → generated ${version} server`, async () => {
      // 'auto' probes with server/discover and falls back to initialize: modern with the 2026-07-28 server.
      const client = new V2Client(
        { name: 'sdk2', version: '1' },
        {
          supportedProtocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18'],
          versionNegotiation: { mode: 'auto' },
        },
      );
      await client.connect(
        new V2Stdio({ command: process.execPath, args: [await fixture(version)], stderr: 'ignore' }),
      );
      try {
        const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
        expect(text(result as Json)).toBe(`${version}|hi|0`);
      } finally {
        await client.close();
      }
    });
  }
});
