/**
 * The ready token verifiers and the DPoP proof check for the HTTP servers' `auth` option
 * (`@mcp-typegen/runtime/auth/server`): RFC 9068 JWT access tokens and DPoP proofs (RFC 9449) on jose (keys) and
 * fast-jwt (signatures and claims), RFC 7662 introspection on oauth4webapi. An entry of its own so that a server
 * without `auth` (and a server vendored with `--runtime copy`) needs none of these libraries: the gate itself, in
 * `@mcp-typegen/runtime/node`, imports none. Node only.
 *
 * The public API, name by name (see index.ts and packages/runtime/api-report.md).
 */
export { dpopProofs, type DpopProofOptions } from './auth/server/dpop.js';
export { introspectionVerifier, type IntrospectionVerifierOptions } from './auth/server/introspection-verifier.js';
export { AuthorizationServerUnavailable, type IssuerOptions } from './auth/server/issuer.js';
export { jwtVerifier, type JwtVerifierOptions } from './auth/server/jwt-verifier.js';
