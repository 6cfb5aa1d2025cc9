/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * The response channels of a Streamable HTTP session (session.ts): the answer to one POST, or the
 * standalone GET stream; the SSE sink a channel writes to while its client is connected; and a JSON-mode
 * channel's one answer. Node only; internal.
 */
import type { ServerResponse } from 'node:http';
import type { EventStore } from '../../../cluster/event-store.js';
import { toError, type WireMessage } from '../common.js';
import { sseHeaders } from './replies.js';
import type { SessionLink } from './session-link.js';

/** What the server gives each session (session.ts). */
export interface SessionConfig {
  eventStore?: EventStore | undefined;
  retryMs?: number | undefined;
  keepAliveMs: number;
  idleTimeoutMs: number;
  /** How long a finished stream whose client went away stays resumable. */
  resumeWindowMs: number;
  /** Called with the session's transport (a StreamableHttpServerTransport) once it has closed. */
  onClosed: (transport: { readonly sessionId: string }) => void;
  /** The cluster this session is served by (several nodes); none in a single process. */
  link?: SessionLink | undefined;
}

export interface SseSink {
  res: ServerResponse;
  keepAlive?: ReturnType<typeof setInterval>;
  /** Live events that wait: while a resumption replays stored events, or the stream opens (see flushQueue). */
  queue?: Array<{ id: string | undefined; text: string }> | undefined;
  /**
   * Ids a resumption replayed whose live copy may still be on its way (another node stored the event before
   * the replay read it, and relays it after): written once, not twice. Each id is dropped when its copy comes.
   */
  replayed?: Set<string> | undefined;
}

/** One SSE/JSON response channel: the answer to one POST, or the standalone GET stream. */
export interface Channel {
  id: string;
  kind: 'post' | 'standalone';
  mode: 'sse' | 'json';
  /** The live HTTP response, when connected. */
  sink?: SseSink | undefined;
  /** JSON mode: the response to write once all answers are in. */
  jsonRes?: ServerResponse;
  /** Requests of this POST still awaiting their response. */
  open: Set<string>;
  /** JSON mode: the answers, in request order. */
  answers: Map<string, WireMessage>;
  order: string[];
  batch: boolean;
  /** All responses sent: the channel ends once its sink has them. */
  done: boolean;
  resumable: boolean;
  /** A finished channel kept for a resumption is forgotten when this fires. */
  expiry?: ReturnType<typeof setTimeout>;
}

/** A channel with nothing sent yet; `keys` are its requests' (none for the standalone stream). */
export function newChannel(id: string, kind: Channel['kind'], sse: boolean, keys: string[], batch: boolean): Channel {
  const mode = sse ? 'sse' : 'json';
  return { id, kind, mode, open: new Set(keys), answers: new Map(), order: keys, batch, done: false, resumable: false };
}

/**
 * Makes `res` the channel's SSE sink, with keep-alive comments. Its 200 is written now, or (`head` false) by
 * `openSink` once a resumption knows the id it resumes from (until then, events wait in `queue`).
 */
export function attachSink(
  channel: Channel,
  res: ServerResponse,
  sessionId: string,
  keepAliveMs: number,
  head = true,
): SseSink {
  if (head) openSink(res, sessionId);
  const sink: SseSink = { res, ...(head ? {} : { queue: [] }) };
  if (keepAliveMs > 0) {
    sink.keepAlive = setInterval(() => {
      if (res.headersSent && !res.writableEnded) res.write(': keepalive\n\n');
    }, keepAliveMs);
    sink.keepAlive.unref?.();
  }
  channel.sink = sink;
  res.on('close', () => {
    if (sink.keepAlive) clearInterval(sink.keepAlive);
    // The client went away. A request's channel stays until its responses are sent (they are stored
    // for a resumption, or dropped without resumability).
    if (channel.sink === sink) channel.sink = undefined;
  });
  return sink;
}

/** Writes an SSE response's 200 and headers. */
export function openSink(res: ServerResponse, sessionId: string): void {
  res.writeHead(200, sseHeaders(sessionId));
  res.flushHeaders();
}

/** Unmakes a sink whose response never started (a resumption from an unknown id): the response is answered otherwise. */
export function abandonSink(channel: Channel, sink: SseSink): void {
  if (sink.keepAlive) clearInterval(sink.keepAlive);
  if (channel.sink === sink) channel.sink = undefined;
}

/** Ends the channel's SSE response, if it has one. */
export function detachSink(channel: Channel): void {
  const sink = channel.sink;
  if (!sink) return;
  channel.sink = undefined;
  if (sink.keepAlive) clearInterval(sink.keepAlive);
  if (!sink.res.writableEnded) sink.res.end();
}

/** A JSON-mode channel's answer: its responses in request order (a batch's as an array), or 204 for none. */
export function writeJsonAnswers(channel: Channel, sessionId: string): void {
  const res = channel.jsonRes;
  if (!res || res.writableEnded || res.destroyed) return;
  const answers = channel.order.map((k) => channel.answers.get(k)).filter((a) => a !== undefined);
  if (answers.length === 0) {
    res.writeHead(204, { 'mcp-session-id': sessionId }).end();
    return;
  }
  const body = JSON.stringify(channel.batch ? answers : answers[0]);
  res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': sessionId }).end(body);
}

/** Writes an SSE event's text to the channel's sink (or its replay queue); false when it has none. */
export function writeToSink(channel: Channel, id: string | undefined, text: string): boolean {
  const sink = channel.sink;
  if (!sink) return false;
  if (id !== undefined && sink.replayed?.delete(id)) return true;
  if (sink.queue) sink.queue.push({ id, text });
  else if (!sink.res.writableEnded) sink.res.write(text);
  return true;
}

/**
 * Writes the events that waited in the sink's queue, but those a replay wrote (by id), and stops queueing;
 * the replayed ids stay to catch a live copy still on its way.
 */
export function flushQueue(sink: SseSink, replayed: Set<string>): void {
  const queued = sink.queue ?? [];
  sink.queue = undefined;
  for (const { id, text } of queued) if (id === undefined || !replayed.delete(id)) sink.res.write(text);
  if (replayed.size > 0) sink.replayed = replayed;
}

/**
 * Stores an event of the channel for replay and returns its id. A store that fails (a shared one that is
 * down) costs the event its resumability, not its delivery: it is sent without an id, and the failure reported.
 */
export async function storeEvent(
  store: EventStore,
  channel: Channel,
  message: WireMessage | null,
  onerror: ((error: Error) => void) | undefined,
): Promise<string | undefined> {
  try {
    const id = await store.storeEvent(channel.id, message);
    channel.resumable = true;
    return id;
  } catch (error) {
    onerror?.(new Error(`The event store failed (${toError(error).message}); the event is sent without an id`));
    return undefined;
  }
}

/** Forgets a stream's stored events; a store that fails is reported, never thrown (the session goes on). */
export function dropStream(store: EventStore | undefined, streamId: string, onerror?: (error: Error) => void): void {
  if (store?.deleteStream === undefined) return;
  Promise.resolve(store.deleteStream(streamId)).catch((error: unknown) => onerror?.(toError(error)));
}
