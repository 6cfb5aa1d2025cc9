import {
  createServer,
  request as httpRequest,
  type Server,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProtocolDescription } from '../../../templates/peer/protocol.js';
import { built, importBuilt, type Version } from '../../client/helpers/build.js';

/** Listens on 127.0.0.1 (ephemeral port); resolves with the base URL and a closer. */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string; port: number; close: () => Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A raw HTTP request with full control over headers (including Host); resolves when the body has ended. */
export function rawRequest(
  url: string,
  options: { method: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method, headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Parses SSE text into events (enough for tests: LF line endings). */
export function parseSse(text: string): Array<{ id?: string; event?: string; data: string; retry?: number }> {
  const events: Array<{ id?: string; event?: string; data: string; retry?: number }> = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '' || block.split('\n').every((l) => l.startsWith(':'))) continue;
    const event: { id?: string; event?: string; data: string; retry?: number } = { data: '' };
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
      else if (field === 'retry') event.retry = Number(value);
    }
    event.data = data.join('\n');
    events.push(event);
  }
  return events;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The generated `PROTOCOL` of `version` (default 2026-07-28, whose facts list every version of both eras),
 * for an endpoint wired by hand to an engine that is not a generated server: the transport reads the
 * versions, batches and codes it checks from the model, never from a list of its own.
 */
export async function modelProtocol(version: Version = '2026-07-28'): Promise<ProtocolDescription> {
  const maps = await importBuilt<{ PROTOCOL: ProtocolDescription }>(await built(version), 'maps.js');
  return maps.PROTOCOL;
}
