/**
 * The verifier of RFC 9068 JWT access tokens, on oauth4webapi's `validateJwtAccessToken`: `typ` `at+jwt`,
 * the issuer, the signature against the issuer's JWKS (fetched, cached, fetched again for an unknown key),
 * `exp` and `nbf`, and the audience, which must be this server's resource (RFC 8707). A DPoP-bound token's
 * proof is checked by oauth4webapi too on this first verification; the gate's DPoP check (dpop.ts) checks
 * every request's proof, and adds the replay and nonce checks oauth4webapi leaves to the caller.
 */
import * as oauth from 'oauth4webapi';
import type { AuthInfo } from '../../peer/auth-info.js';
import { InvalidTokenError } from './errors.js';
import { identityOf } from './identity.js';
import { AuthorizationServerUnavailable, TrustedIssuer, type IssuerOptions } from './issuer.js';
import type { TokenRequest, TokenVerifier } from './options.js';

export interface JwtVerifierOptions extends IssuerOptions {
  /** The signing algorithms accepted. Default: every one oauth4webapi supports. */
  algorithms?: readonly string[];
  /** Seconds of leeway for `exp` and `nbf`. Default 30 (oauth4webapi's). */
  clockToleranceSeconds?: number;
}

/**
 * Verifies JWT access tokens issued by `issuer` (its `jwks_uri` discovered unless given in `metadata`):
 * `auth: { verifier: jwtVerifier({ issuer: 'https://auth.example.com' }), … }`.
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const trusted = new TrustedIssuer(options, 'jwks_uri');
  const validation: oauth.ValidateJWTAccessTokenOptions = {
    ...(trusted.requestOptions as oauth.HttpRequestOptions<'GET'>),
    ...(options.algorithms === undefined ? {} : { signingAlgorithms: [...options.algorithms] }),
    ...(options.clockToleranceSeconds === undefined ? {} : { [oauth.clockTolerance]: options.clockToleranceSeconds }),
  };
  return {
    async verify(token: string, request: TokenRequest): Promise<AuthInfo> {
      const as = await trusted.metadata();
      const proof = request.headers['dpop'];
      const headers: Record<string, string> = { authorization: `${request.scheme} ${token}` };
      if (typeof proof === 'string') headers['dpop'] = proof;
      // oauth4webapi reads the token (and a DPoP proof) from a fetch Request.
      const asked = new Request(request.url, { method: request.method, headers });
      try {
        return identityOf(await oauth.validateJwtAccessToken(as, asked, request.resource, validation));
      } catch (error) {
        throw refusalOf(error);
      }
    },
  };
}

/** What went wrong: the authorization server's fault as it is; anything else is the token's. */
function refusalOf(error: unknown): Error {
  if (error instanceof AuthorizationServerUnavailable || error instanceof InvalidTokenError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new InvalidTokenError(message.replace(/^"request" /, 'the request '));
}
