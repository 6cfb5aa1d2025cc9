/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * A client resumes (`Last-Event-ID`) a POST's stream on a node other than the one running its requests (see
 * cluster.ts): this node takes the stream over from its owner, replays what the shared event store
 * holds after that id, and relays what the owner sends after. When the owner is gone (killed), the requests it
 * ran are answered here with an error: their handlers died with it. Node only; internal.
 */
import { Buffer } from 'node:buffer';
import type { ServerResponse } from 'node:http';
import { parseBusMessage, type Cluster } from './cluster.js';
import { isResponse, key, toError } from '../common.js';
import { sseHeaders, writeJsonError } from './replies.js';
import { RETRY_AFTER } from './client-caps.js';
import type { RequestId } from '../../../core/jsonrpc.js';
import { formatSseEvent } from '../sse.js';

interface Resumption {
  sessionId: string;
  lastEventId: string;
  streamId: string;
}

/**
 * The node a POST stream's id names (NodeLink.channelId, cluster-link.ts, makes them), and the ids of the
 * requests the stream answers.
 */
function streamOwner(streamId: string): { node: string; ids: RequestId[] } | undefined {
  const [node, named, rest] = streamId.split('~');
  if (node === undefined || named === undefined || rest === undefined) return undefined;
  try {
    const ids: unknown = named === '' ? [] : JSON.parse(Buffer.from(named, 'base64url').toString('utf8'));
    return Array.isArray(ids) ? { node, ids: ids as RequestId[] } : undefined;
  } catch {
    return undefined;
  }
}

/** The answer to a request whose node stopped before answering it. */
function diedAnswer(id: RequestId): string {
  const message =
    'Internal error: the server process running this request stopped before answering; it did not complete';
  return formatSseEvent({
    event: 'message',
    data: JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message } }),
  });
}

export async function resumeFromElsewhere(cluster: Cluster, res: ServerResponse, at: Resumption): Promise<void> {
  const owner = streamOwner(at.streamId);
  const store = cluster.settings.eventStore;
  if (owner === undefined || owner.node === cluster.nodeId || store === undefined) {
    return writeJsonError(res, 404, -32000, `Unknown or expired Last-Event-ID: ${at.lastEventId}`, at.sessionId);
  }
  // Live events wait here while the store replays (deduplicated by id afterwards).
  let queue: Array<{ id?: string | undefined; text: string }> | undefined = [];
  const replayed = new Set<string>();
  let done = false;
  const end = (): void => void (res.writableEnded || res.end());
  let stop: () => Promise<void>;
  try {
    stop = await cluster.settings.bus.subscribe(`stream:${at.streamId}`, (raw) => {
      const message = parseBusMessage(raw);
      if (message?.t === 'ev') {
        // A replayed event's live copy may still come (stored before the replay read it, relayed after).
        if (typeof message.id === 'string' && replayed.delete(message.id)) return;
        return queue ? void queue.push(message) : void res.write(message.text);
      }
      if (message?.t === 'done') done = true;
      if (done && queue === undefined) end();
    });
  } catch (error) {
    const message = `Service Unavailable: the cluster's bus did not answer (${toError(error).message})`;
    return writeJsonError(res, 503, -32000, message, at.sessionId, RETRY_AFTER);
  }
  res.on('close', () => void stop().catch(() => undefined));
  try {
    const running = await cluster.take(at.sessionId, at.streamId, owner.node);
    const unanswered = new Map(owner.ids.map((id) => [key(id), id]));
    const events: string[] = [];
    const known = await store.replayEventsAfter(at.lastEventId, (id, message) => {
      replayed.add(id);
      if (isResponse(message) && message.id !== undefined && message.id !== null) unanswered.delete(key(message.id));
      events.push(formatSseEvent({ event: 'message', id, data: JSON.stringify(message) }));
    });
    // The store no longer has that event (trimmed, expired): what came after it is lost, and the client is told.
    if (known === undefined) {
      void stop().catch(() => undefined);
      return writeJsonError(res, 404, -32000, `Unknown or expired Last-Event-ID: ${at.lastEventId}`, at.sessionId);
    }
    res.writeHead(200, sseHeaders(at.sessionId));
    res.flushHeaders();
    for (const event of events) res.write(event);
    for (const event of queue) if (event.id === undefined || !replayed.delete(event.id)) res.write(event.text);
    queue = undefined;
    if (!running) for (const id of unanswered.values()) res.write(diedAnswer(id));
    if (!running || done) end();
  } catch (error) {
    cluster.settings.log(`mcp cluster: resuming stream ${at.streamId} failed: ${toError(error).message}`);
    if (!res.headersSent) writeJsonError(res, 503, -32000, `Service Unavailable: ${toError(error).message}`);
    end();
  }
}
