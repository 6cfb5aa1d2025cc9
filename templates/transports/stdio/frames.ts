/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * stdio framing: each message is one line of UTF-8 JSON terminated by `\n` (JSON.stringify never emits an
 * embedded newline). A trailing `\r` is tolerated, a blank line is a message (that is not JSON), an oversize
 * line is discarded up to its newline, and frames written in one tick go out in one write.
 */
import type { Writable } from 'node:stream';
import type { JsonRpcMessage } from '../../core/jsonrpc.js';
import { inspectMessage, oversizeText } from '../../core/frame.js';
import { malformedResponse } from '../../core/peer-messages.js';
import type { JsonRpcFrame, Transport } from '../../core/transport.js';

/** Default cap on one unterminated line (10 MiB): protects against a peer that never sends `\n`. */
export const DEFAULT_MAX_LINE_BYTES: number = 10 * 1024 * 1024;

/** Serializes one message (or 2025-03-26 batch) as a stdio frame: its JSON and a newline. */
export function serializeMessage(message: JsonRpcFrame): string {
  return JSON.stringify(message) + '\n';
}

/**
 * A stdio transport's frames as text, serialized once. The engine measures each frame just before it sends it
 * (`measureFrame`): the JSON made to measure it is kept and sent, instead of walking the message for a size
 * bound and then serializing it (a sequential stdio call: 6% more calls per second).
 */
export class FrameText {
  private frame: JsonRpcFrame | undefined;
  private json = '';

  readonly measure = (frame: JsonRpcFrame, limit: number): number | undefined => {
    if (limit === Infinity) return undefined;
    this.json = JSON.stringify(frame);
    this.frame = frame;
    return oversizeText(this.json, limit);
  };

  /** The frame's line: its JSON (the one measured, when it was this frame) and a newline. */
  line(frame: JsonRpcFrame): string {
    const json = this.frame === frame ? this.json : JSON.stringify(frame);
    this.frame = undefined;
    return json + '\n';
  }
}

/**
 * Parses one line into a frame: a JSON-RPC message, or (a JSON array) a 2025-03-26 batch. Throws on text
 * that is not JSON or not a JSON-RPC 2.0 message by the checks every transport's frames get (core/frame.ts), so
 * this helper and the engine never disagree about a line. The transports themselves read with `readFrame`.
 */
export function parseMessageLine(line: string): JsonRpcFrame {
  const value: unknown = JSON.parse(line);
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) throw new Error('Empty JSON-RPC batch');
  for (const item of items) {
    const problem = messageProblem(item);
    if (problem !== undefined) throw new Error(`Not a JSON-RPC 2.0 message: ${problem}`);
  }
  return value as JsonRpcFrame;
}

/** True when `value` is a JSON-RPC 2.0 request, notification or response, by the checks of core/frame.ts. */
export function isJsonRpcMessage(value: unknown): value is JsonRpcMessage {
  return messageProblem(value) === undefined;
}

/** What core/frame.ts finds wrong with one message, or for a response what the engine would (core/peer-messages.ts). */
function messageProblem(value: unknown): string | undefined {
  const verdict = inspectMessage(value);
  if (verdict.kind === 'invalid') return verdict.reason;
  if (verdict.kind !== 'response') return undefined;
  if (!Object.hasOwn(verdict.message, 'id')) return 'a response needs an id';
  return malformedResponse(verdict.message);
}

/**
 * Splits a byte stream into lines. Partial lines are kept until their newline arrives; decoding is done on
 * whole lines so a multi-byte character split across chunks is never corrupted.
 */
export class LineBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  /** After an overlong line: everything up to the next newline belongs to it and is dropped too. */
  private discarding = false;
  private readonly maxLineBytes: number;

  constructor(maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {
    this.maxLineBytes = maxLineBytes;
  }

  /**
   * Adds a chunk and returns the complete lines it finished (without `\n` or a trailing `\r`), blank lines
   * included. Throws (and drops the partial line) when an unterminated line grows past the limit; the rest
   * of that line, whenever it arrives, is dropped as well, so it can never be read as a message of its own.
   */
  push(chunk: Buffer | string): string[] {
    let data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let newline = data.indexOf(0x0a);
    // The usual chunk: exactly one whole line, nothing held. Decoded in place, no slices.
    if (newline === data.length - 1 && this.size === 0 && !this.discarding) {
      return [data.toString('utf8', 0, newline > 0 && data[newline - 1] === 0x0d ? newline - 1 : newline)];
    }
    const lines: string[] = [];
    if (this.discarding) {
      if (newline === -1) return lines;
      this.discarding = false;
      data = data.subarray(newline + 1);
      newline = data.indexOf(0x0a);
    }
    while (newline !== -1) {
      const head = data.subarray(0, newline);
      const whole = this.size === 0 ? head : Buffer.concat([...this.chunks, head], this.size + head.length);
      this.chunks = [];
      this.size = 0;
      const end = whole.length > 0 && whole[whole.length - 1] === 0x0d ? whole.length - 1 : whole.length;
      lines.push(whole.toString('utf8', 0, end));
      data = data.subarray(newline + 1);
      newline = data.indexOf(0x0a);
    }
    if (data.length > 0) {
      if (this.size + data.length > this.maxLineBytes) {
        const head = Buffer.concat([...this.chunks, data]).toString('utf8');
        this.clear();
        this.discarding = true;
        throw new OverlongLineError(this.maxLineBytes, lines, head);
      }
      this.chunks.push(data);
      this.size += data.length;
    }
    return lines;
  }

  /** Bytes held for the current unterminated line. */
  get pending(): number {
    return this.size;
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.discarding = false;
  }
}

/**
 * A line grew past the limit: the lines the chunk finished before it, and the head of the overlong line (for
 * its id: the engine answers it -32600 as it answers any frame over its size limit).
 */
export class OverlongLineError extends Error {
  declare readonly lines: string[];
  declare readonly head: string;

  constructor(maxLineBytes: number, lines: string[], head: string) {
    super(`Line exceeds the maximum of ${maxLineBytes} bytes; discarded`);
    this.lines = lines;
    this.head = head;
  }
}

/**
 * Feeds `chunk` through `buffer` and delivers the lines: raw to the engine when it reads frames itself
 * (`transport.ontext`, so it answers invalid ones), else parsed to `onmessage` with bad lines going to
 * `onError`. A blank line is a message that is not JSON, as an empty frame is on every transport: the engine
 * answers it -32700.
 */
export function deliverLines(
  buffer: LineBuffer,
  chunk: Buffer | string,
  transport: Pick<Transport, 'onmessage' | 'ontext' | 'onerror'>,
): void {
  let lines: string[];
  let overlong: OverlongLineError | undefined;
  try {
    lines = buffer.push(chunk);
  } catch (error) {
    if (!(error instanceof OverlongLineError)) return transport.onerror?.(toError(error));
    overlong = error;
    lines = error.lines;
  }
  deliverEach(lines, transport);
  if (overlong === undefined) return;
  transport.onerror?.(overlong);
  // An engine reading text answers the overlong line as any frame over its limit: -32600 with the id it leads with.
  transport.ontext?.(overlong.head);
}

function deliverEach(lines: string[], transport: Pick<Transport, 'onmessage' | 'ontext' | 'onerror'>): void {
  for (const line of lines) {
    const ontext = transport.ontext;
    if (ontext !== undefined) {
      ontext(line);
      continue;
    }
    let frame: JsonRpcFrame;
    try {
      frame = parseMessageLine(line);
    } catch (error) {
      const preview = line.length > 200 ? `${line.slice(0, 200)}…` : line;
      transport.onerror?.(new Error(`Invalid JSON-RPC line (${toError(error).message}): ${preview}`, { cause: error }));
      continue;
    }
    transport.onmessage?.(frame);
  }
}

export function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/**
 * Frames one write carries at most. Writing a whole tick's frames at once (64 at 64 calls in flight) made
 * the two processes take turns: each waited while the other worked through the batch. Cutting batches at 16
 * lets the peer start on them while this side still produces the next: 1.4× the calls per second at 64 in
 * flight, at the same CPU per call; anywhere from 4 to 48 measured the same.
 */
const MAX_FRAMES_PER_WRITE = 16;

/** What `write` returns for a frame handed to the stream at once: one promise for them all. */
const HANDED: Promise<void> = Promise.resolve();

/**
 * Writes frames to a stream. The first frame of a tick is written at once; the ones after it in the same tick
 * go out together, up to MAX_FRAMES_PER_WRITE per write (fewer syscalls under load), each batch sharing one
 * promise. Under backpressure frames queue behind a single 'drain' listener, never one per write.
 */
export class FrameWriter {
  private readonly stream: Writable;
  private queued: string[] = [];
  /** The promise of the frames queued now, settled by their write; created with the batch's first frame. */
  private batch: Settler | undefined;
  private scheduled = false;
  private blocked = false;

  constructor(stream: Writable) {
    this.stream = stream;
  }

  /**
   * Resolves once the frame is handed to the stream. A frame held back (after the first of its tick, or behind
   * backpressure) rejects if the stream then fails its write; the first of a tick is written at once and resolves
   * at once, without a callback or a promise of its own (a sequential call's every frame: about a microsecond
   * less on each side of a stdio round trip); should the stream fail that write, it says so by its 'error'
   * event, which the stdio transports report, and the connection ends with the calls still waiting on it.
   */
  write(text: string): Promise<void> {
    if (!this.scheduled && !this.blocked && this.queued.length === 0) {
      // The tick's first frame goes out at once, so the peer can start on it while this side carries on (at
      // 64 calls in flight: 8% more calls per second than holding it back, at the same CPU per call).
      this.scheduled = true;
      queueMicrotask(this.endOfTick);
      if (!this.stream.write(text)) this.block();
      return HANDED;
    }
    this.queued.push(text);
    this.batch ??= settler();
    const promise = this.batch.promise;
    if (!this.blocked && this.queued.length >= MAX_FRAMES_PER_WRITE) this.flush();
    return promise;
  }

  private readonly endOfTick = (): void => {
    this.scheduled = false;
    this.flush();
  };

  private flush(): void {
    const batch = this.batch;
    if (this.blocked || batch === undefined) return;
    // Frames queued behind backpressure can be many: they go out in slices too, until the stream pushes back.
    while (this.queued.length > 0) {
      let frames = this.queued;
      if (frames.length > MAX_FRAMES_PER_WRITE) frames = this.queued.splice(0, MAX_FRAMES_PER_WRITE);
      else this.queued = [];
      const last = this.queued.length === 0;
      if (last) this.batch = undefined;
      const text = frames.length === 1 ? (frames[0] ?? '') : frames.join('');
      // The batch's promise settles with its last slice; an earlier slice can only fail it.
      const done = last ? batch.settle : (error?: Error | null) => error && batch.settle(error);
      if (!this.stream.write(text, done)) return this.block();
    }
  }

  /** The stream pushes back: frames wait for one 'drain'. */
  private block(): void {
    this.blocked = true;
    this.stream.once('drain', this.onDrain);
  }

  private readonly onDrain = (): void => {
    this.blocked = false;
    this.flush();
  };

  /** Forgets queued frames (their promise rejects) and the drain listener. */
  dispose(error: Error): void {
    this.stream.off('drain', this.onDrain);
    const batch = this.batch;
    this.queued = [];
    this.batch = undefined;
    batch?.settle(error);
  }
}

/** A promise with the write callback that settles it (an error rejects it). */
interface Settler {
  promise: Promise<void>;
  settle: (error?: Error | null) => void;
}

function settler(): Settler {
  let settle!: (error?: Error | null) => void;
  const promise = new Promise<void>((resolve, reject) => {
    settle = (error) => (error ? reject(error) : resolve());
  });
  return { promise, settle };
}

// ---------------------------------------------------------------------------------------------
// Client: spawn the server
// ---------------------------------------------------------------------------------------------
