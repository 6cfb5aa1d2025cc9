/**
 * Issue 36, items 4 and 5: a cancelled call reaches the server at once, whatever the server does with the
 * request's POST. The runtime's Streamable HTTP client (an RpcEngine on StreamableHttpClientTransport, as the
 * generated client runs) cancels a call to a tool that only ends when its signal aborts:
 * - against SDK v1 in JSON mode (`enableJsonResponse`: the POST's answer is held until the result);
 * - against SDK v1 in SSE mode behind a proxy that holds every response's headers until its body is complete;
 * - against the runtime's own server (2025-11-25 session), whose handler's signal aborts at once;
 * - against a Python MCP SDK server in JSON mode (`json_response=True`), when a Python with `mcp` can be had
 *   (test/helpers/python.ts; skipped with the reason printed otherwise).
 * Before, the client posted `notifications/cancelled` only once the request's POST was answered, so the first
 * two never heard it and ran the tool to its end.
 */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { StreamableHttpClientTransport } from '../../templates/transports/http/client/transport.js';
import {
  createStreamableHttpServer,
  type StreamableHttpServerTransport,
} from '../../templates/transports/http/server/endpoint.js';
import { RpcEngine } from '../../templates/core/engine.js';
import { RpcPeer } from '../../templates/core/peer.js';
import { listen, modelProtocol } from './helpers/http.js';
import { eventually } from '../helpers/eventually.js';
import { pythonWithMcp } from '../helpers/python.js';

/** A port nothing listens on now (for a server that takes its port as an argument). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** What the server side saw: the tool started, and its signal aborted. */
type Seen = { started: boolean; aborted: boolean };

/** SDK v1's McpServer with a `wait` tool that ends only when cancelled; JSON mode or SSE. */
async function sdkServer(enableJsonResponse: boolean, seen: Seen) {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const servers: McpServer[] = [];
  const http = await listen(async (req, res) => {
    const sid = req.headers['mcp-session-id'] as string | undefined;
    let transport = sid ? transports.get(sid) : undefined;
    if (!transport) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse,
        onsessioninitialized: (id) => void transports.set(id, created),
      });
      transport = created;
      const server = new McpServer({ name: 'sdk', version: '1' });
      server.registerTool('wait', { description: 'ends when cancelled' }, (extra) => {
        seen.started = true;
        return new Promise((resolve) =>
          extra.signal.addEventListener('abort', () => {
            seen.aborted = true;
            resolve({ content: [] });
          }),
        );
      });
      servers.push(server);
      await server.connect(created);
    }
    await transport.handleRequest(req, res);
  });
  cleanups.push(async () => {
    for (const s of servers) await s.close();
    await http.close();
  });
  return `${http.url}/mcp`;
}

/**
 * The runtime's own Streamable HTTP server with the `wait` tool: a 2025-era session answers `initialize`; a
 * 2026-07-28 request needs none. Its URL.
 */
async function ownServer(seen: Seen): Promise<string> {
  const handler = createStreamableHttpServer({
    protocol: await modelProtocol(),
    keepAliveMs: 0,
    onSession: async (connection) => {
      const peer = new RpcPeer(connection as StreamableHttpServerTransport);
      peer.setRequestHandler('initialize', (p: any) => ({
        protocolVersion: p.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'own', version: '1' },
      }));
      peer.setRequestHandler('tools/call', (_p, ctx) => {
        seen.started = true;
        return new Promise((resolve) =>
          ctx.signal.addEventListener('abort', () => {
            seen.aborted = true;
            resolve({ content: [] });
          }),
        );
      });
      await peer.start();
    },
  });
  const http = await listen(handler);
  cleanups.push(async () => {
    await handler.close();
    await http.close();
  });
  return `${http.url}/mcp`;
}

/** A proxy that holds each response's status and headers back until the upstream body has ended. */
async function headerHoldingProxy(target: string) {
  const upstream = new URL(target);
  const http = await listen((req, res) => {
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(chunks)));
      },
    );
    forward.on('error', () => res.destroy());
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  });
  cleanups.push(() => http.close());
  return `${http.url}${upstream.pathname}`;
}

/** The runtime's client as the generated one drives it: initialize, initialized, then the call. */
async function connect(url: string): Promise<RpcEngine> {
  const transport = new StreamableHttpClientTransport(url);
  const engine = new RpcEngine(transport);
  cleanups.push(() => engine.close());
  await engine.start();
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } };
  await engine.request('initialize', params);
  transport.setProtocolVersion('2025-11-25');
  await engine.notify('notifications/initialized');
  return engine;
}

/** Calls `wait`, aborts once the server runs it, and resolves once the server's handler saw the abort. */
async function cancelAndObserve(url: string, seen: Seen): Promise<void> {
  const engine = await connect(url);
  const abort = new AbortController();
  const call = engine.request(
    'tools/call',
    { name: 'wait', arguments: {} },
    { signal: abort.signal, timeout: 120_000 },
  );
  const settled = call.then(
    () => 'resolved',
    () => 'rejected',
  );
  await eventually(() => seen.started);
  abort.abort(new Error('no longer needed'));
  expect(await settled).toBe('rejected');
  await eventually(() => seen.aborted);
}

describe('a cancelled call reaches the server whatever it does with the POST', () => {
  it('SDK v1 server in JSON mode (enableJsonResponse)', async () => {
    const seen = { started: false, aborted: false };
    await cancelAndObserve(await sdkServer(true, seen), seen);
  });

  it('SDK v1 server (SSE) behind a proxy that holds response headers back', async () => {
    const seen = { started: false, aborted: false };
    await cancelAndObserve(await headerHoldingProxy(await sdkServer(false, seen)), seen);
  });

  it('the runtime’s own server (2025-11-25 session): the handler’s signal aborts', async () => {
    const seen = { started: false, aborted: false };
    await cancelAndObserve(await ownServer(seen), seen);
  });

  it('the runtime’s own server, 2026-07-28 (closing the response is the cancellation): the signal aborts', async () => {
    const seen = { started: false, aborted: false };
    const transport = new StreamableHttpClientTransport(await ownServer(seen));
    transport.setProtocolVersion('2026-07-28');
    const engine = new RpcEngine(transport);
    cleanups.push(() => engine.close());
    await engine.start();
    const abort = new AbortController();
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
    const params = { name: 'wait', arguments: {}, _meta: meta };
    // The standard headers a generated client has its transport write (setMetadataHeaders), by hand here.
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'wait' };
    const call = engine.request('tools/call', params, { signal: abort.signal, headers, timeout: 120_000 });
    const settled = call.then(
      () => 'resolved',
      () => 'rejected',
    );
    await eventually(() => seen.started);
    abort.abort(new Error('no longer needed'));
    expect(await settled).toBe('rejected');
    await eventually(() => seen.aborted);
  });

  const python = pythonWithMcp();
  if ('reason' in python) console.warn(`Python SDK in JSON mode skipped: ${python.reason}`);
  /** The Python fixture on a loopback port: its URL, and what it saw (from the lines it prints). */
  async function pythonServer(seen: Seen): Promise<string> {
    if (!('python' in python)) throw new Error(python.reason);
    const port = await freePort();
    const child = spawn(python.python, [join(import.meta.dirname, 'fixtures', 'python_wait_server.py'), String(port)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => void child.kill());
    let errors = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (errors += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (d.includes('started')) seen.started = true;
      if (d.includes('aborted')) seen.aborted = true;
    });
    // Uvicorn says when it listens.
    await eventually(() => errors.includes('Uvicorn running'), 30_000);
    return `http://127.0.0.1:${port}/mcp`;
  }

  it.skipIf('reason' in python)('Python SDK server in JSON mode (json_response=True)', async () => {
    const seen = { started: false, aborted: false };
    await cancelAndObserve(await pythonServer(seen), seen);
  });

  it.skipIf('reason' in python)('Python SDK server in JSON mode behind a proxy that holds headers back', async () => {
    const seen = { started: false, aborted: false };
    await cancelAndObserve(await headerHoldingProxy(await pythonServer(seen)), seen);
  });
});
