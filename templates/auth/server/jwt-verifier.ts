/**
 * The verifier of RFC 9068 JWT access tokens, on jose's `jwtVerify` and `createRemoteJWKSet`: `typ` `at+jwt`,
 * the claims RFC 9068 §2.2 requires, the issuer, the signature against the issuer's JWKS (fetched, cached,
 * fetched again for an unknown key), `exp` and `nbf`, and the audience, which must be this server's resource
 * (RFC 8707). jose takes the token as it is; oauth4webapi's validator wants a fetch `Request` (an undici
 * object and an AbortSignal per token) and checks a DPoP proof the gate checks anyway (dpop.ts, on every
 * request, with the replay and nonce checks): a first verification costs less this way.
 */
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { AuthInfo } from '../../peer/auth-info.js';
import { InvalidTokenError } from './errors.js';
import { identityOf } from './identity.js';
import { answered, AuthorizationServerUnavailable, TrustedIssuer, type IssuerOptions } from './issuer.js';
import type { TokenRequest, TokenVerifier } from './options.js';

export interface JwtVerifierOptions extends IssuerOptions {
  /** The signing algorithms accepted. Default: every asymmetric one jose verifies with a JWKS. */
  algorithms?: readonly string[];
  /** Seconds of leeway for `exp` and `nbf`. Default 30. */
  clockToleranceSeconds?: number;
}

/** RFC 9068 §2.2: the claims every JWT access token carries. */
const REQUIRED_CLAIMS = ['iss', 'exp', 'aud', 'sub', 'client_id', 'iat', 'jti'];
/** Of those, the ones that are strings (jose checks the types of the others). */
const STRING_CLAIMS = ['sub', 'client_id', 'jti'] as const;

/**
 * Verifies JWT access tokens issued by `issuer` (its `jwks_uri` discovered unless given in `metadata`):
 * `auth: { verifier: jwtVerifier({ issuer: 'https://auth.example.com' }), … }`.
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const trusted = new TrustedIssuer(options, 'jwks_uri');
  const clockTolerance = options.clockToleranceSeconds ?? 30;
  const algorithms = options.algorithms === undefined ? {} : { algorithms: [...options.algorithms] };
  /** The key set, made once the JWKS URL is known (jose keeps its keys and when to fetch them again). */
  let keys: JWTVerifyGetKey | undefined;
  const keysOf = (jwksUri: string): JWTVerifyGetKey =>
    (keys ??= createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: trusted.timeoutMs, [customFetch]: answered }));
  return {
    async verify(token: string, request: TokenRequest): Promise<AuthInfo> {
      const as = await trusted.metadata();
      try {
        const { payload } = await jwtVerify(token, keysOf(as.jwks_uri as string), {
          ...algorithms,
          typ: 'at+jwt',
          issuer: as.issuer,
          audience: request.resource,
          requiredClaims: REQUIRED_CLAIMS,
          clockTolerance,
        });
        return identityOf(checkedTypes(payload));
      } catch (error) {
        throw refusalOf(error);
      }
    },
  };
}

function checkedTypes(payload: JWTPayload): JWTPayload {
  for (const claim of STRING_CLAIMS) {
    if (typeof payload[claim] !== 'string') throw new InvalidTokenError(`the token's "${claim}" claim is not a string`);
  }
  return payload;
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
