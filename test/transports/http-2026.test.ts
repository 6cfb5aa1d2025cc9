/**
 * 2026-07-28 Streamable HTTP, both sides generated: the generated McpClient on StreamableHttpClientTransport
 * against the generated server behind createStreamableHttpServer, on loopback. No sessions; every POST's
 * metadata headers; x-mcp-header mirroring (client) and checking (server); the header-mismatch relist and
 * retry; cancellation by closing the stream, with every count back to its baseline afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { built, importBuilt } from '../client/helpers/build.js';
import { listen, rawRequest } from './helpers/http.js';
import { eventually } from '../helpers/eventually.js';

type Json = Record<string, any>;
let gen: any;

const SERVER_INFO = { name: 'http-2026-server', version: '2.0.0' };
const CLIENT_INFO = { name: 'http-2026-client', version: '1.0.0' };
const REGION_TOOL = {
  name: 'execute_sql',
  inputSchema: {
    type: 'object',
    properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, query: { type: 'string' } },
    required: ['query'],
  },
};
const BAD_TOOL = {
  name: 'bad_header',
  inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } },
};
const SLOW_TOOL = { name: 'slow', inputSchema: { type: 'object' } };

let tools: Json[] = [REGION_TOOL, BAD_TOOL, SLOW_TOOL];
const seenHeaders: IncomingMessage['headers'][] = [];
let slowStarted = 0;
let slowAborted = 0;
let endpoint: any;
let http: Awaited<ReturnType<typeof listen>>;
let url: string;

beforeAll(async () => {
  gen = await importBuilt(await built('2026-07-28'), 'index.js');
  const server = gen.createServer(
    {
      'tools/list': () => ({ tools }),
      'tools/call': (params: Json, ctx: Json) => {
        if (params.name === 'slow') {
          slowStarted++;
          return new Promise((_resolve, reject) =>
            ctx.signal.addEventListener('abort', () => (slowAborted++, reject(ctx.signal.reason))),
          );
        }
        return { content: [{ type: 'text', text: `${params.name}:${JSON.stringify(params.arguments ?? {})}` }] };
      },
    },
    { serverInfo: SERVER_INFO },
  );
  // The server itself: its PROTOCOL facts (versions, name sources, error codes) come along, none passed by hand.
  endpoint = gen.createStreamableHttpServer({ keepAliveMs: 0, server });
  http = await listen((req: IncomingMessage, res: ServerResponse) => {
    seenHeaders.push(req.headers);
    endpoint(req, res);
  });
  url = `${http.url}/mcp`;
});

afterAll(async () => {
  await endpoint?.close();
  await http?.close();
});

async function connectClient(): Promise<any> {
  const client = new gen.McpClient(new gen.StreamableHttpClientTransport(url), { clientInfo: CLIENT_INFO });
  await client.connect();
  return client;
}

const headersFor = (method: string) => seenHeaders.filter((h) => h['mcp-method'] === method);

describe('generated 2026-07-28 client ↔ generated 2026-07-28 server over Streamable HTTP', () => {
  it('connects without a session; server info is read from _meta', async () => {
    seenHeaders.length = 0;
    const client = await connectClient();
    expect(client.negotiatedVersion).toBe('2026-07-28');
    expect(client.serverInfo).toEqual(SERVER_INFO);
    const discover = headersFor('server/discover');
    expect(discover).toHaveLength(1);
    expect(discover[0]!['mcp-protocol-version']).toBe('2026-07-28');
    expect(discover[0]!['mcp-session-id']).toBeUndefined();
    await client.close();
  });

  it('sends Mcp-Method and Mcp-Name, mirrors x-mcp-header arguments, leaves out a tool with an invalid annotation', async () => {
    const client = await connectClient();
    const listed = await client.request('tools/list', {});
    expect(listed.tools.map((t: Json) => t.name)).toEqual(['execute_sql', 'slow']);
    expect(listed._meta['io.modelcontextprotocol/serverInfo']).toEqual(SERVER_INFO);
    seenHeaders.length = 0;
    const result = await client.request('tools/call', {
      name: 'execute_sql',
      arguments: { region: 'Hello, 世界', query: 'SELECT 1' },
    });
    expect(result.content[0].text).toBe('execute_sql:{"region":"Hello, 世界","query":"SELECT 1"}');
    const [call] = headersFor('tools/call');
    expect(call!['mcp-name']).toBe('execute_sql');
    expect(call!['mcp-param-region']).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(call!['mcp-protocol-version']).toBe('2026-07-28');
    await client.close();
  });

  it('the server refuses headers that disagree with the body; the client relists and retries once', async () => {
    const client = await connectClient();
    tools = [SLOW_TOOL, { ...REGION_TOOL, name: 'late' }]; // 'late' was not listed when the client cached
    seenHeaders.length = 0;
    const result = await client.request('tools/call', { name: 'late', arguments: { region: 'eu', query: 'q' } });
    expect(result.content[0].text).toBe('late:{"region":"eu","query":"q"}');
    const calls = headersFor('tools/call');
    expect(calls.map((h) => h['mcp-param-region'])).toEqual([undefined, 'eu']);
    expect(headersFor('tools/list')).toHaveLength(1);
    tools = [REGION_TOOL, BAD_TOOL, SLOW_TOOL];
    await client.close();
  });

  it('cancelling closes the stream: the handler is aborted and every count returns to its baseline (300 calls)', async () => {
    const client = await connectClient();
    const transport = client.peer.transport;
    const before = { started: slowStarted, aborted: slowAborted };
    const calls = Array.from({ length: 300 }, () => {
      const controller = new AbortController();
      const promise = client.request('tools/call', { name: 'slow', arguments: {} }, { signal: controller.signal });
      return { controller, promise: promise.catch((e: unknown) => e) };
    });
    await until(() => slowStarted - before.started === 300);
    expect(endpoint.requests.size).toBe(300);
    for (const call of calls) call.controller.abort();
    await Promise.all(calls.map((c) => c.promise));
    await until(() => endpoint.requests.size === 0 && slowAborted - before.aborted === 300);
    expect(transport.requestsInFlight).toBe(0);
    expect(endpoint.sessions.size).toBe(0);
    await client.close();
  });
});

describe('a legacy client of the dual-era 2026-07-28 server', () => {
  it('calls a tool with an x-mcp-header annotation: Mcp-Param-* headers belong to 2026-07-28 requests only', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const client = new Client({ name: 'sdk-2025-11-25', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(client.getServerVersion()).toEqual(SERVER_INFO);
    const result = await client.callTool({ name: 'execute_sql', arguments: { query: 'q', region: 'us' } });
    expect(result.content).toEqual([{ type: 'text', text: 'execute_sql:{"query":"q","region":"us"}' }]);
    await client.close();
  });
});

describe('2026-07-28 server answers to raw requests', () => {
  const META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const post = (body: unknown, headers: Record<string, string>) =>
    rawRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
  const call = (name: string, id = 1) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: { query: 'q', region: 'us' }, _meta: META },
  });
  const std = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' };

  it.each([
    ['missing Mcp-Method', call('execute_sql'), { 'mcp-protocol-version': '2026-07-28' }, 400, -32020],
    ['Mcp-Method differs', call('execute_sql'), { ...std, 'mcp-method': 'tools/list' }, 400, -32020],
    ['missing Mcp-Name', call('execute_sql'), std, 400, -32020],
    ['Mcp-Name differs', call('execute_sql'), { ...std, 'mcp-name': 'other' }, 400, -32020],
    ['Mcp-Param missing', call('execute_sql'), { ...std, 'mcp-name': 'execute_sql' }, 400, -32020],
    [
      'Mcp-Param differs',
      call('execute_sql'),
      { ...std, 'mcp-name': 'execute_sql', 'mcp-param-region': 'eu' },
      400,
      -32020,
    ],
    [
      'Mcp-Name base64 matches',
      call('execute_sql'),
      { ...std, 'mcp-name': '=?base64?ZXhlY3V0ZV9zcWw=?=', 'mcp-param-region': 'us' },
      200,
      0,
    ],
    [
      'header version differs from _meta',
      call('execute_sql'),
      { ...std, 'mcp-protocol-version': '2026-07-29', 'mcp-name': 'execute_sql' },
      400,
      -32022,
    ],
    [
      'unknown method',
      { jsonrpc: '2.0', id: 5, method: 'nope/nope', params: { _meta: META } },
      { ...std, 'mcp-method': 'nope/nope' },
      404,
      -32601,
    ],
  ])('%s → %i %i', async (_name, body, headers, status, code) => {
    const res = await post(body, headers as Record<string, string>);
    expect(res.status).toBe(status);
    const answer = JSON.parse(res.body);
    if (code === 0) expect(answer.result.content).toBeDefined();
    else expect(answer.error.code).toBe(code);
    if (code !== 0) expect(answer.id).toBe((body as Json).id);
  });

  it('a _meta version that differs from the header is a header mismatch', async () => {
    const body = call('execute_sql');
    body.params._meta = { ...META, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' };
    const res = await post(body, { ...std, 'mcp-name': 'execute_sql', 'mcp-param-region': 'us' });
    expect(res.status).toBe(400);
    // The generated code names the codes (from the model): no literal needed to recognise one.
    expect(JSON.parse(res.body).error.code).toBe(gen.ERROR_CODES.HeaderMismatchError);
    expect(gen.ERROR_CODES.HeaderMismatchError).toBe(-32020);
  });

  it('GET and DELETE are 405; a session id is ignored and none is minted', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await rawRequest(url, {
        method,
        headers: { 'mcp-protocol-version': '2026-07-28', accept: 'text/event-stream' },
      });
      expect(res.status).toBe(405);
    }
    const res = await post(call('execute_sql'), {
      ...std,
      'mcp-name': 'execute_sql',
      'mcp-param-region': 'us',
      'mcp-session-id': 'made-up',
    });
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toBeUndefined();
  });
});

const until = (condition: () => boolean): Promise<void> => eventually(condition, 20_000);
