/**
 * A minimal protected MCP server for the OAuth client's tests: the official SDK v2 server
 * (`@modelcontextprotocol/server`, `createMcpHandler`) behind its own `requireBearerAuth` gate, on node:http on
 * loopback, with the RFC 9728 metadata at the path-based well-known URL. Tokens are RFC 9068 JWTs from the tests'
 * authorization server (test/helpers/authorization-server.ts), verified against its JWKS with jose, audience this
 * server. The tool `write` needs the scope `mcp:write` (a 403 `insufficient_scope` step-up otherwise, the SDK's
 * scope challenge). With `dpop`, the gate is oauth4webapi's `validateJwtAccessToken` instead, which requires a
 * DPoP-bound token and its proof (the SDK's gate is Bearer-only), and challenges with the `DPoP` scheme.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport as SdkSseServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import {
  createMcpHandler,
  requireBearerAuth,
  Server,
  type AuthInfo,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { listen } from '../transports/helpers/http.js';

export interface ProtectedServerOptions {
  /** The authorization server's issuer (its JWKS at `<issuer>/jwks`); set after listening, before the first request. */
  issuer: () => string;
  /** `scopes_supported` of the resource metadata. Default `['mcp:read']`. */
  scopes?: string[];
  /** Require DPoP-bound tokens (RFC 9449) instead of Bearer ones. */
  dpop?: boolean;
  /** Other pages this origin serves (a browser app calling the server from its own origin): path → HTML or script. */
  pages?: Record<string, { type: string; body: () => string }>;
}

export interface ProtectedServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`: also the resource identifier. */
  readonly url: string;
  /** The `Authorization` schemes of the requests that reached the MCP handler, in order. */
  readonly schemes: string[];
  /** Every token a request presented (accepted or not), in order. */
  readonly presented: string[];
  /** Tokens the server no longer accepts (as if revoked): they get a 401. */
  readonly revoked: Set<string>;
  close(): Promise<void>;
}

const PRM_PATH = '/.well-known/oauth-protected-resource/mcp';

export async function startProtectedServer(options: ProtectedServerOptions): Promise<ProtectedServer> {
  const schemes: string[] = [];
  const presented: string[] = [];
  const revoked = new Set<string>();
  let base = '';
  const handler = createMcpHandler(() => mcpServer());
  const gate = (url: string, scopes: string[]) =>
    options.dpop ? dpopGate(url, options.issuer()) : bearerGate(url, options.issuer(), scopes);
  const http = await listen((req, res) => {
    const url = `${base}/mcp`;
    const page = options.pages?.[(req.url ?? '').split('?')[0] ?? ''];
    if (page !== undefined) {
      res.writeHead(200, { 'content-type': page.type }).end(page.body());
      return;
    }
    if (req.url === PRM_PATH) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          resource: url,
          authorization_servers: [options.issuer()],
          scopes_supported: options.scopes ?? ['mcp:read'],
          ...(options.dpop ? { dpop_bound_access_tokens_required: true } : {}),
        }),
      );
      return;
    }
    void toFetch(req, res, async (request) => {
      const token = /^\S+ (.*)$/.exec(request.headers.get('authorization') ?? '')?.[1];
      if (token !== undefined) presented.push(token);
      if (token !== undefined && revoked.has(token)) return challenge(401, url, options.dpop);
      const auth = await gate(url, await requiredScopes(request))(request);
      if (auth instanceof Response) return auth;
      schemes.push((request.headers.get('authorization') ?? '').split(' ')[0] ?? '');
      return handler.fetch(request, { authInfo: auth });
    });
  });
  base = http.url;
  return {
    url: `${base}/mcp`,
    schemes,
    presented,
    revoked,
    close: async () => {
      await handler.close();
      await http.close();
    },
  };
}

/**
 * The deprecated HTTP+SSE transport (2024-11-05), protected the same way: the SDK v1's SSEServerTransport (v2 has
 * none) behind the SDK v2 gate, at `/sse` (the stream, also the resource) and `/messages`; a POST to `/sse` gets
 * the 405 an HTTP+SSE-only server answers, so a Streamable HTTP client falls back.
 */
export async function startProtectedSseServer(
  options: Pick<ProtectedServerOptions, 'issuer'>,
): Promise<ProtectedServer> {
  const schemes: string[] = [];
  const sessions = new Map<string, SdkSseServerTransport>();
  let base = '';
  const http = await listen((req, res) => {
    const url = `${base}/sse`;
    const path = (req.url ?? '').split('?')[0];
    if (path === '/.well-known/oauth-protected-resource/sse') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ resource: url, authorization_servers: [options.issuer()], scopes_supported: ['mcp:read'] }),
      );
      return;
    }
    const authorization = req.headers.authorization ?? '';
    void bearerGate(
      url,
      options.issuer(),
      [],
    )(new Request(url, { headers: { authorization } })).then(async (auth) => {
      if (auth instanceof Response) {
        res.writeHead(auth.status, Object.fromEntries(auth.headers)).end(await auth.text());
        return;
      }
      schemes.push(authorization.split(' ')[0] ?? '');
      if (req.method === 'GET' && path === '/sse') {
        const transport = new SdkSseServerTransport('/messages', res);
        sessions.set(transport.sessionId, transport);
        transport.onclose = () => void sessions.delete(transport.sessionId);
        const mcp = new SdkMcpServer({ name: 'protected-sse', version: '1' });
        mcp.registerTool('read', { description: 'read' }, async () => ({ content: [{ type: 'text', text: 'read' }] }));
        await mcp.connect(transport);
        return;
      }
      const session = sessions.get(new URL(req.url ?? '', base).searchParams.get('sessionId') ?? '');
      if (req.method === 'POST' && path === '/messages' && session) return void session.handlePostMessage(req, res);
      res.writeHead(405, { 'content-type': 'text/plain' }).end('Method Not Allowed');
    });
  });
  base = http.url;
  return {
    url: `${base}/sse`,
    schemes,
    presented: [],
    revoked: new Set(),
    close: async () => {
      for (const session of sessions.values()) await session.close();
      await http.close();
    },
  };
}

/** The SDK server: tools `read` and `write` (the gate asks `mcp:write` of a token calling `write`). */
function mcpServer(): Server {
  const server = new Server(
    { name: 'protected', version: '1' },
    { capabilities: { tools: {} }, supportedProtocolVersions: ['2026-07-28', '2025-11-25'] },
  );
  server.setRequestHandler('tools/list', () => ({
    tools: [
      { name: 'read', inputSchema: { type: 'object' } },
      { name: 'write', inputSchema: { type: 'object' } },
    ],
  }));
  server.setRequestHandler('tools/call', (request, ctx) => ({
    content: [{ type: 'text', text: `${request.params.name} as ${ctx.http?.authInfo?.clientId ?? '?'}` }],
  }));
  return server;
}

/**
 * The scopes the request needs: `mcp:write` to call `write`. (The SDK's own per-tool scope challenges reach only
 * its 2025-era transport in 2.4.0; its gate's `requiredScopes` answer the 403 the same way on both eras.)
 */
async function requiredScopes(request: Request): Promise<string[]> {
  if (request.method !== 'POST') return [];
  const body = (await request
    .clone()
    .json()
    .catch(() => undefined)) as { method?: string; params?: { name?: string } };
  return body?.method === 'tools/call' && body.params?.name === 'write' ? ['mcp:write'] : [];
}

/** The SDK's gate with a verifier of the authorization server's RFC 9068 JWTs. */
function bearerGate(url: string, issuer: string, scopes: string[]): (request: Request) => Promise<AuthInfo | Response> {
  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const verifier: OAuthTokenVerifier = {
    async verifyAccessToken(token) {
      const { payload } = await jwtVerify(token, jwks, { issuer, audience: url, typ: 'at+jwt' }).catch(() => {
        throw new Error('invalid token');
      });
      return authInfo(token, payload, url);
    },
  };
  return requireBearerAuth({
    verifier,
    requiredScopes: scopes,
    resourceMetadataUrl: prmUrl(url),
    expectedResource: new URL(url),
  });
}

/** oauth4webapi's RFC 9068 validation, which checks the DPoP proof of a DPoP-bound token (RFC 9449 §7). */
function dpopGate(url: string, issuer: string): (request: Request) => Promise<AuthInfo | Response> {
  return async (request) => {
    if (!request.headers.has('authorization')) return challenge(401, url, true);
    try {
      const as = await oauth.processDiscoveryResponse(
        new URL(issuer),
        await oauth.discoveryRequest(new URL(issuer), { [oauth.allowInsecureRequests]: true }),
      );
      const claims = await oauth.validateJwtAccessToken(as, request, url, {
        requireDPoP: true,
        [oauth.allowInsecureRequests]: true,
      });
      return authInfo(request.headers.get('authorization')?.split(' ')[1] ?? '', claims, url);
    } catch {
      return challenge(401, url, true);
    }
  };
}

function authInfo(token: string, payload: Record<string, unknown>, url: string): AuthInfo {
  return {
    token,
    clientId: String(payload['client_id']),
    scopes: String(payload['scope'] ?? '')
      .split(' ')
      .filter(Boolean),
    expiresAt: Number(payload['exp']),
    resource: new URL(url),
  };
}

function challenge(status: number, url: string, dpop = false): Response {
  return new Response(JSON.stringify({ error: 'invalid_token' }), {
    status,
    headers: {
      'content-type': 'application/json',
      'www-authenticate': `${dpop ? 'DPoP' : 'Bearer'} error="invalid_token", resource_metadata="${prmUrl(url)}"`,
    },
  });
}

function prmUrl(url: string): string {
  return `${new URL(url).origin}${PRM_PATH}`;
}

/** A fetch-shaped handler on node:http (the SDK v2 server speaks web-standard Request and Response). */
async function toFetch(
  req: IncomingMessage,
  res: ServerResponse,
  handle: (request: Request) => Promise<Response>,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && chunks.length > 0;
  const response = await handle(
    new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
      ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
    }),
  );
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
}
