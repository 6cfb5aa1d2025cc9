/**
 * The tests' authorization server (test/helpers/authorization-server.ts, oidc-provider) does what the
 * authorization tests rely on, checked here with plain HTTP so a change of its configuration cannot silently
 * turn the other tests into tests of nothing: discovery advertises S256 and `iss`, dynamic registration works,
 * the code flow with PKCE and a resource indicator yields a JWT access token for that audience only, refresh
 * works, client credentials work, introspection tells active from expired, and DPoP binds a token to a key.
 */
import { createHash, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthorizationServer, type AuthorizationServer } from '../helpers/authorization-server.js';

const RESOURCE = 'http://127.0.0.1:9/mcp';
const OPAQUE = 'http://127.0.0.1:9/opaque';
const REDIRECT = 'http://127.0.0.1:8/callback';

let as: AuthorizationServer;
beforeAll(async () => {
  as = await startAuthorizationServer({
    resources: {
      [RESOURCE]: { scopes: ['mcp:read', 'mcp:write'], accessTokenTtl: 60 },
      [OPAQUE]: { scopes: ['mcp:read'], format: 'opaque' },
    },
    clients: [
      {
        client_id: 'machine',
        client_secret: 'machine-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      },
    ],
  });
});
afterAll(() => as.close());

const base64url = (bytes: Buffer): string => bytes.toString('base64url');

async function json(response: Response): Promise<Record<string, any>> {
  const body = (await response.json()) as Record<string, any>;
  if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function register(): Promise<{ client_id: string }> {
  const metadata = await json(await fetch(`${as.issuer}/.well-known/openid-configuration`));
  return json(
    await fetch(metadata.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      }),
    }),
  ) as Promise<{ client_id: string }>;
}

async function codeFlow(clientId: string, scope: string): Promise<Record<string, any>> {
  const verifier = base64url(randomBytes(32));
  const authorize = new URL(`${as.issuer}/auth`);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope,
    state: 'st',
    resource: RESOURCE,
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  }).toString();
  const back = await as.approve(authorize);
  expect(back.origin + back.pathname).toBe(REDIRECT);
  expect(back.searchParams.get('error')).toBeNull();
  expect(back.searchParams.get('state')).toBe('st');
  expect(back.searchParams.get('iss')).toBe(as.issuer);
  const code = back.searchParams.get('code');
  expect(code).toBeTruthy();
  return json(
    await fetch(`${as.issuer}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: code ?? '',
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: clientId,
        resource: RESOURCE,
      }),
    }),
  );
}

describe('the tests’ authorization server (oidc-provider)', () => {
  it('advertises what MCP clients need: S256, iss, registration, both discovery documents', async () => {
    const oauth = await json(
      await fetch(`${as.issuer}/.well-known/oauth-authorization-server`).catch(() => null as never),
    );
    const oidc = await json(await fetch(`${as.issuer}/.well-known/openid-configuration`));
    for (const metadata of [oauth, oidc]) {
      expect(metadata.issuer).toBe(as.issuer);
      expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
      expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
      expect(metadata.registration_endpoint).toBeTruthy();
      expect(metadata.dpop_signing_alg_values_supported?.length).toBeGreaterThan(0);
    }
  });

  it('code flow with PKCE and a resource: a JWT for that audience, with the scopes asked; refresh works', async () => {
    const { client_id } = await register();
    const tokens = await codeFlow(client_id, 'mcp:read');
    expect(tokens.token_type).toBe('Bearer');
    const jwks = createRemoteJWKSet(new URL(`${as.issuer}/jwks`));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
      issuer: as.issuer,
      audience: RESOURCE,
      typ: 'at+jwt',
    });
    expect(protectedHeader.typ).toBe('at+jwt');
    expect(payload.sub).toBe('user-1');
    expect(payload['client_id']).toBe(client_id);
    expect(payload['scope']).toBe('mcp:read');
    await expect(jwtVerify(tokens.access_token, jwks, { audience: 'http://127.0.0.1:9/other' })).rejects.toThrow();

    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await json(
      await fetch(`${as.issuer}/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id,
          resource: RESOURCE,
        }),
      }),
    );
    const again = await jwtVerify(refreshed.access_token, jwks, { audience: RESOURCE });
    expect(again.payload.sub).toBe('user-1');
  });

  it('refuses a code flow without PKCE and a token for an unknown resource', async () => {
    const { client_id } = await register();
    const authorize = new URL(`${as.issuer}/auth`);
    authorize.search = new URLSearchParams({
      client_id,
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: 'mcp:read',
      resource: RESOURCE,
    }).toString();
    const back = await as.approve(authorize);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    const unknown = new URL(authorize);
    unknown.searchParams.set('resource', 'http://127.0.0.1:9/unknown');
    unknown.searchParams.set('code_challenge', base64url(randomBytes(32)));
    unknown.searchParams.set('code_challenge_method', 'S256');
    expect((await as.approve(unknown)).searchParams.get('error')).toBe('invalid_target');
  });

  it('client credentials, introspection of an active token, DPoP binding to the proof’s key', async () => {
    const basic = `Basic ${Buffer.from('machine:machine-secret').toString('base64')}`;
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const proof = await new SignJWT({ htm: 'POST', htu: `${as.issuer}/token`, jti: base64url(randomBytes(12)) })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: publicJwk })
      .setIssuedAt()
      .sign(privateKey);
    const tokens = await json(
      await fetch(`${as.issuer}/token`, {
        method: 'POST',
        headers: { authorization: basic, dpop: proof },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp:write', resource: RESOURCE }),
      }),
    );
    expect(tokens.token_type).toBe('DPoP');
    const { payload } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(`${as.issuer}/jwks`)), {
      audience: RESOURCE,
    });
    expect((payload['cnf'] as { jkt?: string }).jkt).toBe(await calculateJwkThumbprint(publicJwk));

    // An opaque token (another resource) is what introspection is for.
    const opaque = await json(
      await fetch(`${as.issuer}/token`, {
        method: 'POST',
        headers: { authorization: basic },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp:read', resource: OPAQUE }),
      }),
    );
    expect(opaque.access_token.split('.')).toHaveLength(1);
    const introspected = await json(
      await fetch(`${as.issuer}/token/introspection`, {
        method: 'POST',
        headers: { authorization: basic },
        body: new URLSearchParams({ token: opaque.access_token }),
      }),
    );
    expect(introspected.active).toBe(true);
    expect(introspected.aud).toBe(OPAQUE);
    expect(introspected.scope).toBe('mcp:read');
    const bogus = await json(
      await fetch(`${as.issuer}/token/introspection`, {
        method: 'POST',
        headers: { authorization: basic },
        body: new URLSearchParams({ token: 'not-a-token' }),
      }),
    );
    expect(bogus.active).toBe(false);
  });
});
