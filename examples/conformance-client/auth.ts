/**
 * The `auth/*` client scenarios of the official MCP conformance suite (@modelcontextprotocol/conformance), on the
 * generated 2026-07-28 client and the runtime's OAuth client (`oauthClient`, `@mcp-typegen/runtime/auth`): the example
 * client of 2026-07-28 (client-2026-07-28.ts) hands every `auth/` scenario here.
 *
 * Each scenario's test server is behind a test authorization server; what a scenario gives the client (a
 * pre-registered client, a private key, an assertion) is in MCP_CONFORMANCE_CONTEXT, the version the run is for
 * in MCP_CONFORMANCE_PROTOCOL_VERSION. The client connects, lists the tools and calls `test-tool`; a scenario
 * where the client must refuse to go on (a lying server) ends with the AuthorizationError that says why.
 */
import { oauthClient, type OAuthClientOptions, type PreRegisteredClient } from '@mcp-typegen/runtime/auth';
import { McpClient, StreamableHttpClientTransport } from '../.generated/2026-07-28/index.js';

/** The Client ID Metadata Document URL the suite's servers accept (they never fetch it). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** The redirect URI: the suite's authorization servers redirect to it at once, and nothing listens there. */
const REDIRECT_URI = 'http://localhost:3000/callback';

/** What a scenario's MCP_CONFORMANCE_CONTEXT may hold. */
interface Context {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  valid_jwt?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_token_endpoint?: string;
}

export function isAuthScenario(scenario: string): boolean {
  return scenario.startsWith('auth/');
}

/** Runs one auth scenario against the server at `url`; rejects when the client could not do its part. */
export async function runAuthScenario(scenario: string, url: string): Promise<void> {
  const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as Context;
  const auth = oauthClient(await optionsFor(scenario, context));
  const version = process.env['MCP_CONFORMANCE_PROTOCOL_VERSION'];
  const client = new McpClient(new StreamableHttpClientTransport(url, { auth }), {
    clientInfo: { name: 'mcp-typegen-conformance-client', version: '0.1.0' },
    // A run for an initialize-era version speaks that era only (a 2026-07-28 client would probe first).
    ...(version !== undefined && version < '2026-07-28' ? { supportedProtocolVersions: versionsUpTo(version) } : {}),
    eraCache: new Map(),
  });
  try {
    await client.connect();
    console.log(`[client] connected (protocol ${client.protocolVersion})`);
    const { tools } = await client.tools.list();
    console.log(`[client] tools: ${tools.map((tool) => tool.name).join(', ')}`);
    await client.tools.call({ name: 'test-tool', arguments: {} });
    console.log('[client] test-tool called');
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** The OAuth client's options: the code flow for a user, or the machine grant the scenario is about. */
async function optionsFor(scenario: string, context: Context): Promise<OAuthClientOptions> {
  switch (scenario) {
    case 'auth/client-credentials-basic':
    case 'auth/client-credentials-jwt':
      return { grant: 'client_credentials', client: await machineClient(context) };
    case 'auth/wif-jwt-bearer':
      return {
        grant: 'jwt-bearer',
        client: { client_id: need(context.client_id) },
        assertion: () => need(context.valid_jwt),
      };
    case 'auth/enterprise-managed-authorization':
    case 'auth/cross-app-access-complete-flow': // its name in the stable suite (0.1.16)
      return {
        grant: 'jwt-bearer',
        client: { client_id: need(context.client_id), client_secret: need(context.client_secret) },
        assertion: (request) => identityAssertion(context, request),
      };
    default:
      return {
        redirectUri: REDIRECT_URI,
        redirect: followRedirect,
        clientMetadataUrl: CLIENT_METADATA_URL,
        registration: { client_name: 'mcp-typegen-conformance-client' },
        ...(context.client_id === undefined
          ? {}
          : { client: { client_id: context.client_id, ...optional('client_secret', context.client_secret) } }),
      };
  }
}

/**
 * Plays the user's browser: the suite's authorization endpoint answers at once with a redirect to the redirect URI
 * (code, state, iss); that URL is the callback.
 */
async function followRedirect(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (location === null) throw new Error(`the authorization endpoint answered ${response.status}, no redirect`);
  return new URL(location, authorizationUrl).href;
}

/** Client credentials with a secret (client_secret_basic), or with a private key (private_key_jwt, RFC 7523). */
async function machineClient(context: Context): Promise<PreRegisteredClient & { client_secret: string }> {
  const client_id = need(context.client_id);
  if (context.private_key_pem === undefined) return { client_id, client_secret: need(context.client_secret) };
  const der = Buffer.from(context.private_key_pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  const private_key = await crypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
  ]);
  // The type asks for a secret or a key; this client has the key.
  return { client_id, private_key } as PreRegisteredClient & { client_secret: string };
}

/**
 * Enterprise-managed authorization: the identity provider exchanges the user's ID token for an identity assertion
 * (ID-JAG) for this authorization server and resource (RFC 8693), which the OAuth client presents (RFC 7523).
 */
async function identityAssertion(context: Context, request: { issuer: string; resource: string }): Promise<string> {
  const response = await fetch(need(context.idp_token_endpoint), {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: request.issuer,
      resource: request.resource,
      subject_token: need(context.idp_id_token),
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      client_id: need(context.idp_client_id),
    }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!response.ok || body.access_token === undefined) throw new Error(`token exchange failed: ${response.status}`);
  return body.access_token;
}

/** The initialize-era versions up to `version`, newest first. */
function versionsUpTo(version: string): string[] {
  return ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'].filter((v) => v <= version);
}

function need(value: string | undefined): string {
  if (value === undefined) throw new Error('MCP_CONFORMANCE_CONTEXT lacks a value this scenario needs');
  return value;
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}
