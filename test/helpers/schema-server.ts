/**
 * A loopback HTTP server standing in for the schema download host: it serves the official schemas from
 * MCP_SCHEMA_DIR as `<base>/<version>/schema.json`, where the first path segment picks a behaviour:
 *
 *   /ok        the real bytes          /wrong      other bytes (sha256 mismatch)
 *   /missing   404                     /slow       headers after 10 s (for timeouts)
 *   /truncated half the body, then the connection closes under a longer Content-Length
 *   /trickle   the real bytes in small chunks over ~1 s (so concurrent pulls overlap)
 *
 * Plus a forward HTTP proxy that sends every request to the server, to show HTTP_PROXY is honoured.
 * Both listen on 127.0.0.1 only and are closed by `close()`.
 */
import { readFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { SCHEMA_DIR } from './paths.js';

export interface SchemaServer {
  base(mode: 'ok' | 'wrong' | 'missing' | 'slow' | 'truncated' | 'trickle'): string;
  /** Requests received, as `<mode>/<version>`. */
  hits: string[];
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export async function startSchemaServer(): Promise<SchemaServer> {
  const hits: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const server = createServer((req, res) => {
    void (async () => {
      const [, mode, version, file] = (req.url ?? '').split('/');
      hits.push(`${mode}/${version}`);
      const body =
        file === 'schema.json'
          ? await readFile(join(SCHEMA_DIR, version ?? '', 'schema.json')).catch(() => undefined)
          : undefined;
      if (!body || mode === 'missing') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      if (mode === 'wrong') {
        const wrong = Buffer.from(body.toString('utf8').replace('"$schema"', '"$comment": "tampered", "$schema"'));
        res.writeHead(200, { 'content-length': wrong.length }).end(wrong);
      } else if (mode === 'slow') {
        later(10_000, () => res.writeHead(200, { 'content-length': body.length }).end(body));
      } else if (mode === 'truncated') {
        res.writeHead(200, { 'content-length': body.length });
        res.write(body.subarray(0, body.length >> 1), () => res.destroy());
      } else if (mode === 'trickle') {
        res.writeHead(200, { 'content-length': body.length });
        const step = Math.ceil(body.length / 10);
        let at = 0;
        const next = () => {
          res.write(body.subarray(at, at + step));
          at += step;
          if (at >= body.length) res.end();
          else later(100, next);
        };
        next();
      } else {
        res.writeHead(200, { 'content-length': body.length }).end(body);
      }
    })();
  });
  const port = await listen(server);
  return {
    base: (mode) => `http://127.0.0.1:${port}/${mode}`,
    hits,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      await stop(server);
    },
  };
}

/**
 * A proxy that sends everything to `target` (host:port) and records what it was asked for: CONNECT
 * tunnels (what undici's proxy agent uses, for http and https alike) and absolute-form requests.
 */
export async function startForwardProxy(
  target: string,
): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const [host, port] = target.split(':');
  const server = createServer((req: IncomingMessage, res) => {
    seen.push(req.url ?? '');
    const url = new URL(req.url ?? '/');
    const upstream = httpRequest(
      { host, port: Number(port), path: url.pathname, method: req.method, headers: { ...req.headers, host: target } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url ?? ''}`);
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const proxyPort = await listen(server);
  return { url: `http://127.0.0.1:${proxyPort}`, seen, close: () => stop(server) };
}
