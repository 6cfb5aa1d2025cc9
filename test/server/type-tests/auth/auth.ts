/**
 * Type tests for `ctx.auth` and the `auth` option's scope declarations, against generated 2025-11-25
 * (`./generated/`) and 2026-07-28 (`./generated-2026/`) servers; compiled by test/server/auth-types.test.ts.
 * Each `@ts-expect-error [tag]` but `auth-needs-verifier` must become unused when the generated
 * `ServerContext` and `McpServerHandlers` are loosened to `any`.
 */
import { createServer, createStreamableHttpServer, type AuthInfo } from './generated/index.js';
import * as modern from './generated-2026/index.js';
import { jwtVerifier } from '@mcp-typegen/runtime/auth/server';

const options = { serverInfo: { name: 'auth-types', version: '0' } };
const verifier = jwtVerifier({ issuer: 'https://auth.example.com' });
const gate = { resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://auth.example.com'], verifier };

export const server = createServer(
  {
    'tools/call': (params, ctx) => {
      const who: AuthInfo | undefined = ctx.auth;
      // @ts-expect-error [auth-maybe-undefined]
      const subject: string = ctx.auth.subject;
      const scopes: readonly string[] = ctx.auth?.scopes ?? [];
      // @ts-expect-error [auth-scopes-readonly]
      ctx.auth?.scopes.push('mcp:admin');
      // @ts-expect-error [auth-no-token]
      const token: unknown = ctx.auth?.token;
      const expires: number | undefined = ctx.auth?.expiresAt;
      return {
        content: [
          { type: 'text', text: `${params.name} ${who?.clientId ?? ''} ${subject} ${scopes.join()} ${expires}` },
        ],
        structuredContent: { token, audience: ctx.auth?.audience[0], claims: ctx.auth?.claims['cnf'] },
      };
    },
    'notifications/initialized': (_params, ctx) => {
      // @ts-expect-error [auth-notification-maybe-undefined]
      void ctx.auth.issuer;
    },
  },
  options,
);

export const typedScopes = createStreamableHttpServer({
  server,
  auth: { ...gate, methodScopes: { 'tools/call': ['mcp:write'], 'resources/read': ['mcp:read'] } },
});

export const misspelledMethod = createStreamableHttpServer({
  server,
  auth: {
    ...gate,
    methodScopes: {
      // @ts-expect-error [auth-unknown-method]
      'tools/cal': ['mcp:write'],
    },
  },
});

export const notReceived = createStreamableHttpServer({
  server,
  auth: {
    ...gate,
    methodScopes: {
      // A method the server sends, not one it receives.
      // @ts-expect-error [auth-unknown-method]
      'sampling/createMessage': ['mcp:write'],
    },
  },
});

export const noVerifier = createStreamableHttpServer({
  server,
  // @ts-expect-error [auth-needs-verifier]
  auth: { resource: gate.resource, authorizationServers: gate.authorizationServers },
});

const modernServer = modern.createServer(
  {
    'tools/list': (_params, ctx) => ({ tools: ctx.auth === undefined ? [] : [] }),
    'tools/call': (_params, ctx) => {
      // @ts-expect-error [auth-maybe-undefined]
      return { content: [{ type: 'text', text: ctx.auth.subject }] };
    },
  },
  options,
);

export const modernScopes = modern.createStreamableHttpServer({
  server: modernServer,
  auth: {
    ...gate,
    methodScopes: {
      'tools/list': ['mcp:read'],
      // Removed in 2026-07-28 (and never a request a server receives there).
      // @ts-expect-error [auth-unknown-method]
      'logging/setLevel': ['mcp:admin'],
    },
  },
});
