/**
 * What the OAuth client's types promise (compiled by test/runtime/oauth-client-types.test.ts with tsc --strict):
 * each grant asks for what it needs, the store's records are typed by kind, the error's reason is a closed set, and
 * the transports' `auth` option takes an OAuth client (or anything with its one method), nothing else.
 */
import { SseLegacyClientTransport, StreamableHttpClientTransport } from '@mcp-typegen/runtime';
import {
  AuthorizationError,
  memoryStore,
  oauthClient,
  type AuthStore,
  type PreRegisteredClient,
  type StoredTokens,
} from '@mcp-typegen/runtime/auth';

const redirectUri = 'http://127.0.0.1:8000/callback';

// The code flow: a redirect URI and the user's step.
export const user = oauthClient({ redirectUri, redirect: (url) => console.log(url.href) });
export const back = oauthClient({ redirectUri, redirect: async (url) => new URL(url.searchParams.get('x') ?? '') });
// @ts-expect-error [code-needs-redirect]
oauthClient({ redirectUri });
// @ts-expect-error [redirect-returns-url]
oauthClient({ redirectUri, redirect: () => 42 });

// Machine to machine: a client, with a secret or a private key.
declare const key: NonNullable<PreRegisteredClient['private_key']>;
export const withSecret = oauthClient({ grant: 'client_credentials', client: { client_id: 'a', client_secret: 's' } });
export const withKey = oauthClient({ grant: 'client_credentials', client: { client_id: 'a', private_key: key } });
// @ts-expect-error [machine-needs-client]
oauthClient({ grant: 'client_credentials' });
// @ts-expect-error [machine-needs-credentials]
oauthClient({ grant: 'client_credentials', client: { client_id: 'a' } });
// @ts-expect-error [assertion-needed]
oauthClient({ grant: 'jwt-bearer', client: { client_id: 'a' } });
export const assertion = oauthClient({ grant: 'jwt-bearer', client: { client_id: 'a' }, assertion: (r) => r.issuer });

// The store: records by kind.
export async function records(store: AuthStore): Promise<string | undefined> {
  const tokens: StoredTokens | undefined = await store.get('tokens', 'https://mcp.example/mcp');
  // @ts-expect-error [record-kind]
  await store.get('secrets', 'x');
  // @ts-expect-error [record-shape]
  await store.set('client', 'https://as.example', { access_token: 'a', token_type: 'bearer' });
  await store.set('tokens', 'https://mcp.example/mcp', undefined);
  return tokens?.access_token;
}
export const store: AuthStore = memoryStore();

// The error: a closed set of reasons.
export function reason(error: unknown): boolean {
  if (!(error instanceof AuthorizationError)) return false;
  // @ts-expect-error [reason-union]
  if (error.reason === 'bad-vibes') return false;
  return error.reason === 'iss-mismatch' || error.code === -32600;
}

// The transports' option.
export const http = new StreamableHttpClientTransport('https://mcp.example/mcp', { auth: user });
export const sse = new SseLegacyClientTransport('https://mcp.example/sse', { auth: withSecret });
export const own = new StreamableHttpClientTransport('https://mcp.example/mcp', { auth: { fetch: (f) => f } });
// @ts-expect-error [auth-interface]
new StreamableHttpClientTransport('https://mcp.example/mcp', { auth: { headers: {} } });
