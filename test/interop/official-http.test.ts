/**
 * The official SDKs over Streamable HTTP on loopback, both directions, each pair making a real tools/call:
 * 2026-07-28 with the v2 SDK (`@modelcontextprotocol/client` and `@modelcontextprotocol/server` 2.4.0: its
 * client with `versionNegotiation: 'auto'`, its server's `createMcpHandler` behind a small node:http
 * adapter), and 2025-06-18 with `@modelcontextprotocol/sdk` 1.32.2 (2025-11-25 is in test/transports/http).
 * The generated servers sit behind `createStreamableHttpServer({ server })`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Server as V2Server, createMcpHandler } from '@modelcontextprotocol/server';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer as SdkServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport as SdkServerHttp } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { built, importBuilt, type Version } from '../client/helpers/build.js';
import { listen } from '../transports/helpers/http.js';

type Json = Record<string, any>;
const gen = new Map<Version, any>();
const cleanups: (() => Promise<void>)[] = [];
const text = (result: Json) => result.content.map((c: Json) => c.text).join('');

beforeAll(async () => {
  for (const v of ['2025-06-18', '2026-07-28'] as Version[]) gen.set(v, await importBuilt(await built(v), 'index.js'));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const http = await listen(handler);
  cleanups.push(() => http.close());
  return `${http.url}/mcp`;
}

/** A generated server behind createStreamableHttpServer: echo answers with the version of the session. */
async function generatedServer(version: Version): Promise<string> {
  const g = gen.get(version);
  const server = g.createServer(
    {
      'tools/list': () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }),
      'tools/call': (params: Json, ctx: Json) => ({
        content: [{ type: 'text', text: `${ctx.session.protocolVersion}|${params.arguments?.text}` }],
      }),
    },
    { serverInfo: { name: `generated-${version}`, version: '1' } },
  );
  const endpoint = g.createStreamableHttpServer({ server, keepAliveMs: 0 });
  cleanups.push(() => endpoint.close());
  return serve(endpoint);
}

/** A fetch-shaped handler (the v2 server's) on node:http. */
function nodeHandler(fetchHandler: (request: Request) => Promise<Response>) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && chunks.length > 0;
      const response = await fetchHandler(
        new Request(`http://${req.headers.host}${req.url}`, {
          method: req.method!,
          headers,
          ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
        }),
      );
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) for await (const chunk of response.body) res.write(chunk);
      res.end();
    });
  };
}

describe('2026-07-28 with the v2 SDK over Streamable HTTP', () => {
  it('@modelcontextprotocol/client 2.4.0 (versionNegotiation auto) → generated 2026-07-28 server', async () => {
    const url = await generatedServer('2026-07-28');
    const client = new V2Client(
      { name: 'sdk2', version: '1' },
      { supportedProtocolVersions: ['2026-07-28', '2025-11-25'], versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new V2Http(new URL(url)));
    try {
      expect(text(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('2026-07-28|hi');
    } finally {
      await client.close();
    }
  });

  it('generated 2026-07-28 client → @modelcontextprotocol/server 2.4.0 (createMcpHandler)', async () => {
    const handler = createMcpHandler(() => {
      const server = new V2Server(
        { name: 'sdk2-http', version: '2.4.0' },
        { capabilities: { tools: {} }, supportedProtocolVersions: ['2026-07-28', '2025-11-25'] },
      );
      server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }));
      server.setRequestHandler('tools/call', (request) => ({
        content: [{ type: 'text', text: `sdk2|${String(request.params.arguments?.['text'])}` }],
      }));
      return server;
    });
    cleanups.push(() => handler.close());
    const url = await serve(nodeHandler(handler.fetch));
    const g = gen.get('2026-07-28');
    const client = g.createClient(new g.StreamableHttpClientTransport(url), {
      clientInfo: { name: 'generated', version: '1' },
      eraCache: new Map(),
    });
    await client.connect();
    try {
      expect([client.era, client.protocolVersion]).toEqual(['modern', '2026-07-28']);
      expect(client.serverInfo).toEqual({ name: 'sdk2-http', version: '2.4.0' });
      expect(text(await client.tools.call({ name: 'echo', arguments: { text: 'hi' } }))).toBe('sdk2|hi');
    } finally {
      await client.close();
    }
  });
});

describe('2025-06-18 with @modelcontextprotocol/sdk 1.32.2 over Streamable HTTP', () => {
  it('SDK Client → generated 2025-06-18 server: the server answers its own version, the SDK accepts it', async () => {
    const url = await generatedServer('2025-06-18');
    const client = new SdkClient({ name: 'sdk1', version: '1' });
    const transport = new SdkHttp(new URL(url));
    await client.connect(transport);
    try {
      expect(transport.protocolVersion).toBe('2025-06-18');
      expect(client.getServerVersion()).toEqual({ name: 'generated-2025-06-18', version: '1' });
      expect(text((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })) as Json)).toBe('2025-06-18|hi');
    } finally {
      await client.close();
    }
  });

  it('generated 2025-06-18 client → SDK McpServer + StreamableHTTPServerTransport', async () => {
    const sessions = new Map<string, SdkServerHttp>();
    const servers: SdkServer[] = [];
    cleanups.push(async () => {
      for (const s of servers) await s.close();
    });
    const url = await serve(async (req, res) => {
      const sid = req.headers['mcp-session-id'] as string | undefined;
      let transport = sid === undefined ? undefined : sessions.get(sid);
      if (transport === undefined) {
        const created = new SdkServerHttp({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, created),
        });
        const server = new SdkServer({ name: 'sdk1-http', version: '1.32.2' });
        server.registerTool('echo', { description: 'echo' }, async () => ({
          content: [{ type: 'text', text: 'sdk1|hi' }],
        }));
        servers.push(server);
        await server.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    });
    const g = gen.get('2025-06-18');
    const client = g.createClient(new g.StreamableHttpClientTransport(url), {
      clientInfo: { name: 'generated', version: '1' },
    });
    await client.connect();
    try {
      expect(client.protocolVersion).toBe('2025-06-18');
      expect(client.serverInfo).toEqual({ name: 'sdk1-http', version: '1.32.2' });
      expect(text(await client.tools.call({ name: 'echo', arguments: {} }))).toBe('sdk1|hi');
    } finally {
      await client.close();
    }
  });
});
