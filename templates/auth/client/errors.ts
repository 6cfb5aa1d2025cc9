/**
 * The one error the OAuth client throws: what went wrong is its `reason`, so a caller can tell a server that
 * lied from a user who said no. It is a LocalError (a failure on this side, not an answer from the peer), which
 * the HTTP transports hand to the caller unchanged: `await client.connect()` rejects with it.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */
import { ErrorCode, LocalError } from '../../core/jsonrpc.js';

/** Why authorizing failed; nothing was stored (no tokens, no registration) when an AuthorizationError is thrown. */
export type AuthorizationFailure =
  /** The protected-resource metadata names another resource than the server (RFC 9728 §3.3). */
  | 'resource-mismatch'
  /** The protected-resource metadata lists no authorization server. */
  | 'no-authorization-server'
  /** No authorization-server metadata at any of the well-known URLs the spec lists. */
  | 'no-metadata'
  /** The authorization-server metadata names another issuer than the one it was fetched for (RFC 8414 §3.3). */
  | 'issuer-mismatch'
  /** The authorization server does not advertise PKCE with S256 (`code_challenge_methods_supported`). */
  | 'pkce-unsupported'
  /** An endpoint on http:// that is not loopback: tokens and codes are never sent over plain HTTP. */
  | 'insecure-endpoint'
  /** No client identity: no pre-registered client, no Client ID Metadata Document, no registration endpoint. */
  | 'no-client'
  /** The pre-registered client belongs to another authorization server than the one the server names. */
  | 'client-mismatch'
  /** Dynamic client registration (RFC 7591) was refused. */
  | 'registration-refused'
  /** The authorization response's `iss` is not the recorded issuer (RFC 9207). */
  | 'iss-mismatch'
  /** The authorization server advertises `iss` in authorization responses, and this one has none (RFC 9207). */
  | 'iss-missing'
  /** The authorization response's `state` matches no authorization this client started. */
  | 'state-mismatch'
  /** The authorization server answered the authorization request with an error (e.g. the user denied). */
  | 'authorization-denied'
  /** The user did not come back within the time allowed (`authorizationTimeoutMs`). */
  | 'authorization-timeout'
  /** The token endpoint refused the request (its `error` and `error_description` are in the message). */
  | 'token-refused'
  /** A server answered with something that is no valid OAuth response. */
  | 'invalid-response';

/** An authorization that could not be completed: `reason` says why, the message says what exactly. */
export class AuthorizationError extends LocalError<{ reason: AuthorizationFailure }> {
  override readonly name: string = 'AuthorizationError';
  declare readonly reason: AuthorizationFailure;

  constructor(reason: AuthorizationFailure, message: string, cause?: unknown) {
    super(ErrorCode.InvalidRequest, message, { reason });
    this.reason = reason;
    if (cause !== undefined) this.cause = cause;
  }
}
