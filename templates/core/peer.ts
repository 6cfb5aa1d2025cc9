/**
 * RpcPeer: the JSON-RPC engine (engine.ts) with everything a server or a general peer may meet: JSON-RPC
 * batches (when `batches` is set; only the 2025-03-26 MCP spec allows them) and text frames from any
 * transport (`receive(text)` parses and answers them, see frame.ts). The MCP client runs on RpcEngine, so a
 * client's bundle carries neither.
 */
import type { NotificationTable, RequestTable } from './jsonrpc.js';
import { RpcEngine } from './engine.js';
import { readFrame, type FrameReader } from './frame.js';
import { Batch } from './peer-calls.js';
import type { AnyNotificationTable, AnyRequestTable, PeerOptions } from './peer-types.js';
import type { MessageExtraInfo, Transport } from './transport.js';

export * from './engine.js';
export type * from './peer-types.js';

export class RpcPeer<
  OutRequests extends RequestTable<OutRequests> = AnyRequestTable,
  OutNotifications extends NotificationTable<OutNotifications> = AnyNotificationTable,
  InRequests extends RequestTable<InRequests> = AnyRequestTable,
  InNotifications extends NotificationTable<InNotifications> = AnyNotificationTable,
> extends RpcEngine<OutRequests, OutNotifications, InRequests, InNotifications> {
  /** Whether batches are accepted now (a server lowers or raises it to the version agreed in initialize). */
  batches: boolean;

  constructor(transport: Transport, options: PeerOptions<OutRequests, OutNotifications> = {}) {
    super(transport, options);
    this.batches = options.batches ?? false;
  }

  /** @internal Any text frame is read, whatever the transport. */
  override frameReader(): FrameReader {
    return readFrame;
  }

  /** @internal Answers each message of a batch, all in one array once every request has answered. */
  override receiveBatch(items: unknown[], extra: MessageExtraInfo | undefined): void {
    if (items.length === 0 || !this.batches) return super.receiveBatch(items, extra);
    const batch = new Batch(this);
    for (const item of items) this.dispatch(item, batch, extra);
    batch.seal();
  }
}
