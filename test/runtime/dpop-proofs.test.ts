/**
 * Issue 42: `dpopProofs` checks a DPoP proof (RFC 9449 §4.3) on every request of a DPoP-bound token. What it makes
 * for a proof key is remembered by the proof's header, so these cases check that nothing remembered lets a proof
 * through that the first check would refuse: a forged signature under a known header, another key, a private
 * key in the header, an algorithm not accepted, another typ. Proofs are signed here with jose.
 */
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { dpopProofs } from '@mcp-typegen/runtime/auth/server';
import { dpopKey, dpopProof } from '../helpers/oauth-tokens.js';

const URL_ = 'https://mcp.example.com/mcp';
const TOKEN = 'the.access.token';
const request = { url: URL_, method: 'POST', headers: {}, scheme: 'DPoP' as const, resource: URL_ };

async function refusal(check: Promise<void>): Promise<Error> {
  return check.then(
    () => new Error('accepted'),
    (error: Error) => error,
  );
}

describe('dpopProofs', () => {
  it('accepts each fresh proof of the bound key, and refuses a forged signature under a header it has seen', async () => {
    const checker = dpopProofs();
    const key = await dpopKey();
    const jkt = await calculateJwkThumbprint(key.jwk);
    for (let i = 0; i < 3; i++) {
      await expect(
        checker.check(await dpopProof(key, 'POST', URL_, { token: TOKEN }), jkt, TOKEN, request),
      ).resolves.toBeUndefined();
    }
    // The header of a proof seen before, the claims of another, the signature of a third: no signature over this.
    const [header] = (await dpopProof(key, 'POST', URL_, { token: TOKEN })).split('.');
    const [, payload] = (await dpopProof(key, 'POST', URL_, { token: TOKEN, jti: 'forged' })).split('.');
    const [, , signature] = (await dpopProof(key, 'POST', URL_, { token: TOKEN })).split('.');
    const forged = await refusal(checker.check(`${header}.${payload}.${signature}`, jkt, TOKEN, request));
    expect(forged.name).toBe('InvalidDpopProofError');
    expect(forged.message).toMatch(/signature/);
  });

  it('refuses a proof signed with another key than the token is bound to, before and after that key is known', async () => {
    const checker = dpopProofs();
    const bound = await calculateJwkThumbprint((await dpopKey()).jwk);
    const other = await dpopKey();
    for (let i = 0; i < 2; i++) {
      const error = await refusal(
        checker.check(await dpopProof(other, 'POST', URL_, { token: TOKEN }), bound, TOKEN, request),
      );
      expect(error.message).toMatch(/another key/);
    }
  });

  it('refuses a header that carries a private key, no key, an algorithm not accepted, or another typ', async () => {
    const checker = dpopProofs({ algorithms: ['ES256'] });
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const publicJwk = await exportJWK(publicKey);
    const jkt = await calculateJwkThumbprint(publicJwk);
    const ath = createHash('sha256').update(TOKEN).digest('base64url');
    const sign = (header: { alg: string; typ: string; jwk?: JWK }, key = privateKey) =>
      new SignJWT({ htm: 'POST', htu: URL_, jti: `j${Math.random()}`, ath })
        .setProtectedHeader(header)
        .setIssuedAt()
        .sign(key);
    const rs = await generateKeyPair('RS256');
    const cases: [string, Promise<string>, RegExp][] = [
      ['a private key', sign({ alg: 'ES256', typ: 'dpop+jwt', jwk: privateJwk }), /public key/],
      ['no key', sign({ alg: 'ES256', typ: 'dpop+jwt' }), /no key/],
      [
        'RS256, not accepted here',
        sign({ alg: 'RS256', typ: 'dpop+jwt', jwk: await exportJWK(rs.publicKey) }, rs.privateKey),
        /algorithm/,
      ],
      ['typ JWT', sign({ alg: 'ES256', typ: 'JWT', jwk: publicJwk }), /typ/],
    ];
    for (const [what, proof, message] of cases) {
      const error = await refusal(checker.check(await proof, jkt, TOKEN, request));
      expect(error.name, what).toBe('InvalidDpopProofError');
      expect(error.message, what).toMatch(message);
    }
    await expect(
      checker.check(await sign({ alg: 'ES256', typ: 'dpop+jwt', jwk: publicJwk }), jkt, TOKEN, request),
    ).resolves.toBeUndefined();
  });

  it('refuses, when made, an `algorithms` list naming one a public key does not verify', () => {
    expect(() => dpopProofs({ algorithms: ['ES256', 'HS256'] })).toThrow(/dpopProofs: "HS256" is not an asymmetric/);
  });
});
