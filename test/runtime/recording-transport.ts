/** A transport that records what the peer sends (as JSON would carry it), for the dispatcher tests. */
import type { JsonRpcFrame, Transport } from '../../templates/core/transport.js';

export class RecordingTransport implements Transport {
  readonly sent: unknown[] = [];
  onmessage?(message: JsonRpcFrame): void;
  onclose?: () => void;
  async start(): Promise<void> {}
  async send(message: JsonRpcFrame): Promise<void> {
    this.sent.push(JSON.parse(JSON.stringify(message)));
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
}

/** Let the peer's queued microtasks and immediates run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}
