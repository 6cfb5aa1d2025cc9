/**
 * Issue 46: a vendor notification or request the server sends is checked against the extension's schema before
 * the client's handler runs, without `validate` (which stays opt-in for the MCP methods). The generated client
 * (2025-11-25 + acme/jobs) on an in-memory pair with a raw server end: `acme/jobs.finished` with a `job` that is
 * not an AcmeJob never reaches the handler; a valid one does.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createInMemoryPair } from '@mcp-typegen/runtime';
import { eventually } from '../helpers/eventually.js';
import { generatedWithAcme, importGenerated } from './helpers.js';

type Json = Record<string, any>;
let gen: Json;
const open: Array<{ close(): unknown }> = [];

beforeAll(async () => {
  gen = await importGenerated('vendor-received', await generatedWithAcme('2025-11-25'));
}, 120_000);

afterEach(async () => {
  for (const end of open.splice(0)) await end.close();
});

/** A generated client on one end; the other end answers initialize and sends what the test posts. */
async function connected(): Promise<{ client: any; send: (message: Json) => Promise<void> }> {
  const [clientSide, serverSide] = createInMemoryPair();
  serverSide.onmessage = (message: any) => {
    if (message.method !== 'initialize') return;
    const result = { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'raw', version: '1' } };
    void serverSide.send({ jsonrpc: '2.0', id: message.id, result });
  };
  await serverSide.start();
  const client = gen['createClient'](clientSide, { clientInfo: { name: 'c', version: '1' } });
  await client.connect();
  open.push(client);
  return { client, send: (message) => serverSide.send({ jsonrpc: '2.0', ...message } as never) };
}

const job = { id: 'j1', pipeline: 'nightly', state: 'succeeded', createdAt: '2026-01-01T00:00:00Z' };

describe('vendor messages a client receives', () => {
  it('a vendor notification whose params break the schema never reaches its handler; a valid one does', async () => {
    const { client, send } = await connected();
    const got: Json[] = [];
    client.setNotificationHandler('acme/jobs.finished', (params: Json) => void got.push(params));
    await send({ method: 'acme/jobs.finished', params: { job: { ...job, progress: 'lots' } } });
    await send({ method: 'acme/jobs.finished', params: {} });
    await send({ method: 'acme/jobs.finished', params: { job } });
    await eventually(() => got.length > 0, 3000);
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toEqual([{ job }]);
  });
});
