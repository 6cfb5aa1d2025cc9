/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * Reading a node:http request, shared by the HTTP server transports (Streamable HTTP, HTTP+SSE). Node only;
 * internal (no entry point re-exports it).
 */
import type { IncomingMessage } from 'node:http';

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
