/**
 * Issue 36, item 2: `initialize` must be sent alone. A generated 2025-03-26 server (the version with batches)
 * answers an initialize inside a batch -32600 with its id, over the in-memory pair as over HTTP, and opens no
 * session with it; sent alone afterwards it is served.
 */
import { beforeAll, expect, it } from 'vitest';
import { built, importBuilt } from '../client/helpers/build.js';
import { listen, rawRequest } from '../transports/helpers/http.js';

let gen: any;
beforeAll(async () => {
  gen = await importBuilt(await built('2025-03-26'), 'index.js');
});

const INIT = { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '0' } };
const batch = JSON.stringify([
  { jsonrpc: '2.0', id: 'init', method: 'initialize', params: INIT },
  { jsonrpc: '2.0', id: 'p', method: 'ping' },
]);
const server = () =>
  gen.createServer({ 'tools/list': () => ({ tools: [] }) }, { serverInfo: { name: 's', version: '1' } });

it('in memory: -32600 for the batched initialize, then initialize alone is served', async () => {
  const [a, b] = gen.createInMemoryPair();
  await server().connect(b);
  const received: unknown[] = [];
  a.onmessage = (frame: unknown) => void received.push(frame);
  await a.start();
  await a.sendText(batch);
  for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 2));
  expect(received[0]).toEqual(
    expect.arrayContaining([expect.objectContaining({ id: 'init', error: expect.objectContaining({ code: -32600 }) })]),
  );
  await a.send({ jsonrpc: '2.0', id: 'alone', method: 'initialize', params: INIT });
  for (let i = 0; i < 100 && received.length === 1; i++) await new Promise((resolve) => setTimeout(resolve, 2));
  expect(received[1]).toMatchObject({ id: 'alone', result: { protocolVersion: '2025-03-26' } });
  await a.close();
});

it('over Streamable HTTP: 400, every member answered (-32600 for the initialize), no session opened', async () => {
  const handler = gen.createStreamableHttpServer({ server: server() });
  const http = await listen(handler);
  try {
    const res = await rawRequest(`${http.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: batch,
    });
    expect(res.status).toBe(400);
    // The ping is refused as a request without its session is: there is none (frame-corpus-server.ts).
    expect(JSON.parse(res.body)).toEqual([
      expect.objectContaining({ id: 'init', error: expect.objectContaining({ code: -32600 }) }),
      expect.objectContaining({ id: 'p', error: expect.objectContaining({ code: -32000 }) }),
    ]);
    expect(handler.sessions.size).toBe(0);
  } finally {
    await handler.close();
    await http.close();
  }
});
