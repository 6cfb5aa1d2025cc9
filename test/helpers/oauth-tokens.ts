/**
 * Access tokens from the tests' authorization server (test/helpers/authorization-server.ts) for the
 * resource-server tests, got as a client would: client credentials with a secret (a JWT or an opaque token,
 * as the resource's format says), DPoP-bound when a key is given (RFC 9449); and DPoP proofs for requests to
 * the resource, signed with jose. A port that listens before its handler is known, so the resource URL (which
 * names the port) can be given to the authorization server before the MCP server is made.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

/** A client registered up front for client credentials, allowed the scopes of every resource. */
export function machineClient(clientId: string, secret = `${clientId}-secret`) {
  return {
    client_id: clientId,
    client_secret: secret,
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
  };
}

/** A DPoP key pair, its public JWK ready for proofs. */
export async function dpopKey(): Promise<{ privateKey: CryptoKey; jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { privateKey, jwk: await exportJWK(publicKey) };
}

/** A DPoP proof (RFC 9449 §4.2) for `htm` `htu`, bound to `token` when given. */
export async function dpopProof(
  key: { privateKey: CryptoKey; jwk: JWK },
  htm: string,
  htu: string,
  extra: { token?: string; nonce?: string; jti?: string; iat?: number } = {},
): Promise<string> {
  const claims: Record<string, unknown> = { htm, htu, jti: extra.jti ?? randomBytes(12).toString('base64url') };
  if (extra.token !== undefined) claims['ath'] = createHash('sha256').update(extra.token).digest('base64url');
  if (extra.nonce !== undefined) claims['nonce'] = extra.nonce;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .setIssuedAt(extra.iat)
    .sign(key.privateKey);
}

/** An access token by client credentials (Basic authentication), DPoP-bound when `dpop` is given. */
export async function clientCredentials(
  issuer: string,
  client: { client_id: string; client_secret: string },
  options: { resource: string; scope: string; dpop?: { privateKey: CryptoKey; jwk: JWK } },
): Promise<{ access_token: string; token_type: string; expires_in: number }> {
  const headers: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
  };
  if (options.dpop !== undefined) headers['dpop'] = await dpopProof(options.dpop, 'POST', `${issuer}/token`);
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers,
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: options.scope, resource: options.resource }),
  });
  const body = (await response.json()) as { access_token: string; token_type: string; expires_in: number };
  if (!response.ok) throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** A server on 127.0.0.1 whose handler is set later (`serve`): its URL is known first. */
export async function portFirst(): Promise<{
  server: Server;
  origin: string;
  serve(handler: (req: IncomingMessage, res: ServerResponse) => void): void;
  close(): Promise<void>;
}> {
  let current: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.writeHead(503).end();
  const server = createServer((req, res) => current(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serve: (handler) => void (current = handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
