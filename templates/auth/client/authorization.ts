/**
 * The authorization code flow's two ends (OAuth 2.1 §4.1): the authorization request the user's browser is sent
 * to (PKCE S256, `state`, the RFC 8707 `resource`, the scopes), and the check of the response it comes back with
 * (RFC 9207 `iss` exactly as the 2026-07-28 chapter's table says, then `state`, then an error), before the code
 * goes to any token endpoint.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */
import {
  AuthorizationResponseError,
  calculatePKCECodeChallenge,
  generateRandomCodeVerifier,
  generateRandomState,
  validateAuthResponse,
  type AuthorizationServer,
  type Client,
} from 'oauth4webapi';
import { AuthorizationError, type AuthorizationFailure } from './errors.js';
import type { PendingAuthorization } from './store.js';

/** What an authorization request is made of, besides its fresh verifier and state. */
export interface AuthorizationRequest {
  endpoint: URL;
  server: AuthorizationServer;
  clientId: string;
  redirectUri: string;
  /** The MCP server the tokens are for (the key they are stored under). */
  target: string;
  resource: string;
  scope?: string | undefined;
  /** DPoP: the key thumbprint the code is bound to (RFC 9449 §10). */
  dpopJkt?: string | undefined;
}

/** The URL to send the user's browser to, and the record that waits for its callback. */
export async function authorizationRequest(
  request: AuthorizationRequest,
): Promise<{ url: URL; pending: PendingAuthorization }> {
  const codeVerifier = generateRandomCodeVerifier();
  const state = generateRandomState();
  const url = new URL(request.endpoint);
  const parameters: Record<string, string> = {
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    code_challenge: await calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    resource: request.resource,
  };
  if (request.scope !== undefined) parameters['scope'] = request.scope;
  if (request.dpopJkt !== undefined) parameters['dpop_jkt'] = request.dpopJkt;
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  const pending: PendingAuthorization = {
    state,
    code_verifier: codeVerifier,
    redirect_uri: request.redirectUri,
    client_id: request.clientId,
    server: request.target,
    resource: request.resource,
    // The recorded issuer is the validated metadata's: the response's `iss` is compared with it.
    metadata: { ...request.server },
    created_at: Date.now(),
    ...(request.scope === undefined ? {} : { scope: request.scope }),
    ...(request.dpopJkt === undefined ? {} : { dpop: true }),
  };
  return { url, pending };
}

/**
 * The callback's parameters, once the library found `iss`, `state` and the absence of an error as they must be;
 * else an AuthorizationError naming which. On a wrong `iss`, the response's `error` is not shown (RFC 9207 §2.4).
 */
export function checkedCallback(
  server: AuthorizationServer,
  client: Client,
  callback: URL,
  state: string,
): URLSearchParams {
  try {
    return validateAuthResponse(server, client, callback.searchParams, state);
  } catch (error) {
    if (error instanceof AuthorizationResponseError) {
      const description = error.error_description ? `: ${error.error_description}` : '';
      throw new AuthorizationError(
        'authorization-denied',
        `the authorization server answered the authorization request with ${error.error}${description}`,
        error,
      );
    }
    const [reason, message] = whatWasWrong(server, callback.searchParams, state);
    throw new AuthorizationError(reason, message, error);
  }
}

/** Names the parameter the library refused (it checks `iss` first, then `state`). */
function whatWasWrong(
  server: AuthorizationServer,
  got: URLSearchParams,
  state: string,
): [AuthorizationFailure, string] {
  const iss = got.get('iss');
  if (iss === null && server.authorization_response_iss_parameter_supported === true) {
    return [
      'iss-missing',
      `the authorization response has no iss, and ${server.issuer} advertises it (RFC 9207): refused`,
    ];
  }
  if (iss !== null && iss !== server.issuer) {
    return [
      'iss-mismatch',
      `the authorization response names the issuer ${iss}, and the request went to ${server.issuer} (RFC 9207): refused`,
    ];
  }
  if (got.get('state') !== state) {
    return ['state-mismatch', 'the authorization response carries another state than the request: refused'];
  }
  return ['invalid-response', 'the authorization response is not a valid one'];
}
