/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * What one Streamable HTTP session (session.ts) asks of the cluster it is part of (cluster.ts) when
 * several nodes serve it: the ids that must mean the same on every node, where a message that is not this
 * node's goes, and what must be stored before an answer leaves. A session of a single process has no link, and
 * behaves exactly as it did before clusters existed. Node only; internal.
 */
import type { ServerResponse } from 'node:http';
import type { WireMessage } from '../common.js';
import type { RequestId } from '../../../core/jsonrpc.js';

export interface SessionLink {
  /** The id of the session's standalone GET stream: the same on every node. */
  readonly standaloneId: string;
  /** A new POST channel's id: names this node and the requests it answers (for a resumption elsewhere). */
  channelId(requestIds: readonly RequestId[]): string;
  /** A message this node sends the client: a request's id (and a cancellation's) made to name this node. */
  outgoing(message: WireMessage): WireMessage;
  /**
   * A message the client sent: what to deliver here, or undefined when it belongs to another node and went
   * there (a response to that node's request; a cancellation of a request running there).
   */
  incoming(message: WireMessage, runsHere: (requestId: unknown) => boolean): WireMessage | undefined;
  /** A request whose answer changes the session's record (initialize, logging/setLevel, resources/…subscribe). */
  watch(request: WireMessage & { id: RequestId; method: string }, key: string): void;
  /** Before the answer to a watched request leaves: the record is stored (or the answer becomes an error). */
  answering(key: string, response: WireMessage): Promise<WireMessage> | undefined;
  /** An event of a channel whose client is not connected here: for the node where it is. */
  relay(channelId: string, eventId: string | undefined, text: string): void;
  /** A channel finished (every answer sent) while its client is not connected here. */
  finished(channelId: string): void;
  /**
   * The standalone stream's client is connected here: events other nodes relay arrive at `write` once
   * `ready` resolves, until `stop`.
   */
  listen(
    channelId: string,
    write: (eventId: string | undefined, text: string) => void,
  ): { stop: () => void; ready: Promise<void> };
  /**
   * The standalone stream resumed here: any other node holding it (its client connection may have died
   * silently) lets it go first, so that what it sends the session from then on comes here.
   */
  takeOver(channelId: string): Promise<void>;
  /** A `Last-Event-ID` of a stream this node does not hold. */
  resumeElsewhere(res: ServerResponse, lastEventId: string, streamId: string): Promise<void>;
  /**
   * The session was active here (a request, or a stream or call still open when checked): its shared
   * record's expiry moves on (now and then, not every time).
   */
  touched(): void;
  /** The store lost this live session's record: written back (false when it cannot be). */
  keep(): Promise<boolean>;
  /** This node forgot the session (idle, or closed): the cluster decides whether it ended everywhere. */
  forgotten(): void;
}
