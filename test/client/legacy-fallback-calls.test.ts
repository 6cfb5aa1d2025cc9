/**
 * Issue 36 item 5: a 2026-07-28 client that fell back to a 2025-11-25 server calls what that server's
 * version still has through `connected(client)` (typed per era: test/client/type-tests/client-2026.ts):
 * `ping()`, `logging.setLevel()`, `resources.subscribe()`/`unsubscribe()` reach the server; on a modern
 * server `connected(client)` is the modern client, without them.
 */
import { describe, expect, it } from 'vitest';
import { built, importBuilt } from './helpers/build.js';

type Json = Record<string, any>;

async function pair(serverVersion: '2025-11-25' | '2026-07-28', handlers: Json) {
  const s = await importBuilt(await built(serverVersion), 'index.js');
  const c = await importBuilt(await built('2026-07-28'), 'index.js');
  const [clientSide, serverSide] = c.createInMemoryPair();
  await s.createServer(handlers, { serverInfo: { name: 's', version: '1' } }).connect(serverSide);
  const client = c.createClient(clientSide, { clientInfo: { name: 'c', version: '1' }, eraCache: new Map() });
  return Object.assign(client, { connected: () => c.connected(client) });
}

describe('connected(client): the client typed and stubbed by the era it found', () => {
  it('after falling back: ping, logging/setLevel and resources/(un)subscribe reach the legacy server', async () => {
    const seen: string[] = [];
    const client = await pair('2025-11-25', {
      'resources/list': () => ({ resources: [] }),
      'resources/subscribe': (p: Json) => (seen.push(`subscribe ${p.uri}`), {}),
      'resources/unsubscribe': (p: Json) => (seen.push(`unsubscribe ${p.uri}`), {}),
      'logging/setLevel': (p: Json) => (seen.push(`level ${p.level}`), {}),
    });
    await client.connect();
    const connected = client.connected();
    expect(connected.era).toBe('legacy');
    expect(connected).toBe(client);
    expect(await connected.ping()).toEqual({ resultType: 'complete' });
    await connected.logging.setLevel({ level: 'warning' });
    await connected.resources.subscribe({ uri: 'file:///a' });
    await connected.resources.unsubscribe({ uri: 'file:///a' });
    // The modern calls of the group are still there.
    expect((await connected.resources.list()).resources).toEqual([]);
    expect(seen).toEqual(['level warning', 'subscribe file:///a', 'unsubscribe file:///a']);
    await client.close();
  });

  it('on a modern server: the modern client, without the legacy calls', async () => {
    const client = await pair('2026-07-28', { 'tools/list': () => ({ tools: [] }) });
    await client.connect();
    const connected = client.connected();
    expect(connected.era).toBe('modern');
    expect(connected.ping).toBeUndefined();
    await client.close();
  });

  it('before connect(): modern, as the client is until it falls back', async () => {
    const client = await pair('2026-07-28', {});
    expect(client.connected().era).toBe('modern');
  });
});
