/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * The verifier of RFC 9068 JWT access tokens: `typ` `at+jwt`, the claims RFC 9068 §2.2 requires, the issuer,
 * the signature against the issuer's JWKS (fetched, cached, fetched again for an unknown key), `exp` and `nbf`,
 * and the audience, which must be this server's resource (RFC 8707).
 *
 * Two libraries, each where it is best. jose reads the header and keeps the issuer's key set
 * (`createRemoteJWKSet`: the fetch, the cache, the cool-down before fetching again). fast-jwt checks the
 * signature and the claims with `node:crypto`'s synchronous verify. jose checks signatures with WebCrypto, which on
 * Node is a round trip through the thread pool: about twice the CPU of a first verification, the cost the
 * gate's budget counts. Node only (`node:crypto`; Deno and Bun have it).
 */
import { KeyObject } from 'node:crypto';
import { createVerifier, type Algorithm } from 'fast-jwt';
import { createRemoteJWKSet, customFetch, decodeProtectedHeader, errors } from 'jose';
import type { AuthInfo } from '../../peer/auth-info.js';
import { ASYMMETRIC, asymmetricAlgorithms } from './algorithms.js';
import { InvalidTokenError } from './errors.js';
import { identityOf } from './identity.js';
import { answered, AuthorizationServerUnavailable, TrustedIssuer, type IssuerOptions } from './issuer.js';
import type { TokenRequest, TokenVerifier } from './options.js';

export interface JwtVerifierOptions extends IssuerOptions {
  /**
   * The signing algorithms accepted, of RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512 and EdDSA.
   * Default: all of them. Symmetric (HS256 …) and unsigned tokens are never accepted.
   */
  algorithms?: readonly string[];
  /** Seconds of leeway for `nbf` (and for `exp` here; the gate allows none on `exp`). Default 30. */
  clockToleranceSeconds?: number;
}

/** RFC 9068 §2.2: the claims every JWT access token carries. */
const REQUIRED_CLAIMS = ['iss', 'exp', 'aud', 'sub', 'client_id', 'iat', 'jti'];
/** Of those, the ones that are strings (fast-jwt checks the types of iss, aud and exp). */
const STRING_CLAIMS = ['sub', 'client_id', 'jti'] as const;

type Claims = { readonly [claim: string]: unknown };
/** jose's remote key set: the key a token's header names. */
type KeySet = ReturnType<typeof createRemoteJWKSet>;
type Key = Awaited<ReturnType<KeySet>>;
/** fast-jwt's verifier of one key for one issuer and audience: the claims, or a TokenError thrown. */
type Check = (token: string) => Claims;

/**
 * Verifies JWT access tokens issued by `issuer` (its `jwks_uri` discovered unless given in `metadata`):
 * `auth: { verifier: jwtVerifier({ issuer: 'https://auth.example.com' }), … }`.
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const trusted = new TrustedIssuer(options, 'jwks_uri');
  const accepted =
    options.algorithms === undefined ? ASYMMETRIC : asymmetricAlgorithms(options.algorithms, 'jwtVerifier');
  const clockToleranceMs = (options.clockToleranceSeconds ?? 30) * 1000;
  /** The key set, made once the JWKS URL is known (jose keeps its keys and when to fetch them again). */
  let keys: KeySet | undefined;
  const keysOf = (jwksUri: string): KeySet =>
    (keys ??= createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: trusted.timeoutMs, [customFetch]: answered }));
  /** The checks made for each key jose hands out (a key set fetched again hands out new keys). */
  const checks = new WeakMap<object, Map<string, Check>>();
  const checkOf = (key: Key, alg: Algorithm, issuer: string, resource: string): Check => {
    let ofKey = checks.get(key);
    if (ofKey === undefined) checks.set(key, (ofKey = new Map()));
    const context = JSON.stringify([alg, issuer, resource]);
    let check = ofKey.get(context);
    if (check === undefined) {
      check = createVerifier({
        key: KeyObject.from(key).export({ type: 'spki', format: 'pem' }) as string,
        algorithms: [alg],
        checkTyp: 'at+jwt',
        allowedIss: issuer,
        allowedAud: resource,
        requiredClaims: REQUIRED_CLAIMS,
        clockTolerance: clockToleranceMs,
      }) as Check;
      ofKey.set(context, check);
    }
    return check;
  };
  return {
    async verify(token: string, request: TokenRequest): Promise<AuthInfo> {
      const as = await trusted.metadata();
      try {
        const header = decodeProtectedHeader(token);
        const alg = accepted.find((a) => a === header.alg);
        if (alg === undefined) throw new InvalidTokenError(`the token's algorithm is not one this server accepts`);
        const key = await keysOf(as.jwks_uri as string)(header);
        return identityOf(checkedTypes(checkOf(key, alg, as.issuer, request.resource)(token)));
      } catch (error) {
        throw refusalOf(error);
      }
    },
  };
}

/** The types fast-jwt leaves unchecked: sub, client_id and jti are strings, iat a number. */
function checkedTypes(claims: Claims): Claims {
  for (const claim of STRING_CLAIMS) {
    if (typeof claims[claim] !== 'string') throw new InvalidTokenError(`the token's "${claim}" claim is not a string`);
  }
  if (typeof claims['iat'] !== 'number') throw new InvalidTokenError(`the token's "iat" claim is not a number`);
  return claims;
}

/**
 * What went wrong: the authorization server's fault (its JWKS did not come, or came unreadable) as it is;
 * anything else is the token's.
 */
function refusalOf(error: unknown): Error {
  if (error instanceof AuthorizationServerUnavailable || error instanceof InvalidTokenError) return error;
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || isGenericJoseError(error)) {
    return new AuthorizationServerUnavailable(`the issuer's JWKS could not be used: ${error.message}`);
  }
  return new InvalidTokenError(error instanceof Error ? error.message : String(error));
}

/** jose's plain JOSEError (no subclass): what its JWKS fetch throws for a non-200 answer or a body not JSON. */
function isGenericJoseError(error: unknown): error is errors.JOSEError {
  return error instanceof errors.JOSEError && error.code === errors.JOSEError.code;
}
