/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * Reading a node:http request, and keeping its connection open for the client's next one, shared by the HTTP
 * server transports (Streamable HTTP, HTTP+SSE). Node only; internal (no entry point re-exports it).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Whether an Accept header admits a media type (exact, `type/*`, or `*\/*`; q=0 excludes). */
export function accepts(header: string | undefined, mediaType: string): boolean {
  if (!header) return false;
  const [type] = mediaType.split('/');
  return header.split(',').some((part) => {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) return false;
    return range === mediaType || range === `${type}/*` || range === '*/*';
  });
}

/**
 * The body of a request as UTF-8 text, or `tooLarge` as soon as it passes `limit` bytes (by its
 * Content-Length, or once that many have arrived): the rest is not read. Answer it with `TOO_LARGE_HEADERS`, so
 * node:http closes the connection instead of reading (and discarding) the rest of the body first.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<{ text: string } | { tooLarge: true }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const refuse = () => {
      req.off('data', onData);
      req.pause();
      resolve({ tooLarge: true });
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) refuse();
      else chunks.push(chunk);
    };
    if (Number(req.headers['content-length']) > limit) return refuse();
    req.on('data', onData);
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', reject);
  });
}

/** The headers of a 413 answer: the connection closes, so the unread rest of the body is never read. */
export const TOO_LARGE_HEADERS: Record<string, string> = { connection: 'close' };

/**
 * How much longer than the keep-alive timeout it tells clients (`Keep-Alive: timeout=…`) a server of the runtime
 * keeps an idle connection open. A client reuses an idle connection until shortly before that timeout (undici,
 * Node's fetch: 2 s before), but one whose event loop is starved reuses it later than it meant to; node:http,
 * closing at the timeout (plus a second), then loses the request the client just wrote into the connection
 * ("other side closed": 117 to 808 calls of 3,000 under load, test/stress/http-starved.test.ts). Nginx keeps
 * idle connections 75 s.
 */
const KEEP_ALIVE_GRACE_MS = 60_000;

/**
 * Once `res` is sent, its connection idles the server's keep-alive timeout plus KEEP_ALIVE_GRACE_MS before it
 * closes; what clients are told is unchanged, so they still let go first. A server without a keep-alive timeout
 * (0: never) is left as it is.
 */
export function outlastClientReuse(req: IncomingMessage, res: ServerResponse): void {
  const server = (req.socket as { server?: { keepAliveTimeout?: unknown } }).server;
  const timeout = server?.keepAliveTimeout;
  if (typeof timeout !== 'number' || timeout <= 0) return;
  // After node:http's own 'finish' listener, which set the socket's idle timeout to the keep-alive timeout.
  res.once('finish', () => {
    if (!req.socket.destroyed) req.socket.setTimeout(timeout + KEEP_ALIVE_GRACE_MS);
  });
}
