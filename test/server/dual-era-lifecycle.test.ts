/**
 * Issue 36, item 3: the dual-era 2026-07-28 server's legacy handshake and removed methods, as the transport
 * document and the 2025-11-25 server answer them.
 * - a legacy `initialize` is validated like the 2025-11-25 one (-32602 with the pointer), and a second one is
 *   refused (-32600), on the 2026-07-28 and the 2025-11-25 server alike;
 * - a modern request for `ping` (removed in 2026-07-28) gets -32601, and over HTTP 404;
 * - over HTTP a 2026-07-28 request without the required `_meta` gets -32602 with 400;
 * - (item 5) `subscriptions/listen` is acknowledged on an SSE stream also when the server answers JSON.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { built, importBuilt } from '../client/helpers/build.js';
import { listen, rawRequest } from '../transports/helpers/http.js';

const gens: Record<string, any> = {};
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  for (const version of ['2025-11-25', '2026-07-28'])
    gens[version] = await importBuilt(await built(version as any), 'index.js');
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const INFO = { name: 'dual-era', version: '1' };
const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } };
const tools = { 'tools/call': () => ({ content: [] }) };

async function rawPeer(version: string) {
  const gen = gens[version];
  const [a, b] = gen.createInMemoryPair();
  const server = gen.createServer(tools, { serverInfo: INFO });
  await server.connect(b);
  const peer = new gen.RpcPeer(a, {});
  await peer.start();
  cleanups.push(() => peer.close());
  return peer;
}

describe.each(['2025-11-25', '2026-07-28'])('the %s server, legacy initialize', (version) => {
  it.each([
    ['protocolVersion not a string', { ...INIT, protocolVersion: 5 }, '/protocolVersion'],
    ['capabilities not an object', { ...INIT, capabilities: 'nope' }, '/capabilities'],
    ['clientInfo without a name', { ...INIT, clientInfo: { version: '0' } }, '/clientInfo'],
  ])('%s: -32602 naming the pointer', async (_name, params, pointer) => {
    const peer = await rawPeer(version);
    const error = await peer.request('initialize', params).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32602 });
    expect(String((error as Error).message)).toContain(pointer);
  });

  it('missing params: -32602', async () => {
    const peer = await rawPeer(version);
    await expect(peer.request('initialize')).rejects.toMatchObject({ code: -32602 });
  });

  it('a second initialize, whatever version it names, is refused with -32600', async () => {
    const peer = await rawPeer(version);
    expect(await peer.request('initialize', INIT)).toMatchObject({ protocolVersion: '2025-11-25' });
    await expect(peer.request('initialize', { ...INIT, protocolVersion: '2025-06-18' })).rejects.toMatchObject({
      code: -32600,
    });
  });
});

describe('the 2026-07-28 server, modern requests', () => {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };

  it('ping, removed in 2026-07-28, is -32601; a legacy session still gets its answer', async () => {
    const modern = await rawPeer('2026-07-28');
    await expect(modern.request('ping', { _meta: meta })).rejects.toMatchObject({ code: -32601 });
    const legacy = await rawPeer('2026-07-28');
    await legacy.request('initialize', INIT);
    await expect(legacy.request('ping')).resolves.toEqual({});
  });

  async function serveHttp(options: Record<string, unknown> = {}, handlers: Record<string, unknown> = tools) {
    const gen = gens['2026-07-28'];
    const server = gen.createServer(handlers, { serverInfo: INFO });
    const handler = gen.createStreamableHttpServer({ server, ...options });
    const http = await listen(handler);
    cleanups.push(async () => {
      await handler.close();
      await http.close();
    });
    return `${http.url}/mcp`;
  }
  const headers = (method: string) => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
  });

  it('over HTTP: ping is 404 with -32601', async () => {
    const url = await serveHttp();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: meta } });
    const res = await rawRequest(url, { method: 'POST', headers: headers('ping'), body });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ id: 1, error: { code: -32601 } });
  });

  it('over HTTP: a request without the required _meta is 400 with -32602', async () => {
    const url = await serveHttp();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const res = await rawRequest(url, { method: 'POST', headers: headers('tools/list'), body });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ id: 2, error: { code: -32602 } });
  });

  it('subscriptions/listen in JSON mode: still a stream, and its acknowledgement arrives', async () => {
    const listen = (_params: unknown, ctx: any) => {
      void ctx.notify('notifications/subscriptions/acknowledged', { notifications: {} });
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({})));
    };
    const url = await serveHttp({ enableJsonResponse: true }, { ...tools, 'subscriptions/listen': listen });
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'subscriptions/listen',
      params: { _meta: meta, notifications: {} },
    });
    const first = await new Promise<{ type: string | undefined; text: string }>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers: headers('subscriptions/listen') }, (res) => {
        res.setEncoding('utf8');
        let text = '';
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('acknowledged')) {
            resolve({ type: res.headers['content-type'], text });
            req.destroy();
          }
        });
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(first.type).toBe('text/event-stream');
    expect(first.text).toContain('notifications/subscriptions/acknowledged');
  });
});
