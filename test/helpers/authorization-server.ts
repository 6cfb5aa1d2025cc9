/**
 * A real OAuth 2.1 authorization server for the tests: oidc-provider (a certified OpenID provider from npm),
 * in-process on 127.0.0.1 with a random port. It speaks what the MCP authorization chapter asks of an
 * authorization server and what the tests exercise: RFC 8414 / OpenID discovery, dynamic client registration
 * (RFC 7591), authorization code with PKCE S256 only, resource indicators (RFC 8707) that yield RFC 9068 JWT
 * access tokens whose audience is the resource, refresh tokens, client credentials, token introspection
 * (RFC 7662), DPoP (RFC 9449) and the `iss` authorization response parameter (RFC 9207).
 *
 * The one interactive step, a person approving in a browser, is `approve(authorizationUrl)`: it follows the
 * redirects with a cookie jar as a browser would, logs in as `user` and consents to what was asked, and
 * resolves to the URL the server redirected back to (the client's redirect URI with `code`, `state`, `iss`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors, type ClientMetadata, type Configuration } from 'oidc-provider';

export interface ResourceServerSettings {
  /** The scopes a token for this resource may carry (a request for any other is refused). */
  scopes: readonly string[];
  /** Seconds an access token for this resource lives. Default 300. */
  accessTokenTtl?: number;
  /** RFC 9068 JWT access tokens (default), or opaque ones the resource server must introspect (RFC 7662). */
  format?: 'jwt' | 'opaque';
}

export interface AuthorizationServerOptions {
  /** The protected resources (MCP server URLs) this server issues tokens for, by resource indicator. */
  resources: Record<string, ResourceServerSettings>;
  /** Clients registered up front (pre-registration); dynamic registration is on regardless. */
  clients?: ClientMetadata[];
  /** The subject (`sub`) `approve` logs in as. Default `user-1`. */
  user?: string;
  /** Seconds a refresh token lives. Default one day. */
  refreshTokenTtl?: number;
  /**
   * More scopes the server lists as its own (`scopes_supported`) and accepts in a registration's `scope`
   * (the SDK v2 client registers with the scope it will ask for). Default none beyond openid and offline_access.
   */
  scopesSupported?: readonly string[];
}

export interface AuthorizationServer {
  /** The issuer identifier, `http://127.0.0.1:<port>`. */
  readonly issuer: string;
  readonly provider: Provider;
  /**
   * Acts as the user's browser: opens `authorizationUrl`, logs in, consents, and resolves to the redirect
   * back to the client (whatever it carries: a code, or an error). Rejects when the server answers with a
   * page instead (e.g. an invalid redirect URI: the server must not redirect then).
   */
  approve(authorizationUrl: string | URL): Promise<URL>;
  /** Every request the server received, method and path (e.g. `POST /token`), in order. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

const INTERACTION = '/interaction/';

export async function startAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const user = options.user ?? 'user-1';
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-es256', alg: 'ES256', use: 'sig' };
  const requests: string[] = [];
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: options.clients ?? [],
    // The one signing key is ES256: every client signs and verifies with it unless it says otherwise.
    clientDefaults: {
      id_token_signed_response_alg: 'ES256',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
    jwks: { keys: [jwk] },
    cookies: { keys: ['mcp-typegen-tests'] },
    // The server's own scopes; a resource's scopes come from getResourceServerInfo below.
    scopes: ['openid', 'offline_access', ...(options.scopesSupported ?? [])],
    pkce: { required: () => true },
    ttl: {
      // The resource's `accessTokenTtl` (getResourceServerInfo below), for every grant that issues one.
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 300,
      AuthorizationCode: 60,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 300,
      Grant: 3600,
      Interaction: 600,
      Session: 3600,
      RefreshToken: options.refreshTokenTtl ?? 86_400,
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      dPoP: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // A token request without `resource` gets the one its grant was for.
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          const settings = options.resources[resource];
          if (!settings) throw new errors.InvalidTarget(`unknown resource ${resource}`);
          return {
            scope: settings.scopes.join(' '),
            audience: resource,
            accessTokenTTL: settings.accessTokenTtl ?? 300,
            ...(settings.format === 'opaque'
              ? { accessTokenFormat: 'opaque' }
              : { accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } }),
          };
        },
      },
    },
    // Refresh tokens for every client allowed the grant, not only those that asked for offline_access.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: { url: (_ctx, interaction) => `${INTERACTION}${interaction.uid}` },
    clientBasedCORS: () => true,
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  /** The login and consent pages: the user logs in as `user` and approves whatever the client asked for. */
  async function interact(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { prompt, params, session, grantId } = await provider.interactionDetails(req, res);
    if (prompt.name === 'login') {
      await provider.interactionFinished(req, res, { login: { accountId: user } }, { mergeWithLastSubmission: false });
      return;
    }
    const clientId = String(params['client_id']);
    const grant = grantId
      ? await provider.Grant.find(grantId)
      : new provider.Grant({ accountId: session?.accountId ?? user, clientId });
    if (!grant) throw new Error(`grant ${grantId ?? ''} not found`);
    const details = prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
    if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(details.missingResourceScopes ?? {}))
      grant.addResourceScope(resource, scopes.join(' '));
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method ?? ''} ${(req.url ?? '').split('?')[0] ?? ''}`);
    if (req.url?.startsWith(INTERACTION)) {
      interact(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    void callback(req, res);
  });

  async function approve(authorizationUrl: string | URL): Promise<URL> {
    const cookies = new Map<string, string>();
    let url = new URL(authorizationUrl);
    for (let hop = 0; hop < 10; hop++) {
      if (url.origin !== issuer) return url;
      const response = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
      }
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        throw new Error(
          `authorization server answered ${response.status} at ${url.pathname}: ${await response.text()}`,
        );
      }
      await response.body?.cancel();
      url = new URL(location, url);
    }
    throw new Error('authorization server: too many redirects');
  }

  return {
    issuer,
    provider,
    approve,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
