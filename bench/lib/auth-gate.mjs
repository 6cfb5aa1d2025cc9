// The resource-server gate's CPU cost (issue 42 item 7): sequential tools/call of a trivial tool over Streamable
// HTTP on loopback, the generated client and server in this one process, on three endpoints side by side:
// `none` (no auth), `cached` (auth, the same JWT every call: verified once, then remembered), `first` (auth,
// an ES256 JWT never seen before every call: a signature check each time) and `firstRs256` (the same with RS256,
// what most authorization servers sign with by default: oidc-provider, Auth0, Okta, Entra ID). The tokens are
// RFC 9068 JWTs minted before the measurement by an issuer served here on loopback (its JWKS, both keys, fetched
// once), checked by jwtVerifier. `dpop`: the same token every call, bound to a DPoP key (RFC 9449), with a proof
// minted beforehand for every call (checked by dpopProofs on each: the RFC asks it of every request), sent by
// a fetch wrapper that sets the `DPoP` header. The sides take turns every 100 calls, so a drift of the machine
// hits all alike.
// Usage: node auth-gate.mjs <compiled generated JS dir> <json config { calls, runs, warmup }>
// Prints one JSON line: { cpuUs: { none, cached, first, firstRs256, dpop }, rate: { … } }, one value per round.
import { createHash } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startIssuer } from './issuer.mjs';

const [jsDir, configText] = process.argv.slice(2);
const config = JSON.parse(configText);
const gen = (p) => import(pathToFileURL(join(jsDir, p)).href);
const { createServer, createClient } = { ...(await gen('server.js')), ...(await gen('client.js')) };
const { createStreamableHttpServer } = await import('@mcp-typegen/runtime/node');
const { StreamableHttpClientTransport } = await import('@mcp-typegen/runtime');
const { dpopProofs, jwtVerifier } = await import('@mcp-typegen/runtime/auth/server');
const { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } = await import('jose');
const info = { name: 'bench', version: '1.0.0' };
const PARAMS = { name: 'echo', arguments: { text: 'hello' } };

/** A server on loopback, its handler set once its URL is known. */
async function listen(handler = () => {}) {
  const server = createHttpServer((req, res) => handler(req, res));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    serve: (h) => void (handler = h),
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

// The issuer: an ES256 key and an RS256 one (2048 bits), its JWKS served here.
const issuerHttp = await startIssuer(['ES256', 'RS256']);
const issuer = issuerHttp.url;
const mint = (resource, alg = 'ES256') =>
  issuerHttp.mint({ audience: resource, subject: 'bench-user', clientId: 'bench', scope: 'mcp:tools', alg });

/**
 * One side: an endpoint (with `auth` or without) and a client whose token comes from `token()`; with `proof`
 * (a DPoP-bound token), the endpoint checks DPoP proofs and `proof(method, url, token)` gives each request's.
 */
async function side(withAuth, token, proof) {
  const http = await listen();
  const resource = `${http.origin}/mcp`;
  const server = createServer(
    {
      'tools/list': () => ({ tools: [] }),
      'tools/call': (p) => ({ content: [{ type: 'text', text: String(p.arguments?.text) }] }),
    },
    { serverInfo: info },
  );
  const auth = {
    resource,
    authorizationServers: [issuer],
    verifier: jwtVerifier({ issuer, metadata: { jwks_uri: `${issuer}/jwks` } }),
    ...(proof === undefined ? {} : { dpop: dpopProofs() }),
  };
  const endpoint = createStreamableHttpServer({ server, keepAliveMs: 0, ...(withAuth ? { auth } : {}) });
  http.serve(endpoint);
  let current;
  const transport = new StreamableHttpClientTransport(resource, {
    headers: () => (current === undefined ? {} : { authorization: `${proof ? 'DPoP' : 'Bearer'} ${current}` }),
    ...(proof === undefined ? {} : { fetch: withProofs(proof, () => current) }),
  });
  const client = createClient(transport, { clientInfo: info });
  const next = async () => void (current = await token(resource));
  await next();
  await client.connect();
  return {
    resource,
    next,
    call: () => client.tools.call(PARAMS),
    close: async () => {
      await client.close();
      await endpoint.close();
      await http.close();
    },
  };
}

/** A fetch that adds each request's DPoP proof. */
function withProofs(proof, token) {
  return async (input, init = {}) => {
    const headers = new globalThis.Headers(init.headers);
    headers.set('dpop', await proof(init.method ?? 'GET', String(input), token()));
    return fetch(input, { ...init, headers });
  };
}

const fixed = new Map();
const sides = {
  none: await side(false, async () => undefined),
  // The same token every call.
  cached: await side(true, async (resource) => {
    if (!fixed.has(resource)) fixed.set(resource, await mint(resource));
    return fixed.get(resource);
  }),
};
// A fresh token every call, minted beforehand for every call of every round.
const rounds = config.warmup + config.runs;
const BLOCK = Math.min(100, config.calls);
const BLOCKS = Math.ceil(config.calls / BLOCK);
for (const [name, alg] of [
  ['first', 'ES256'],
  ['firstRs256', 'RS256'],
]) {
  // Taken by a cursor: shift() on an array this long (kept in V8's large-object space) copies all of it.
  const pool = [];
  let taken = 0;
  sides[name] = await side(true, async (resource) => (taken < pool.length ? pool[taken++] : mint(resource, alg)));
  for (let i = 0; i < rounds * BLOCKS * BLOCK; i++) pool.push(await mint(sides[name].resource, alg));
}
// A DPoP-bound token, the same every call, and a proof for every POST of every round, minted beforehand.
{
  const key = await generateKeyPair('ES256');
  const jwk = await exportJWK(key.publicKey);
  const jkt = await calculateJwkThumbprint(jwk);
  let serial = 0;
  const sign = (method, url, token) =>
    new SignJWT({
      htm: method,
      htu: url,
      jti: `p${serial++}`,
      ath: createHash('sha256').update(token).digest('base64url'),
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
      .setIssuedAt()
      .sign(key.privateKey);
  const proofs = [];
  let used = 0;
  let bound;
  const token = async (resource) =>
    (bound ??= await issuerHttp.mint({
      audience: resource,
      subject: 'bench-user',
      clientId: 'bench',
      scope: 'mcp:tools',
      jkt,
    }));
  sides.dpop = await side(true, token, async (method, url, t) =>
    method === 'POST' && url === sides.dpop?.resource ? (proofs[used++] ?? sign(method, url, t)) : sign(method, url, t),
  );
  for (let i = 0; i < rounds * BLOCKS * BLOCK; i++) proofs.push(await sign('POST', sides.dpop.resource, bound));
}

const out = { cpuUs: {}, rate: {} };
for (const name of Object.keys(sides)) {
  out.cpuUs[name] = [];
  out.rate[name] = [];
}
const order = Object.keys(sides);
// Within a round the sides take turns every BLOCK calls, so a drift of the machine (seconds long here) falls
// on every side alike; a round's figure for a side is the mean over its blocks.
for (let round = 0; round < rounds; round++) {
  const sum = Object.fromEntries(order.map((name) => [name, { cpuUs: 0, ms: 0 }]));
  for (let block = 0; block < BLOCKS; block++) {
    for (const name of block % 2 ? [...order].reverse() : order) {
      const r = await measure(sides[name], name.startsWith('first'), BLOCK);
      sum[name].cpuUs += r.cpuUs;
      sum[name].ms += r.ms;
    }
  }
  if (round < config.warmup) continue;
  for (const name of order) {
    out.cpuUs[name].push(sum[name].cpuUs / (BLOCKS * BLOCK));
    out.rate[name].push((BLOCKS * BLOCK * 1000) / sum[name].ms);
  }
}
for (const s of Object.values(sides)) await s.close();
await issuerHttp.close();
process.stdout.write(JSON.stringify(out) + '\n');

/**
 * `calls` sequential calls of a side: total CPU (client and server, both here) and wall time around each call
 * alone; with `fresh`, the next token is taken before each call, outside the measure.
 */
async function measure(s, fresh, calls) {
  let cpuUs = 0;
  let ms = 0;
  for (let i = 0; i < calls; i++) {
    if (fresh) await s.next();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await s.call();
    ms += performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    cpuUs += cpu.user + cpu.system;
    if (result.content?.[0]?.text !== 'hello') throw new Error(`unexpected result ${JSON.stringify(result)}`);
  }
  return { cpuUs, ms };
}
