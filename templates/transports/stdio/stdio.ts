/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * stdio transport: newline-delimited JSON-RPC over a child process's stdin/stdout (client side) or over
 * this process's own stdin/stdout (server side).
 *
 * This file is hand-written runtime that mcp-typegen copies, unchanged, into every generated output. It
 * depends only on the other runtime files and `node:` built-ins.
 *
 * Framing (MCP "stdio" transport): each message is one line of UTF-8 JSON terminated by `\n`; messages
 * MUST NOT contain embedded newlines (JSON.stringify never emits one). A trailing `\r` is tolerated, blank
 * lines are skipped, and a line that is not a JSON-RPC message is reported through `onerror` without
 * closing the connection.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { planSpawn } from './command.js';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { FrameText, FrameWriter, LineBuffer, deliverLines } from './frames.js';
import { readFrame, type FrameReader } from '../../core/frame.js';
import type { JsonRpcFrame, MessageExtraInfo, Transport, TransportSendOptions } from '../../core/transport.js';

export {
  DEFAULT_MAX_LINE_BYTES,
  FrameWriter,
  LineBuffer,
  isJsonRpcMessage,
  parseMessageLine,
  serializeMessage,
} from './frames.js';

/** How long after the server's stdout ends its exit may still be reported before it counts as hung up. */
const STDOUT_END_GRACE_MS = 50;

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
  readonly readFrame: FrameReader = readFrame;
  private readonly frames = new FrameText();
  readonly measureFrame: (frame: JsonRpcFrame, limit: number) => number | undefined = this.frames.measure;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  sessionId?: string;

  private child: ChildProcess | undefined;
  private writer: FrameWriter | undefined;
  private readonly buffer: LineBuffer;
  private stderrStream: PassThrough | undefined;
  private started = false;
  private exited = false;
  private closedFired = false;
  private closing: Promise<void> | undefined;
  private exitPromise: Promise<void> | undefined;

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

  /**
   * Spawns the server. Rejects when it cannot be spawned (e.g. ENOENT: no such command). Once the server has
   * exited (close(), or a crash), spawns it again: a restart (with `stderr: 'pipe'`, `stderr` is then a new
   * stream).
   */
  async start(): Promise<void> {
    if (this.started && !this.closedFired && !this.exited) throw new Error('StdioClientTransport already started');
    if (this.started) this.reset();
    this.started = true;
    const { command, args = [], cwd, stderr = 'inherit', inheritEnv = 'default' } = this.options;
    const baseEnv = inheritEnv === 'all' ? { ...process.env } : inheritEnv === 'none' ? {} : defaultServerEnvironment();
    const env = { ...baseEnv, ...this.options.env };

    // On Windows a `.cmd` shim (npx, a package bin) runs through cmd.exe, escaped (command.ts).
    const plan = planSpawn(command, args, { platform: process.platform, env, cwd });
    const child = spawn(plan.command, plan.args, {
      cwd,
      env,
      shell: false,
      windowsHide: true,
      windowsVerbatimArguments: plan.windowsVerbatimArguments,
      stdio: ['pipe', 'pipe', stderr],
    });
    this.child = child;

    await spawned(child, command, cwd, () => (this.exited = true));

    this.exitPromise = new Promise<void>((resolve) => {
      child.once('close', () => {
        if (this.child !== child) return resolve(); // a server replaced by a restart
        this.exited = true;
        this.stderrStream?.end();
        resolve();
        this.fireClose();
      });
    });
    child.on('error', (error) => this.onerror?.(error));
    const { stdin, stdout } = child;
    // Spawned with piped stdin and stdout: both exist.
    if (stdin === null || stdout === null) throw new Error('StdioClientTransport: the server has no stdio pipes');
    stdin.on('error', (error) => this.onerror?.(error)); // EPIPE once the server is gone
    this.writer = new FrameWriter(stdin);
    stdout.on('data', (chunk: Buffer) => {
      if (this.child === child) deliverLines(this.buffer, chunk, this);
    });
    stdout.on('error', (error) => this.onerror?.(error));
    // The server closed its stdout while still running: nothing more can be answered, so the connection is
    // over now (pending calls fail at once rather than at their timeout) and the process is shut down.
    // (An exiting server closes stdout too, just before its exit is reported: that case is left to 'close'.)
    stdout.once('end', () => {
      const timer = setTimeout(() => {
        if (this.child !== child || this.exited || child.exitCode !== null || child.signalCode !== null) return;
        this.fireClose();
        void this.close();
      }, STDOUT_END_GRACE_MS);
      timer.unref?.();
    });
    if (this.stderrStream && child.stderr) child.stderr.pipe(this.stderrStream, { end: false });
  }

  // Not async: the writer's promise is returned as is (one promise per frame, not two).
  send(message: JsonRpcFrame, _options?: TransportSendOptions): Promise<void> {
    const stdin = this.child?.stdin;
    const writer = this.writer;
    if (!stdin || !writer || this.exited || this.closing || this.closedFired || !stdin.writable) {
      return Promise.reject(new Error('Not connected'));
    }
    return writer.write(this.frames.line(message));
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

  /** Forgets the exited server, so start() can spawn it again. */
  private reset(): void {
    const child = this.child;
    // A server that closed its stdout but has not exited yet is not left behind.
    if (child && !this.exited && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    this.child = undefined;
    this.writer = undefined;
    this.exited = false;
    this.closedFired = false;
    this.closing = undefined;
    this.exitPromise = undefined;
    this.buffer.clear();
    if (this.options.stderr === 'pipe') this.stderrStream = new PassThrough();
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
  readonly readFrame: FrameReader = readFrame;
  private readonly frames = new FrameText();
  readonly measureFrame: (frame: JsonRpcFrame, limit: number) => number | undefined = this.frames.measure;
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

  send(message: JsonRpcFrame, _options?: TransportSendOptions): Promise<void> {
    if (this.closed) return Promise.reject(new Error('Not connected'));
    return this.writer.write(this.frames.line(message));
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

/** Resolves once the child has spawned; rejects with a clear message (and the errno code) when it cannot. */
function spawned(child: ChildProcess, command: string, cwd: string | undefined, onFailed: () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onSpawnError = (error: NodeJS.ErrnoException) => {
      child.off('spawn', onSpawn);
      onFailed();
      const reason =
        error.code === 'ENOENT'
          ? `command not found${cwd ? ` (or cwd ${JSON.stringify(cwd)} does not exist)` : ''}`
          : error.message;
      const wrapped: NodeJS.ErrnoException = new Error(
        `Failed to start MCP server ${JSON.stringify(command)}: ${reason}`,
        {
          cause: error,
        },
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
}
