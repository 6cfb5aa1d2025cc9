/**
 * Issue 43: how a 2026-07-28 client finds its server's era with `server/discover` (the transports'
 * backward-compatibility sections).
 * - a modern server's UnsupportedProtocolVersionError whose `supported` list names the version asked for: the
 *   client asks once more (the SDK does too), never falls back to initialize, and gives up after that once;
 * - a modern-only server that answers the probe after `probeTimeout` (slow to start): the client falls back
 *   to initialize, which that server refuses naming the versions it speaks, so the client asks again and
 *   connects as modern on the same connection — in memory and over stdio.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { built, importBuilt, type Built } from './helpers/build.js';
import { fixturesDir } from '../transports/helpers/runtime.js';

type Json = Record<string, any>;
let build: Built;
let gen: Json;
beforeAll(async () => {
  build = await built('2026-07-28');
  gen = await importBuilt(build, 'index.js');
});

const CLIENT_INFO = { name: 'probe', version: '1' };
const DISCOVERED = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: {},
  cacheScope: 'private',
  ttlMs: 0,
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'raw', version: '1' } },
};

/** A raw server: answers server/discover with `discover(n)` for the n-th probe; counts every method it gets. */
async function rawServer(discover: (n: number) => Json) {
  const [clientSide, serverSide] = gen.createInMemoryPair();
  const peer = new gen.RpcPeer(serverSide, {});
  const seen: string[] = [];
  peer.fallbackRequestHandler = (method: string) => {
    seen.push(method);
    if (method !== 'server/discover') throw new gen.ProtocolError(-32601, `Method not found: ${method}`);
    return discover(seen.filter((m) => m === 'server/discover').length);
  };
  await peer.start();
  const client = gen.createClient(clientSide, { clientInfo: CLIENT_INFO, eraCache: new Map() });
  return { client, seen };
}

const unsupported = () => {
  throw new gen.ProtocolError(-32022, 'Unsupported protocol version', {
    supported: ['2026-07-28'],
    requested: '2026-07-28',
  });
};

describe('an UnsupportedProtocolVersionError naming the version asked for', () => {
  it('is asked once more with it, and the client connects as modern', async () => {
    const { client, seen } = await rawServer((n) => (n === 1 ? unsupported() : DISCOVERED));
    await client.connect();
    expect(client.era).toBe('modern');
    expect(client.negotiatedVersion).toBe('2026-07-28');
    expect(seen).toEqual(['server/discover', 'server/discover']);
    await client.close();
  });

  it('twice: the client gives up with it, without falling back to initialize', async () => {
    const { client, seen } = await rawServer(unsupported);
    await expect(client.connect()).rejects.toMatchObject({ code: -32022 });
    expect(seen).toEqual(['server/discover', 'server/discover']);
  });
});

describe('a modern-only server that answers server/discover after probeTimeout', () => {
  it('in memory: the refused initialize names 2026-07-28, the client asks again and connects as modern', async () => {
    const [clientSide, serverSide] = gen.createInMemoryPair();
    const send = serverSide.send.bind(serverSide);
    let held = false;
    serverSide.send = (message: Json, options: unknown) => {
      if (held || message?.result?.supportedVersions === undefined) return send(message, options);
      held = true;
      return new Promise((resolve) => setTimeout(resolve, 300)).then(() => send(message, options));
    };
    const server = gen.createServer(
      { 'tools/list': () => ({ tools: [] }) },
      { serverInfo: { name: 'slow', version: '1' }, supportedProtocolVersions: ['2026-07-28'] },
    );
    await server.connect(serverSide);
    const client = gen.createClient(clientSide, { clientInfo: CLIENT_INFO, probeTimeout: 100, eraCache: new Map() });
    await client.connect();
    expect(client.era).toBe('modern');
    expect((await client.tools.list()).tools).toEqual([]);
    await client.close();
  });

  it('over stdio: the same, on the same process', async () => {
    const transport = new gen.StdioClientTransport({
      command: process.execPath,
      args: [join(fixturesDir, 'slow-discover-stdio-server.mjs'), build.jsDir, '500'],
    });
    const client = gen.createClient(transport, { clientInfo: CLIENT_INFO, probeTimeout: 150, eraCache: new Map() });
    try {
      await client.connect();
      expect(client.era).toBe('modern');
      expect((await client.tools.list()).tools.map((t: Json) => t.name)).toEqual(['slow-start']);
    } finally {
      await client.close();
    }
  });
});
