/**
 * The OAuth 2.1 client (`@mcp-typegen/runtime/auth`): the HTTP client transports' `auth` option, as the spec's
 * Authorization chapter describes it, on oauth4webapi (its one dependency). An entry of its own so that a client
 * that never authorizes bundles none of it. Browser-safe: no `node:` imports.
 *
 * The public API, name by name (see index.ts and packages/runtime/api-report.md).
 */
export { type AuthorizationFailure, AuthorizationError } from './auth/client/errors.js';
export { type HttpClientAuth } from './auth/client/hook.js';
export {
  type PreRegisteredClient,
  type RegistrationMetadata,
  type TokenEndpointAuthMethod,
} from './auth/client/identity.js';
export { OAuthClient, oauthClient } from './auth/client/oauth-client.js';
export {
  type AuthorizationCodeOptions,
  type ClientCredentialsOptions,
  type JwtBearerOptions,
  type OAuthClientCommon,
  type OAuthClientOptions,
} from './auth/client/options.js';
export {
  type AuthRecords,
  type AuthStore,
  keyValueStore,
  type KeyValueStorage,
  memoryStore,
  type PendingAuthorization,
  type StoredClient,
  type StoredTokens,
} from './auth/client/store.js';
