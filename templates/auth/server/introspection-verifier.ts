/**
 * The verifier of opaque access tokens by token introspection (RFC 7662), on oauth4webapi: this server
 * authenticates to the introspection endpoint as an OAuth client (`client_secret_basic` by default), and
 * accepts an active token whose audience is this server's resource (RFC 8707) and whose issuer, when the
 * answer names one, is the one trusted. The gate remembers the answer until the token's `exp`.
 */
import * as oauth from 'oauth4webapi';
import type { AuthInfo } from '../../peer/auth-info.js';
import { InvalidTokenError } from './errors.js';
import { identityOf } from './identity.js';
import { AuthorizationServerUnavailable, TrustedIssuer, type IssuerOptions } from './issuer.js';
import type { TokenRequest, TokenVerifier } from './options.js';

export interface IntrospectionVerifierOptions extends IssuerOptions {
  /** This server's client id at the authorization server. */
  clientId: string;
  /** Its secret, sent with `client_secret_basic` (or `client_secret_post`: `clientAuthentication`). */
  clientSecret?: string;
  /** How it authenticates, when not with `clientSecret` and Basic: any oauth4webapi `ClientAuth`. */
  clientAuthentication?: oauth.ClientAuth;
}

/**
 * Verifies tokens by asking `issuer`'s introspection endpoint (discovered unless given in `metadata`):
 * `auth: { verifier: introspectionVerifier({ issuer, clientId, clientSecret }), … }`.
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const trusted = new TrustedIssuer(options, 'introspection_endpoint');
  const client: oauth.Client = { client_id: options.clientId };
  const authentication =
    options.clientAuthentication ??
    (options.clientSecret !== undefined ? oauth.ClientSecretBasic(options.clientSecret) : undefined);
  if (authentication === undefined) {
    throw new Error('introspectionVerifier: pass clientSecret or clientAuthentication (RFC 7662 §2.1)');
  }
  return {
    async verify(token: string, request: TokenRequest): Promise<AuthInfo> {
      const as = await trusted.metadata();
      const introspected = await introspect(as, client, authentication, token, trusted);
      if (!introspected.active) throw new InvalidTokenError('the token is not active');
      if (introspected.iss !== undefined && introspected.iss !== as.issuer) {
        throw new InvalidTokenError(`the token was issued by ${introspected.iss}, not ${as.issuer}`);
      }
      const auth = identityOf(introspected);
      if (!auth.audience.includes(request.resource)) throw new InvalidTokenError('the token is for another resource');
      return auth;
    },
  };
}

/** The introspection answer; a refused or unreadable one means this server could not ask (503, logged). */
async function introspect(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  authentication: oauth.ClientAuth,
  token: string,
  trusted: TrustedIssuer,
): Promise<oauth.IntrospectionResponse> {
  const options = trusted.requestOptions as oauth.IntrospectionRequestOptions;
  try {
    const response = await oauth.introspectionRequest(as, client, authentication, token, options);
    return await oauth.processIntrospectionResponse(as, client, response);
  } catch (error) {
    if (error instanceof AuthorizationServerUnavailable) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new AuthorizationServerUnavailable(`introspection at ${as.introspection_endpoint ?? ''} failed: ${message}`);
  }
}
