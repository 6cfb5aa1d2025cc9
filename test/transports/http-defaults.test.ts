/**
 * Issue 36, item 4: safe defaults of the HTTP servers.
 * - CORS is its own option: by default no origin gets CORS headers; turning DNS-rebinding protection off
 *   reflects no origin; `cors` lists origins (credentials only when asked, never with `'*'`).
 * - Sessions are capped per client as well as in total; at a cap the session idle the longest is reclaimed
 *   first (its client meets 404 and opens a new one), and only when none is idle is an initialize refused
 *   (429 at the client's cap, 503 at the total), each with a Retry-After. The HTTP+SSE and WebSocket servers,
 *   whose sessions are open connections, cap them per client too (429, with Retry-After).
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createStreamableHttpServer,
  type StreamableHttpServerOptions,
} from '../../templates/transports/http/server/endpoint.js';
import { createSseLegacyServer } from '../../templates/transports/sse/server.js';
import type { StreamableHttpServerTransport } from '../../templates/transports/http/server/session.js';
import { listen, modelProtocol, rawRequest } from './helpers/http.js';
import { listenWebSocket } from './helpers/websocket.js';
import { respond } from './helpers/responder.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

async function serve(options: Partial<StreamableHttpServerOptions> = {}) {
  const handler = createStreamableHttpServer({
    keepAliveMs: 0,
    protocol: await modelProtocol(),
    ...options,
    onSession: async (connection) => {
      const transport = connection as StreamableHttpServerTransport;
      respond(transport);
      await transport.start();
    },
  });
  const http = await listen(handler);
  cleanups.push(async () => {
    await handler.close();
    await http.close();
  });
  return { handler, url: `${http.url}/mcp` };
}

/** initialize from `client` (the x-client header, read by the test's clientKey): the HTTP status and session. */
async function init(
  url: string,
  client = 'a',
): Promise<{ status: number; session: string | undefined; retryAfter: string | undefined }> {
  const res = await rawRequest(url, { method: 'POST', headers: { ...JSON_HEADERS, 'x-client': client }, body: INIT });
  const retryAfter = res.headers['retry-after'];
  return { status: res.status, session: res.headers['mcp-session-id'] as string | undefined, retryAfter };
}

/** Opens the session's standalone GET stream and keeps it open (the session is then not idle). */
async function holdStream(url: string, session: string): Promise<void> {
  const req: ClientRequest = httpRequest(url, {
    headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
  });
  cleanups.push(() => void req.destroy());
  await new Promise<void>((resolve, reject) => {
    req.on('response', (res) => (res.statusCode === 200 ? resolve() : reject(new Error(`GET ${res.statusCode}`))));
    req.on('error', reject);
    req.end();
  });
}

const byHeader = { clientKey: (req: { headers: Record<string, unknown> }) => String(req.headers['x-client']) };

describe('CORS is its own option', () => {
  const origin = 'http://localhost:5173';

  it('by default no origin gets CORS headers, not even one rebinding protection allows', async () => {
    const { url } = await serve();
    const res = await rawRequest(url, { method: 'POST', headers: { ...JSON_HEADERS, origin }, body: INIT });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a refused origin and an origin without CORS are logged once each; a same-origin page is not', async () => {
    const log: string[] = [];
    const { url } = await serve({ log: (message) => log.push(message), cors: { origins: ['http://localhost:9999'] } });
    const post = (from: string) =>
      rawRequest(url, { method: 'POST', headers: { ...JSON_HEADERS, origin: from }, body: INIT });
    for (let i = 0; i < 3; i++) {
      expect((await post(origin)).status).toBe(200);
      expect((await post('https://app.example')).status).toBe(403);
    }
    await post(new URL(url).origin);
    expect(log).toEqual([
      `MCP server: no CORS headers for Origin ${origin}: its pages cannot read the answers; allow it with cors.origins`,
      'MCP server: refused Origin https://app.example (403); allow it with allowedOrigins (and cors)',
    ]);
  });

  it('rebinding protection off lets any origin send, but reflects none', async () => {
    const { url } = await serve({ dnsRebindingProtection: false });
    const res = await rawRequest(url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, origin: 'http://evil.example' },
      body: INIT,
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('`cors` lists origins; credentials only when asked; another origin gets nothing', async () => {
    const { url } = await serve({ cors: { origins: [origin], credentials: true } });
    const listed = await rawRequest(url, { method: 'POST', headers: { ...JSON_HEADERS, origin }, body: INIT });
    expect(listed.headers['access-control-allow-origin']).toBe(origin);
    expect(listed.headers['access-control-allow-credentials']).toBe('true');
    const other = await rawRequest(url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, origin: 'http://127.0.0.1:9' },
      body: INIT,
    });
    expect(other.status).toBe(200); // rebinding protection allows it: a local origin
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("`'*'` answers with `*`, never the origin, and refuses credentials when the server is created", async () => {
    const { url } = await serve({ cors: { origins: '*' } });
    const res = await rawRequest(url, { method: 'POST', headers: { ...JSON_HEADERS, origin }, body: INIT });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    const protocol = await modelProtocol();
    const onSession = () => {};
    expect(() =>
      createStreamableHttpServer({ protocol, onSession, cors: { origins: '*', credentials: true } }),
    ).toThrow(/credentials/);
    expect(() => createSseLegacyServer({ onSession, cors: { origins: '*', credentials: true } })).toThrow(
      /credentials/,
    );
  });

  it('the HTTP+SSE server follows the same option', async () => {
    const legacy = createSseLegacyServer({ dnsRebindingProtection: false, onSession: () => {} });
    const http = await listen(legacy);
    cleanups.push(() => http.close());
    const res = await rawRequest(`${http.url}/messages?sessionId=x`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('sessions: capped per client and in total, idle ones reclaimed first', () => {
  it('a client at its cap reclaims its own idlest session; when none is idle it gets 429, others are served', async () => {
    const { handler, url } = await serve({ ...byHeader, maxSessionsPerClient: 2 });
    const a1 = await init(url, 'a');
    const a2 = await init(url, 'a');
    const a3 = await init(url, 'a');
    expect(a3.status).toBe(200);
    expect([...handler.sessions.keys()].sort()).toEqual([a2.session, a3.session].sort());

    await holdStream(url, String(a2.session));
    await holdStream(url, String(a3.session));
    const refused = await init(url, 'a');
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toMatch(/^[1-9]\d*$/); // RFC 9110: seconds to wait before trying again
    expect((await init(url, 'b')).status).toBe(200);
    expect(handler.sessions.has(String(a1.session))).toBe(false);
  });

  it('at the total cap the session idle the longest is reclaimed; 503 only when none is idle', async () => {
    const { handler, url } = await serve({ ...byHeader, maxSessions: 2 });
    const first = await init(url, 'a');
    const second = await init(url, 'b');
    // The first is used again: the second is now the idlest.
    const ping = await rawRequest(url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': String(first.session), 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(ping.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5)); // lastActive has millisecond resolution
    await rawRequest(url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': String(first.session), 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    });
    const third = await init(url, 'c');
    expect(third.status).toBe(200);
    expect(handler.sessions.has(String(second.session))).toBe(false);
    expect(handler.sessions.has(String(first.session))).toBe(true);

    await holdStream(url, String(first.session));
    await holdStream(url, String(third.session));
    expect(await init(url, 'd')).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^[1-9]\d*$/) });
  });
});

/**
 * Opens a request that stays open on success (an SSE GET, a WebSocket upgrade); resolves with its status (and,
 * for a refusal, its Retry-After in `retryAfter`).
 */
function openHeld(url: string, headers: Record<string, string>, retryAfter: string[] = []): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers });
    cleanups.push(() => void req.destroy());
    req.on('response', (res) => {
      res.resume();
      retryAfter.push(String(res.headers['retry-after']));
      resolve(res.statusCode ?? 0);
    });
    req.on('upgrade', (_res, socket) => {
      cleanups.push(() => void socket.destroy());
      resolve(101);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('connection-held sessions are capped per client too', () => {
  it('HTTP+SSE: 429 for a client at its cap, others served', async () => {
    const legacy = createSseLegacyServer({
      ...byHeader,
      maxSessionsPerClient: 1,
      keepAliveMs: 0,
      onSession: (t) => t.start(),
    });
    const http = await listen(legacy);
    cleanups.push(async () => {
      await legacy.close();
      await http.close();
    });
    const retryAfter: string[] = [];
    const sse = (client: string) =>
      openHeld(`${http.url}/sse`, { accept: 'text/event-stream', 'x-client': client }, retryAfter);
    expect(await sse('a')).toBe(200);
    expect(await sse('a')).toBe(429);
    expect(retryAfter[1]).toMatch(/^[1-9]\d*$/);
    expect(await sse('b')).toBe(200);
  });

  it('WebSocket: 429 for a client at its cap, others served', async () => {
    const endpoint = await listenWebSocket({ ...byHeader, maxSessionsPerClient: 1, onSession: (t) => t.start() });
    cleanups.push(() => endpoint.close());
    const retryAfter: string[] = [];
    const upgrade = (client: string) =>
      openHeld(
        `${endpoint.url.replace('ws:', 'http:')}/mcp`,
        {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          'sec-websocket-protocol': 'mcp',
          'x-client': client,
        },
        retryAfter,
      );
    expect(await upgrade('a')).toBe(101);
    expect(await upgrade('a')).toBe(429);
    expect(retryAfter).toEqual([expect.stringMatching(/^[1-9]\d*$/)]);
    expect(await upgrade('b')).toBe(101);
  });
});
