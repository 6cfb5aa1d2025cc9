/**
 * Who is calling, as a request handler sees it (`ctx.auth`): the identity the HTTP server's `auth` gate
 * verified from the request's access token (auth/server/). Never the token itself: a handler has no use for
 * it, and an MCP server must not pass a client's token on to anyone.
 *
 * Hand-written runtime copied into generated output. Browser-safe (types and one reader).
 */
import type { MessageExtraInfo } from '../core/transport.js';
import type { HandlerContext, NotificationContext } from '../core/peer-types.js';

/** The verified identity behind a request. */
export interface AuthInfo {
  /** `sub`: whom the token speaks for (a user; the client itself for client credentials). */
  readonly subject: string;
  /** `client_id`: the OAuth client the token was issued to, when the token says. */
  readonly clientId: string | undefined;
  /** The scopes granted (`scope`, split on spaces). */
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch (`exp`), when it says. */
  readonly expiresAt: number | undefined;
  /** The resources the token is for (`aud`): this server's resource URL is among them. */
  readonly audience: readonly string[];
  /** `iss`: the authorization server that issued the token, when it says. */
  readonly issuer: string | undefined;
  /** Every claim as the verifier read it: the JWT's payload, or the introspection answer. */
  readonly claims: { readonly [claim: string]: unknown };
}

/** The identity a transport attached to a message (HTTP servers with an `auth` gate do), if any. */
export function authOf(extra: MessageExtraInfo | undefined): AuthInfo | undefined {
  return (extra as { auth?: AuthInfo } | undefined)?.auth;
}

/** A handler's context given `auth`: the identity the transport attached (HTTP with an `auth` gate), else undefined. */
export function withAuth<Ctx extends HandlerContext | NotificationContext>(ctx: Ctx): Ctx {
  (ctx as unknown as { auth: AuthInfo | undefined }).auth = authOf(ctx.extra);
  return ctx;
}
