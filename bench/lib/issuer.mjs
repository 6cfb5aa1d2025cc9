// An authorization server's signing side for the bench, on loopback: a key per algorithm asked for (kid = the
// algorithm), its JWKS served at `<url>/jwks` (any path answers with it), and RFC 9068 access tokens minted
// with those keys. The auth-gate and cluster rows verify them with jwtVerifier.
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/**
 * `algorithms` (default ES256): the signing keys. Returns `{ url, mint, close }`; `mint({ audience, subject,
 * clientId, scope, alg, expires, jkt })` signs an at+jwt with a fresh jti (alg: the first algorithm by default;
 * `jkt`: bound to that DPoP key, `cnf.jkt`).
 */
export async function startIssuer(algorithms = ['ES256']) {
  const keys = Object.fromEntries(await Promise.all(algorithms.map(async (alg) => [alg, await generateKeyPair(alg)])));
  const jwks = JSON.stringify({
    keys: await Promise.all(
      algorithms.map(async (alg) => ({ ...(await exportJWK(keys[alg].publicKey)), kid: alg, alg, use: 'sig' })),
    ),
  });
  const http = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${http.address().port}`;
  let serial = 0;
  return {
    url,
    mint: ({ audience, subject, clientId, scope, alg = algorithms[0], expires = '1h', jkt }) =>
      new SignJWT({ client_id: clientId, scope, jti: `t${serial++}`, ...(jkt === undefined ? {} : { cnf: { jkt } }) })
        .setProtectedHeader({ alg, typ: 'at+jwt', kid: alg })
        .setIssuer(url)
        .setSubject(subject)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(expires)
        .sign(keys[alg].privateKey),
    close: () => new Promise((resolve) => (http.closeAllConnections(), http.close(resolve))),
  };
}
