/**
 * What the HTTP client transports know of authorization: the type of their `auth` option. Types only, so a
 * client that never authorizes bundles none of the OAuth flow (made by `oauthClient()`, from
 * `@mcp-typegen/runtime/auth`: oauth-client.ts beside this file).
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */

/** The `auth` option of the HTTP client transports (Streamable HTTP, HTTP+SSE): made by `oauthClient()`. */
export interface HttpClientAuth {
  /**
   * The fetch a transport sends its requests to `server` (its endpoint URL) with, made from the one it would use
   * otherwise: credentials on every request, and a request refused for want of authorization (401, or 403
   * `insufficient_scope`) sent once more after authorizing. What it throws (an `AuthorizationError`, a
   * `LocalError`) reaches the caller unchanged.
   */
  fetch(fetch: typeof globalThis.fetch, server: URL): typeof globalThis.fetch;
}
