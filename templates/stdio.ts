/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * stdio transport: newline-delimited JSON-RPC over a child process's stdin/stdout (client side) or over
 * this process's own stdin/stdout (server side).
 *
 * This file is hand-written runtime that mcp-typegen copies, unchanged, into every generated output
 * (as `runtime/stdio.ts`). It depends only on the other runtime files and `node:` built-ins.
 *
 * Framing (MCP "stdio" transport): each message is one line of UTF-8 JSON terminated by `\n`; messages
 * MUST NOT contain embedded newlines (JSON.stringify never emits one). A trailing `\r` is tolerated, blank
 * lines are skipped, and a line that is not a JSON-RPC message is reported through `onerror` without
 * closing the connection.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { isPlainObject, type JsonRpcMessage } from './jsonrpc.js';
import type { JsonRpcFrame, MessageExtraInfo, Transport, TransportSendOptions } from './transport.js';

/** Default cap on one unterminated line (10 MiB): protects against a peer that never sends `\n`. */
export const DEFAULT_MAX_LINE_BYTES: number = 10 * 1024 * 1024;

/** How long after the server's stdout ends its exit may still be reported before it counts as hung up. */
const STDOUT_END_GRACE_MS = 50;

/** Serializes one message (or 2025-03-26 batch) as a stdio frame: its JSON and a newline. */
export function serializeMessage(message: JsonRpcFrame): string {
  return JSON.stringify(message) + '\n';
}

/**
 * Parses one line into a frame: a JSON-RPC message, or (a JSON array) a 2025-03-26 batch. Throws on text
 * that is not JSON or not shaped like JSON-RPC 2.0. The check is structural only: the engine validates
 * params and results.
 */
export function parseMessageLine(line: string): JsonRpcFrame {
  const value: unknown = JSON.parse(line);
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) throw new Error('Empty JSON-RPC batch');
  for (const item of items) {
    if (!isJsonRpcMessage(item)) throw new Error('Not a JSON-RPC 2.0 message');
  }
  return value as JsonRpcFrame;
}

/** True when `value` looks like a JSON-RPC 2.0 request, notification or response. */
export function isJsonRpcMessage(value: unknown): value is JsonRpcMessage {
  if (!isPlainObject(value) || value['jsonrpc'] !== '2.0') return false;
  if ('method' in value) {
    if (typeof value['method'] !== 'string') return false;
    if ('id' in value && typeof value['id'] !== 'string' && typeof value['id'] !== 'number') return false;
    return value['params'] === undefined || isPlainObject(value['params']) || Array.isArray(value['params']);
  }
  if (!('id' in value)) return false;
  if (value['id'] !== null && typeof value['id'] !== 'string' && typeof value['id'] !== 'number') return false;
  return 'result' in value !== 'error' in value;
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
    const lines: string[] = [];
    let newline = data.indexOf(0x0a);
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
        this.clear();
        this.discarding = true;
        throw new Error(`Line exceeds the maximum of ${this.maxLineBytes} bytes; discarded`);
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
 * Feeds `chunk` through `buffer` and delivers the lines: raw to the engine when it reads frames itself
 * (`transport.ontext`, so it answers invalid ones), else parsed to `onmessage` with bad lines going to
 * `onError`. Blank lines are framing, not frames: skipped.
 */
function deliverLines(
  buffer: LineBuffer,
  chunk: Buffer | string,
  transport: Pick<Transport, 'onmessage' | 'ontext' | 'onerror'>,
): void {
  const onError = (error: Error): void => transport.onerror?.(error);
  let lines: string[];
  try {
    lines = buffer.push(chunk);
  } catch (error) {
    onError(toError(error));
    return;
  }
  for (const line of lines) {
    if (line.trim() === '') continue;
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
      onError(new Error(`Invalid JSON-RPC line (${toError(error).message}): ${preview}`, { cause: error }));
      continue;
    }
    transport.onmessage?.(frame);
  }
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/**
 * Writes frames to a stream. Frames sent in the same tick go out as one write (fewer syscalls under load);
 * under backpressure they queue behind a single 'drain' listener, never one listener per write.
 */
export class FrameWriter {
  private readonly stream: Writable;
  private queued: string[] = [];
  private waiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  private scheduled = false;
  private blocked = false;

  constructor(stream: Writable) {
    this.stream = stream;
  }

  /** Resolves once the frame is handed to the stream (rejects if the stream fails it). */
  write(text: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push(text);
      this.waiters.push({ resolve, reject });
      if (!this.scheduled && !this.blocked) {
        this.scheduled = true;
        queueMicrotask(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    if (this.blocked || this.queued.length === 0) return;
    const text = this.queued.length === 1 ? this.queued[0]! : this.queued.join('');
    const waiters = this.waiters;
    this.queued = [];
    this.waiters = [];
    const ok = this.stream.write(text, (error) => {
      if (error) for (const waiter of waiters) waiter.reject(error);
      else for (const waiter of waiters) waiter.resolve();
    });
    if (!ok) {
      this.blocked = true;
      this.stream.once('drain', this.onDrain);
    }
  };

  private readonly onDrain = (): void => {
    this.blocked = false;
    this.flush();
  };

  /** Forgets queued frames (their promises reject) and the drain listener. */
  dispose(error: Error): void {
    this.stream.off('drain', this.onDrain);
    const waiters = this.waiters;
    this.queued = [];
    this.waiters = [];
    for (const waiter of waiters) waiter.reject(error);
  }
}

// ---------------------------------------------------------------------------------------------
// Client: spawn the server
// ---------------------------------------------------------------------------------------------

/** Environment variables inherited by default (the rest of this process's environment is not passed on). */
export const DEFAULT_INHERITED_ENV_VARS: readonly string[] =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PATHEXT',
        'PROCESSOR_ARCHITECTURE',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'USERNAME',
        'USERPROFILE',
        'ComSpec',
        'windir',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/** The environment a server gets by default: the variables in DEFAULT_INHERITED_ENV_VARS that are set. */
export function defaultServerEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of DEFAULT_INHERITED_ENV_VARS) {
    const value = process.env[key];
    if (value !== undefined && !value.startsWith('()')) env[key] = value; // skip exported shell functions
  }
  return env;
}

export interface StdioClientTransportOptions {
  /** The executable. Run directly, never through a shell. */
  command: string;
  args?: string[];
  /**
   * Extra environment variables, added to the default environment (see `inheritEnv`).
   */
  env?: Record<string, string>;
  /**
   * Which of this process's environment variables the server inherits: `'default'` (PATH, HOME and a few
   * more — DEFAULT_INHERITED_ENV_VARS), `'all'`, or `'none'`. Default `'default'`.
   */
  inheritEnv?: 'default' | 'all' | 'none';
  cwd?: string;
  /**
   * The server's stderr: `'inherit'` (default) passes it through to this process's stderr, `'pipe'`
   * exposes it as the `stderr` stream of the transport, `'ignore'` discards it.
   */
  stderr?: 'inherit' | 'pipe' | 'ignore';
  /** How long close() waits after ending stdin before SIGTERM, and after SIGTERM before SIGKILL. Default 2000 ms. */
  closeGracePeriodMs?: number;
  /** Cap on one unterminated stdout line. Default 10 MiB. */
  maxLineBytes?: number;
}

/** Client side of the stdio transport: spawns the server and talks to it over its stdin/stdout. */
export class StdioClientTransport implements Transport {
  onmessage?: (message: JsonRpcFrame, extra?: MessageExtraInfo) => void;
  ontext?: ((text: string, extra?: MessageExtraInfo) => void) | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  sessionId?: string;

  private child?: ChildProcess;
  private writer?: FrameWriter;
  private readonly buffer: LineBuffer;
  private readonly stderrStream?: PassThrough;
  private started = false;
  private exited = false;
  private closedFired = false;
  private closing?: Promise<void>;
  private exitPromise?: Promise<void>;

  private readonly options: StdioClientTransportOptions;

  constructor(options: StdioClientTransportOptions) {
    this.options = options;
    this.buffer = new LineBuffer(options.maxLineBytes);
    if (options.stderr === 'pipe') this.stderrStream = new PassThrough();
  }

  /**
   * The server's stderr when `stderr: 'pipe'` was chosen (available before start(), so listeners can be
   * attached early); null otherwise.
   */
  get stderr(): Readable | null {
    return this.stderrStream ?? null;
  }

  /** Identifies the server for the client's era cache: its command line and working directory. */
  get serverKey(): string {
    const { command, args = [], cwd = '' } = this.options;
    return `stdio:${JSON.stringify([command, ...args, cwd])}`;
  }

  /** The server's process id once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The server's exit code and signal once it has exited. */
  get exitStatus(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    const child = this.child;
    return this.exited && child ? { code: child.exitCode, signal: child.signalCode } : undefined;
  }

  /** Spawns the server. Rejects when it cannot be spawned (e.g. ENOENT: no such command). */
  async start(): Promise<void> {
    if (this.started) throw new Error('StdioClientTransport already started');
    this.started = true;
    const { command, args = [], cwd, stderr = 'inherit', inheritEnv = 'default' } = this.options;
    const baseEnv = inheritEnv === 'all' ? { ...process.env } : inheritEnv === 'none' ? {} : defaultServerEnvironment();
    const env = { ...baseEnv, ...this.options.env };

    const child = spawn(command, args, {
      cwd,
      env,
      shell: false,
      windowsHide: true,
      stdio: ['pipe', 'pipe', stderr],
    });
    this.child = child;

    await new Promise<void>((resolve, reject) => {
      const onSpawnError = (error: NodeJS.ErrnoException) => {
        child.off('spawn', onSpawn);
        this.exited = true;
        const reason =
          error.code === 'ENOENT'
            ? `command not found${cwd ? ` (or cwd ${JSON.stringify(cwd)} does not exist)` : ''}`
            : error.message;
        const wrapped: NodeJS.ErrnoException = new Error(
          `Failed to start MCP server ${JSON.stringify(command)}: ${reason}`,
          { cause: error },
        );
        wrapped.code = error.code;
        reject(wrapped);
      };
      const onSpawn = () => {
        child.off('error', onSpawnError);
        resolve();
      };
      child.once('error', onSpawnError);
      child.once('spawn', onSpawn);
    });

    this.exitPromise = new Promise<void>((resolve) => {
      child.once('close', () => {
        this.exited = true;
        this.stderrStream?.end();
        resolve();
        this.fireClose();
      });
    });
    child.on('error', (error) => this.onerror?.(error));
    child.stdin!.on('error', (error) => this.onerror?.(error)); // EPIPE once the server is gone
    this.writer = new FrameWriter(child.stdin!);
    child.stdout!.on('data', (chunk: Buffer) => deliverLines(this.buffer, chunk, this));
    child.stdout!.on('error', (error) => this.onerror?.(error));
    // The server closed its stdout while still running: nothing more can be answered, so the connection is
    // over now (pending calls fail at once rather than at their timeout) and the process is shut down.
    // (An exiting server closes stdout too, just before its exit is reported: that case is left to 'close'.)
    child.stdout!.once('end', () => {
      const timer = setTimeout(() => {
        if (this.exited || child.exitCode !== null || child.signalCode !== null) return;
        this.fireClose();
        void this.close();
      }, STDOUT_END_GRACE_MS);
      timer.unref?.();
    });
    if (this.stderrStream && child.stderr) child.stderr.pipe(this.stderrStream, { end: false });
  }

  async send(message: JsonRpcFrame, _options?: TransportSendOptions): Promise<void> {
    const stdin = this.child?.stdin;
    const writer = this.writer;
    if (!stdin || !writer || this.exited || this.closing || this.closedFired || !stdin.writable) {
      throw new Error('Not connected');
    }
    await writer.write(serializeMessage(message));
  }

  /**
   * Ends the server's stdin, waits the grace period for it to exit, then sends SIGTERM, waits again, then
   * SIGKILL. Resolves once the process has exited; onclose has fired by then.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const child = this.child;
    if (!child || this.exited || !this.exitPromise) {
      this.fireClose();
      return;
    }
    const grace = this.options.closeGracePeriodMs ?? 2000;
    const exited = this.exitPromise;
    const waitExit = (ms: number) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        void exited.then(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });

    child.stdin?.end();
    if (await waitExit(grace)) return;
    child.kill('SIGTERM');
    if (await waitExit(grace)) return;
    child.kill('SIGKILL');
    await exited;
  }

  private fireClose(): void {
    if (this.closedFired) return;
    this.closedFired = true;
    this.buffer.clear();
    this.writer?.dispose(new Error('Not connected'));
    this.onclose?.();
  }
}

// ---------------------------------------------------------------------------------------------
// Server: this process's stdin/stdout
// ---------------------------------------------------------------------------------------------

export interface StdioServerTransportOptions {
  /** Where messages come from. Default `process.stdin`. */
  stdin?: Readable;
  /** Where messages go. Default `process.stdout` (so never log to stdout in a stdio server). */
  stdout?: Writable;
  /** Cap on one unterminated stdin line. Default 10 MiB. */
  maxLineBytes?: number;
}

/**
 * Server side of the stdio transport. The connection closes (onclose) when stdin ends — the client going
 * away — or on close(), which stops reading stdin so the process can exit once nothing else is pending.
 */
export class StdioServerTransport implements Transport {
  onmessage?: (message: JsonRpcFrame, extra?: MessageExtraInfo) => void;
  ontext?: ((text: string, extra?: MessageExtraInfo) => void) | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  sessionId?: string;

  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly writer: FrameWriter;
  private readonly buffer: LineBuffer;
  private started = false;
  private closed = false;

  constructor(options: StdioServerTransportOptions = {}) {
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.writer = new FrameWriter(this.stdout);
    this.buffer = new LineBuffer(options.maxLineBytes);
  }

  private readonly onData = (chunk: Buffer | string): void => deliverLines(this.buffer, chunk, this);
  private readonly onInputError = (error: Error) => this.onerror?.(error);
  private readonly onEnd = () => void this.close();

  async start(): Promise<void> {
    if (this.started) throw new Error('StdioServerTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onInputError);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('close', this.onEnd);
    this.stdout.on('error', this.onInputError);
  }

  async send(message: JsonRpcFrame, _options?: TransportSendOptions): Promise<void> {
    if (this.closed) throw new Error('Not connected');
    await this.writer.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onInputError);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    this.stdout.off('error', this.onInputError);
    // Without 'data' listeners a paused stream no longer keeps the event loop alive.
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.buffer.clear();
    this.writer.dispose(new Error('Not connected'));
    this.onclose?.();
  }
}
