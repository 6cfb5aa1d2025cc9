/**
 * The token endpoint: the authorization code (with its PKCE verifier), a refresh token, client credentials, or a
 * JWT assertion (RFC 7523) becomes tokens, each request with the RFC 8707 `resource` and, where the client uses DPoP,
 * a proof (sent once more with the server's nonce when it asks for one, RFC 9449 §8). The answer is kept as the
 * StoredTokens record.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */
import {
  authorizationCodeGrantRequest,
  clientCredentialsGrantRequest,
  genericTokenEndpointRequest,
  isDPoPNonceError,
  processAuthorizationCodeResponse,
  processClientCredentialsResponse,
  processGenericTokenEndpointResponse,
  processRefreshTokenResponse,
  refreshTokenGrantRequest,
  ResponseBodyError,
  type AuthorizationServer,
  type DPoPHandle,
  type TokenEndpointResponse,
} from 'oauth4webapi';
import { describe } from '../../core/peer-messages.js';
import { AuthorizationError } from './errors.js';
import { checkSecure, requestOptions, type OAuthHttp } from './http.js';
import type { ClientIdentity } from './identity.js';
import type { StoredTokens } from './store.js';

/** The grant a token request makes, with what it carries. */
export type TokenGrant =
  | { type: 'authorization_code'; callback: URLSearchParams; redirectUri: string; codeVerifier: string }
  | { type: 'refresh_token'; refreshToken: string }
  | { type: 'client_credentials' }
  | { type: 'assertion'; grantType: string; assertion: string };

/** One token request: where, who, what for. */
export interface TokenRequest {
  server: AuthorizationServer;
  identity: ClientIdentity;
  resource: string;
  scope?: string | undefined;
  dpop?: { handle: DPoPHandle; jkt: string } | undefined;
}

/** Asks the token endpoint; the tokens as they are to be stored. Throws AuthorizationError when refused. */
export async function requestTokens(http: OAuthHttp, request: TokenRequest, grant: TokenGrant): Promise<StoredTokens> {
  const endpoint = checkSecure(http, request.server.token_endpoint ?? '', 'the token endpoint');
  let response: TokenEndpointResponse;
  try {
    response = await withNonceRetry(() => send(http, endpoint, request, grant));
  } catch (error) {
    throw refusal(request.server, error);
  }
  const now = Date.now();
  const tokens: StoredTokens = {
    access_token: response.access_token,
    token_type: response.token_type,
    issuer: request.server.issuer,
    client_id: request.identity.client.client_id,
    resource: request.resource,
  };
  const refreshToken = response.refresh_token ?? (grant.type === 'refresh_token' ? grant.refreshToken : undefined);
  if (refreshToken !== undefined) tokens.refresh_token = refreshToken;
  if (response.expires_in !== undefined) tokens.expires_at = now + response.expires_in * 1000;
  const granted = response.scope ?? request.scope;
  if (granted !== undefined) tokens.scope = granted;
  if (request.scope !== undefined) tokens.requested_scope = request.scope;
  if (response.token_type === 'dpop' && request.dpop !== undefined) tokens.dpop_jkt = request.dpop.jkt;
  return tokens;
}

/** One request and its processing; the DPoP handle keeps the nonce a refusal brought for the retry. */
async function send(
  http: OAuthHttp,
  endpoint: URL,
  { server, identity, resource, scope, dpop }: TokenRequest,
  grant: TokenGrant,
): Promise<TokenEndpointResponse> {
  const { client, auth } = identity;
  const parameters: Record<string, string> = { resource };
  const options = { ...requestOptions(http, endpoint), ...(dpop ? { DPoP: dpop.handle } : {}) };
  switch (grant.type) {
    case 'authorization_code': {
      const response = await authorizationCodeGrantRequest(
        server,
        client,
        auth,
        grant.callback,
        grant.redirectUri,
        grant.codeVerifier,
        { ...options, additionalParameters: parameters },
      );
      return processAuthorizationCodeResponse(server, client, response);
    }
    case 'refresh_token': {
      if (scope !== undefined) parameters['scope'] = scope;
      const response = await refreshTokenGrantRequest(server, client, auth, grant.refreshToken, {
        ...options,
        additionalParameters: parameters,
      });
      return processRefreshTokenResponse(server, client, response);
    }
    case 'client_credentials': {
      if (scope !== undefined) parameters['scope'] = scope;
      const response = await clientCredentialsGrantRequest(server, client, auth, parameters, options);
      return processClientCredentialsResponse(server, client, response);
    }
    case 'assertion': {
      parameters['assertion'] = grant.assertion;
      if (scope !== undefined) parameters['scope'] = scope;
      const response = await genericTokenEndpointRequest(server, client, auth, grant.grantType, parameters, options);
      return processGenericTokenEndpointResponse(server, client, response);
    }
  }
}

/** A DPoP nonce error (RFC 9449 §8) is asked once more: the handle has the server's nonce by then. */
async function withNonceRetry<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!isDPoPNonceError(error)) throw error;
    return attempt();
  }
}

function refusal(server: AuthorizationServer, error: unknown): AuthorizationError {
  if (error instanceof AuthorizationError) return error;
  if (error instanceof ResponseBodyError) {
    const description = error.error_description ? `: ${error.error_description}` : '';
    return new AuthorizationError(
      'token-refused',
      `the token endpoint of ${server.issuer} refused: ${error.error}${description}`,
      error,
    );
  }
  return new AuthorizationError(
    'invalid-response',
    `the token endpoint of ${server.issuer}: ${describe(error)}`,
    error,
  );
}
