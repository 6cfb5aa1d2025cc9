/**
 * The Streamable HTTP server reads its version facts from the generated server it serves (or the PROTOCOL
 * it is given): the model, not its own defaults, says which `MCP-Protocol-Version` values it accepts and
 * which sessions may batch. `{ server }` is all a generated server needs: no PROTOCOL passed by hand.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStreamableHttpServer } from '@mcp-typegen/runtime/node';
import { built, importBuilt } from '../client/helpers/build.js';
import { listen, rawRequest } from './helpers/http.js';

type Json = Record<string, any>;
const gen: Json = {};
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  for (const v of ['2025-03-26', '2025-11-25'] as const) gen[v] = await importBuilt(await built(v), 'index.js');
});
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** `server`: the generated server handed in; `protocol`: its PROTOCOL with onSession. */
type Wiring = 'server' | 'protocol';

async function endpoint(version: '2025-03-26' | '2025-11-25', wiring: Wiring, serverOptions: Json = {}) {
  const g = gen[version];
  const server = g.createServer(
    { 'tools/list': () => ({ tools: [] }) },
    { serverInfo: { name: 's', version: '1' }, ...serverOptions },
  );
  const common = { keepAliveMs: 0, enableJsonResponse: true };
  const handler =
    wiring === 'server'
      ? createStreamableHttpServer({ ...common, server })
      : createStreamableHttpServer({
          ...common,
          protocol: g.PROTOCOL,
          onSession: (t) => void server.connect(t),
        });
  const http = await listen(handler);
  cleanups.push(async () => {
    await handler.close();
    await http.close();
  });
  return `${http.url}/mcp`;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function initialize(url: string, version: string): Promise<string> {
  const res = await rawRequest(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  expect(res.status).toBe(200);
  return res.headers['mcp-session-id'] as string;
}

async function ping(url: string, header: string, opening = '2025-03-26'): Promise<number> {
  const session = await initialize(url, opening);
  const headers = { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': header };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  return (await rawRequest(url, { method: 'POST', headers, body })).status;
}

describe('createStreamableHttpServer({ server }) and ({ protocol })', () => {
  it("accepts only the model's versions in MCP-Protocol-Version", async () => {
    // A 2025-03-26 server's facts know no 2025-06-18.
    for (const wiring of ['server', 'protocol'] as const) {
      expect(await ping(await endpoint('2025-03-26', wiring), '2025-06-18')).toBe(400);
      expect(await ping(await endpoint('2025-03-26', wiring), '2025-03-26')).toBe(200);
    }
  });

  it("{ server } follows the server's own narrowed supportedProtocolVersions", async () => {
    const narrowed = await endpoint('2025-11-25', 'server', { supportedProtocolVersions: ['2025-11-25'] });
    expect(await ping(narrowed, '2025-06-18', '2025-11-25')).toBe(400);
    expect(await ping(narrowed, '2025-11-25', '2025-11-25')).toBe(200);
  });

  it('batches follow the facts: a 2025-03-26 server refuses a batch in a session that agreed on 2024-11-05', async () => {
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    const send = async (url: string, version: string) => {
      const session = await initialize(url, version);
      const headers = { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': version };
      return rawRequest(url, { method: 'POST', headers, body: batch });
    };
    for (const wiring of ['server', 'protocol'] as const) {
      expect((await send(await endpoint('2025-03-26', wiring), '2024-11-05')).status).toBe(400);
      expect((await send(await endpoint('2025-03-26', wiring), '2025-03-26')).status).toBe(200);
    }
  });

  it('needs a server or an onSession, and the facts of a model: the runtime keeps no version list of its own', () => {
    // The types say so first (tsc checks these lines); JavaScript callers get the error at creation.
    // @ts-expect-error neither a server nor onSession
    expect(() => createStreamableHttpServer({})).toThrow(/pass `server` or `onSession`/);
    // @ts-expect-error onSession without the model's PROTOCOL
    expect(() => createStreamableHttpServer({ onSession: () => {} })).toThrow(
      /pass `server` \(a generated server\) or `protocol` \(the generated PROTOCOL\)/,
    );
  });
});
