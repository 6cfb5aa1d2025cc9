/**
 * One POST of the Streamable HTTP client (transport.ts) that carries requests: the controller that closes
 * its response stream when they are cancelled, and its entries in the transport's map of requests in flight.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */
import type { WireMessage } from '../common.js';
import type { RequestId } from '../../../core/jsonrpc.js';

/** One POST carrying requests: how to close its response stream, and its entries in the transport's map. */
export class Flight {
  readonly controller: AbortController = new AbortController();
  declare readonly requests: Array<WireMessage & { id: RequestId; method: string }>;
  readonly #inFlight: Map<RequestId, Flight>;

  /** Registers the flight under each of its requests' ids in `inFlight` (the transport's map). */
  constructor(requests: Array<WireMessage & { id: RequestId; method: string }>, inFlight: Map<RequestId, Flight>) {
    this.requests = requests;
    this.#inFlight = inFlight;
    for (const r of requests) inFlight.set(r.id, this);
  }

  /** The answers are in (or will never come): the requests leave `inFlight`. */
  release(): void {
    for (const r of this.requests) if (this.#inFlight.get(r.id) === this) this.#inFlight.delete(r.id);
  }
}
