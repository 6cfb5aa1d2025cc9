/**
 * Issue 42 item 3: `jwtVerifier` (jose's remote JWKS, fast-jwt's checks) checks what RFC 9068 asks of a JWT access
 * token, and tells the token's fault (InvalidTokenError: 401) from the authorization server's
 * (AuthorizationServerUnavailable: 503). Tokens are signed here with jose; the issuer's JWKS is served on loopback,
 * and can be made to fail, lie or rotate.
 */
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthorizationServerUnavailable, jwtVerifier } from '@mcp-typegen/runtime/auth/server';

const RESOURCE = 'https://mcp.example.com/mcp';
type Keys = Awaited<ReturnType<typeof generateKeyPair>>;
let es256: Keys;
let rotated: Keys;
let jwks: () => { status: number; body: string };
let fetches = 0;
let keySets: { first: string; both: string; current?: string };
let http: Server;
let issuer: string;

beforeAll(async () => {
  es256 = await generateKeyPair('ES256');
  rotated = await generateKeyPair('ES256');
  const set = async (entries: [Keys, string][]) =>
    JSON.stringify({
      keys: await Promise.all(
        entries.map(async ([k, kid]) => ({ ...(await exportJWK(k.publicKey)), kid, alg: 'ES256', use: 'sig' })),
      ),
    });
  const first = await set([[es256, 'one']]);
  const both = await set([
    [es256, 'one'],
    [rotated, 'two'],
  ]);
  keySets = { first, both };
  jwks = () => ({ status: 200, body: keySets.current ?? first });
  http = createServer((_req, res) => {
    fetches++;
    const { status, body } = jwks();
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  issuer = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

const verifierOf = (options: { algorithms?: string[] } = {}) =>
  jwtVerifier({ issuer, metadata: { jwks_uri: `${issuer}/jwks` }, ...options });
const request = { url: RESOURCE, method: 'POST', headers: {}, scheme: 'Bearer' as const, resource: RESOURCE };

async function mint(claims: JWTPayload = {}, header: { typ?: string; kid?: string } = {}, key = es256.privateKey) {
  const body: JWTPayload = {
    iss: issuer,
    sub: 'alice',
    aud: RESOURCE,
    client_id: 'app',
    jti: `t${Math.random()}`,
    scope: 'mcp:read',
    ...claims,
  };
  for (const [name, value] of Object.entries(body)) if (value === undefined) delete body[name];
  return new SignJWT(body)
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'one', ...header })
    .setIssuedAt()
    .setExpirationTime(typeof claims.exp === 'number' ? claims.exp : '1h')
    .sign(key);
}

async function refusal(token: string, verifier = verifierOf()): Promise<Error> {
  const outcome = await verifier.verify(token, request).then(
    (auth) => new Error(`accepted: ${JSON.stringify(auth)}`),
    (error: Error) => error,
  );
  return outcome;
}

describe('jwtVerifier', () => {
  it('accepts an RFC 9068 token for this resource (either spelling of its typ) and reads the identity', async () => {
    const verifier = verifierOf();
    const auth = await verifier.verify(await mint(), request);
    expect(auth).toMatchObject({
      subject: 'alice',
      clientId: 'app',
      scopes: ['mcp:read'],
      audience: [RESOURCE],
      issuer,
    });
    await expect(verifier.verify(await mint({}, { typ: 'application/at+jwt' }), request)).resolves.toMatchObject({
      subject: 'alice',
    });
  });

  it('refuses, as the token’s fault (401): another typ, another audience or issuer, expired, a claim RFC 9068 requires missing or not a string', async () => {
    const cases: [string, Promise<string>, RegExp][] = [
      ['typ JWT', mint({}, { typ: 'JWT' }), /typ/],
      ['another audience', mint({ aud: 'https://other.example.com/mcp' }), /aud/],
      ['another issuer', mint({ iss: 'https://evil.example.com' }), /iss/],
      ['expired', mint({ exp: Math.floor(Date.now() / 1000) - 120 }), /exp/],
      ['no jti', mint({ jti: undefined }), /jti/],
      ['no client_id', mint({ client_id: undefined }), /client_id/],
      ['client_id a number', mint({ client_id: 7 as unknown as string }), /client_id/],
      [
        'signed by a key not in the JWKS',
        mint({}, { kid: 'one' }, (await generateKeyPair('ES256')).privateKey),
        /signature/,
      ],
    ];
    for (const [what, token, message] of cases) {
      const error = await refusal(await token);
      expect(error.name, what).toBe('InvalidTokenError');
      expect(error.message, what).toMatch(message);
    }
  });

  it('refuses a symmetric or unsigned token whatever the JWKS holds, and an algorithm not allowed', async () => {
    const hs = await new SignJWT({ iss: issuer, sub: 'a', aud: RESOURCE, client_id: 'c', jti: 'j' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a-secret-of-at-least-32-bytes-long!!'));
    expect((await refusal(hs)).name).toBe('InvalidTokenError');
    const [header, payload] = (await mint()).split('.');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
    expect(header).toBeTruthy();
    expect((await refusal(unsigned)).name).toBe('InvalidTokenError');
    expect((await refusal(await mint(), verifierOf({ algorithms: ['RS256'] }))).name).toBe('InvalidTokenError');
  });

  it('verifies each asymmetric algorithm authorization servers sign with (RSA, RSA-PSS, ECDSA, EdDSA)', async () => {
    const algorithms = ['RS256', 'PS256', 'ES384', 'ES512', 'EdDSA'] as const;
    const pairs = await Promise.all(algorithms.map((alg) => generateKeyPair(alg)));
    const jwkOf = async (alg: string, i: number) => ({
      ...(await exportJWK(pairs[i]!.publicKey)),
      kid: alg,
      alg,
      use: 'sig',
    });
    keySets.current = JSON.stringify({ keys: await Promise.all(algorithms.map(jwkOf)) });
    try {
      const verifier = verifierOf();
      for (const [i, alg] of algorithms.entries()) {
        const token = await new SignJWT({ sub: 'alice', client_id: 'app', jti: `j-${alg}`, scope: 'mcp:read' })
          .setProtectedHeader({ alg, typ: 'at+jwt', kid: alg })
          .setIssuer(issuer)
          .setAudience(RESOURCE)
          .setIssuedAt()
          .setExpirationTime('1h')
          .sign(pairs[i]!.privateKey);
        await expect(verifier.verify(token, request), alg).resolves.toMatchObject({ subject: 'alice' });
        // The same key under another algorithm's name is not a key the JWKS offers for it.
        const [, payload, signature] = token.split('.');
        const renamed = Buffer.from(
          JSON.stringify({ alg: alg === 'RS256' ? 'PS256' : 'RS256', typ: 'at+jwt', kid: alg }),
        );
        const forged = `${renamed.toString('base64url')}.${payload}.${signature}`;
        expect((await refusal(forged, verifier)).name, alg).toBe('InvalidTokenError');
      }
      const only = verifierOf({ algorithms: ['EdDSA'] });
      const rs = await new SignJWT({ sub: 'a', client_id: 'c', jti: 'j' })
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'RS256' })
        .setIssuer(issuer)
        .setAudience(RESOURCE)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(pairs[0]!.privateKey);
      expect((await refusal(rs, only)).message).toMatch(/algorithm/);
    } finally {
      delete keySets.current;
    }
  });

  it('refuses, when made, an `algorithms` list naming one no JWKS key verifies (HS256, none)', () => {
    expect(() => verifierOf({ algorithms: ['ES256', 'HS256'] })).toThrow(/"HS256" is not an asymmetric JWS algorithm/);
    expect(() => verifierOf({ algorithms: ['none'] })).toThrow(/"none"/);
  });

  it('refuses a token whose iat is not a number (RFC 9068 §2.2: NumericDate)', async () => {
    const token = await new SignJWT({ sub: 'alice', client_id: 'app', jti: 'j', iat: 'yesterday' as unknown as number })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'one' })
      .setIssuer(issuer)
      .setAudience(RESOURCE)
      .setExpirationTime('1h')
      .sign(es256.privateKey);
    const error = await refusal(token);
    expect(error.name).toBe('InvalidTokenError');
    expect(error.message).toMatch(/iat/);
  });

  it('fetches the JWKS again for a key it does not know (rotation), once a short cool-down has passed', async () => {
    const verifier = verifierOf();
    keySets.current = keySets.first;
    await verifier.verify(await mint(), request);
    keySets.current = keySets.both;
    const before = fetches;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 31_000);
      const next = await mint({}, { kid: 'two' }, rotated.privateKey);
      await expect(verifier.verify(next, request)).resolves.toMatchObject({ subject: 'alice' });
      expect(fetches).toBe(before + 1);
    } finally {
      vi.useRealTimers();
      delete keySets.current;
    }
  });

  it('a JWKS that fails, is not JSON or is no key set is the authorization server’s fault (503), not the token’s', async () => {
    const saved = jwks;
    try {
      for (const [what, answer] of [
        ['500', { status: 500, body: '{}' }],
        ['404', { status: 404, body: '{}' }],
        ['not JSON', { status: 200, body: '<html>' }],
        ['no key set', { status: 200, body: '{"keys": 7}' }],
      ] as const) {
        jwks = () => answer;
        const error = await refusal(await mint());
        expect(error, what).toBeInstanceOf(AuthorizationServerUnavailable);
      }
      const gone = jwtVerifier({ issuer, metadata: { jwks_uri: 'http://127.0.0.1:9/jwks' } });
      expect(await refusal(await mint(), gone)).toBeInstanceOf(AuthorizationServerUnavailable);
    } finally {
      jwks = saved;
    }
  });
});
