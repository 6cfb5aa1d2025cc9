/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * Live sessions counted per client, for the servers whose sessions are open connections (HTTP+SSE streams,
 * WebSocket sockets): one client cannot take every slot of `maxSessions` for itself. (The Streamable HTTP
 * server's sessions outlive their requests, so its store also reclaims idle ones: session-store.ts.)
 * Node only; internal to transports/sse/server.ts and transports/websocket/server.ts (RETRY_AFTER: every server).
 */
import type { IncomingMessage } from 'node:http';

export interface ClientCapOptions {
  /** Most live sessions one client holds (clients told apart by `clientKey`); beyond, refused with 429. Default 100. */
  maxSessionsPerClient?: number | undefined;
  /**
   * Who a request comes from. Default the peer's IP address; behind a proxy every client shares the proxy's,
   * so read the address the proxy forwards (and trust only your proxy's header).
   */
  clientKey?: ((req: IncomingMessage) => string) | undefined;
}

/**
 * What a refusal for want of room says (429: the client's own cap; 503: the server's, or a part of the cluster
 * that did not answer): retry after this many seconds (RFC 9110 Retry-After). Long enough for a session to go
 * idle or a store to come back; short enough that nobody waits long once there is room.
 */
export const RETRY_AFTER = { 'retry-after': '5' } as const;

/** The live sessions of each client, and the cap on them. */
export class ClientCounts {
  readonly #counts = new Map<string, number>();
  readonly #max: number;
  readonly #keyOf: (req: IncomingMessage) => string;

  constructor(options: ClientCapOptions) {
    this.#max = options.maxSessionsPerClient ?? 100;
    this.#keyOf = options.clientKey ?? ((req) => req.socket.remoteAddress ?? '');
  }

  /** The client of `req`, or undefined (with the message to refuse it with) when it holds its maximum already. */
  admit(req: IncomingMessage): { client: string } | { refused: string } {
    const client = this.#keyOf(req);
    if ((this.#counts.get(client) ?? 0) < this.#max) return { client };
    return { refused: `Too Many Requests: this client holds its maximum of ${this.#max} sessions` };
  }

  add(client: string): void {
    this.#counts.set(client, (this.#counts.get(client) ?? 0) + 1);
  }

  remove(client: string): void {
    const left = (this.#counts.get(client) ?? 0) - 1;
    if (left > 0) this.#counts.set(client, left);
    else this.#counts.delete(client);
  }
}
