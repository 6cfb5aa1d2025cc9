// One node of the cluster bench (bench/lib/cluster.mjs):
// `<port> <redis url or -> <node id> <generated js dir> [<resource> <issuer>]`.
// A generated server with an `echo` tool on createStreamableHttpServer, its sessions, events and bus in Redis
// (redisClusterState) unless the url is `-`; with a resource and an issuer, behind the auth gate (jwtVerifier,
// the issuer's JWKS at <issuer>/jwks), so each session is bound to the identity that opened it. Prints
// `PORT <n>` once listening.
import { createServer as createHttpServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from 'redis';
import { jwtVerifier } from '@mcp-typegen/runtime/auth/server';
import { createStreamableHttpServer } from '@mcp-typegen/runtime/node';
import { redisClusterState } from '@mcp-typegen/runtime/redis';

const [port = '0', url = '-', node = 'n', jsDir = '', resource, issuer] = process.argv.slice(2);
const { createServer } = await import(pathToFileURL(join(jsDir, 'index.js')).href);
const server = createServer(
  {
    // `later`: answered a turn of the event loop later, as a handler doing I/O is (bench/lib/cluster.mjs).
    'tools/call': async (params) => {
      if (params.arguments?.later) await new Promise((resolve) => setImmediate(resolve));
      return { content: [{ type: 'text', text: `${params.arguments?.text}|${node}` }] };
    },
  },
  { serverInfo: { name: 'bench', version: '1' } },
);
let state = {};
if (url !== '-') {
  const client = createClient({ url, disableOfflineQueue: true });
  const subscriber = client.duplicate();
  for (const c of [client, subscriber]) c.on('error', () => undefined);
  await Promise.all([client.connect(), subscriber.connect()]);
  state = { ...redisClusterState({ client, subscriber }), nodeId: node };
}
const auth =
  resource === undefined
    ? {}
    : {
        auth: {
          resource,
          authorizationServers: [issuer],
          verifier: jwtVerifier({ issuer, metadata: { jwks_uri: `${issuer}/jwks` } }),
        },
      };
const handler = createStreamableHttpServer({ server, ...state, ...auth, keepAliveMs: 0 });
const http = createHttpServer(handler);
http.listen(Number(port), '127.0.0.1', () => process.stdout.write(`PORT ${http.address().port}\n`));
