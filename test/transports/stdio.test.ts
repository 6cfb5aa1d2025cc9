import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as SdkStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  LineBuffer,
  StdioClientTransport,
  StdioServerTransport,
  isJsonRpcMessage,
  parseMessageLine,
} from '../../templates/transports/stdio/stdio.js';
import type { JsonRpcMessage } from '../../templates/core/jsonrpc.js';
import { PassThrough, Writable } from 'node:stream';
import { fixturesDir, transpiledRuntime } from './helpers/runtime.js';
import { RpcPeer } from '../../templates/core/peer.js';

const repoRoot = join(fixturesDir, '..', '..', '..');
const everythingBin = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Collects messages and lets a test await the one that matches. */
function inbox(transport: { onmessage?: (m: JsonRpcMessage) => void }) {
  const received: JsonRpcMessage[] = [];
  const waiters: Array<{ match: (m: JsonRpcMessage) => boolean; resolve: (m: JsonRpcMessage) => void }> = [];
  transport.onmessage = (message) => {
    received.push(message);
    for (const w of [...waiters]) {
      if (w.match(message)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(message);
      }
    }
  };
  return {
    received,
    next(match: (m: JsonRpcMessage) => boolean, timeoutMs = 10_000): Promise<JsonRpcMessage> {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('timed out waiting for a message')), timeoutMs);
        waiters.push({
          match,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    response(id: string | number) {
      return this.next((m) => 'id' in m && m.id === id && !('method' in m));
    },
  };
}

describe('LineBuffer / parseMessageLine', () => {
  it('keeps partial lines until their newline, handles CRLF and split UTF-8', () => {
    const buffer = new LineBuffer();
    const bytes = Buffer.from('{"a":"✓"}\r\n{"b"', 'utf8');
    const cut = bytes.indexOf(Buffer.from('✓')) + 1;
    expect(buffer.push(bytes.subarray(0, cut))).toEqual([]);
    expect(buffer.push(bytes.subarray(cut))).toEqual(['{"a":"✓"}']);
    expect(buffer.pending).toBe(4);
    expect(buffer.push(':1}\n\n')).toEqual(['{"b":1}', '']);
  });

  it('drops a line that grows past the limit up to its newline, then recovers', () => {
    const buffer = new LineBuffer(8);
    expect(() => buffer.push('123456789')).toThrow(/maximum/);
    // The rest of the overlong line is never read as a message of its own (no smuggling).
    expect(buffer.push('{"id":"smuggled"}')).toEqual([]);
    expect(buffer.push('tail\n{}\n')).toEqual(['{}']);
    expect(buffer.push('{"a":1}\n')).toEqual(['{"a":1}']);
  });

  it('parses messages and rejects non-JSON-RPC', () => {
    expect(parseMessageLine('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
    });
    expect(parseMessageLine('[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":2,"result":{}}]')).toHaveLength(2);
    expect(() => parseMessageLine('{"jsonrpc":"1.0","id":1,"method":"ping"}')).toThrow();
    expect(() => parseMessageLine('{"jsonrpc":"2.0","id":1}')).toThrow();
    expect(() => parseMessageLine('nope')).toThrow();
  });

  it('refuses what every transport refuses (frame.ts), with the same reason', () => {
    const refusals: Array<[string, string]> = [
      ['{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}', 'params must be an object'],
      ['{"jsonrpc":"2.0","id":1.5,"method":"x"}', 'id must be a string or an integer'],
      ['{"jsonrpc":"1.0","id":1,"result":{}}', 'jsonrpc must be "2.0"'],
      ['{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}', 'both result and error'],
      ['{"jsonrpc":"2.0","result":{}}', 'a response needs an id'],
    ];
    for (const [line, reason] of refusals) {
      expect(() => parseMessageLine(line), line).toThrow(`Not a JSON-RPC 2.0 message: ${reason}`);
      expect(isJsonRpcMessage(JSON.parse(line)), line).toBe(false);
    }
    expect(isJsonRpcMessage({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })).toBe(true);
  });
});

describe('StdioClientTransport ↔ @modelcontextprotocol/server-everything', () => {
  it('initializes, lists tools and calls echo with raw JSON-RPC; close() ends the child', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [everythingBin, 'stdio'],
      stderr: 'pipe',
    });
    let stderrText = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderrText += chunk.toString()));
    const errors: Error[] = [];
    transport.onerror = (e) => errors.push(e);
    let closes = 0;
    transport.onclose = () => closes++;
    const box = inbox(transport as { onmessage?: (m: JsonRpcMessage) => void });
    await transport.start();
    const pid = transport.pid!;
    expect(isAlive(pid)).toBe(true);

    await transport.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'mcp-typegen-test', version: '0.0.0' },
      },
    });
    const init = (await box.response(1)) as unknown as {
      result: { protocolVersion: string; serverInfo: { name: string } };
    };
    expect(init.result.protocolVersion).toBe('2025-11-25');
    expect(typeof init.result.serverInfo.name).toBe('string');
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const list = (await box.response(2)) as unknown as { result: { tools: Array<{ name: string }> } };
    expect(list.result.tools.map((t) => t.name)).toContain('echo');

    await transport.send({
      jsonrpc: '2.0',
      id: 'call-3',
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'hi from mcp-typegen' } },
    });
    const call = (await box.response('call-3')) as unknown as {
      result: { content: Array<{ type: string; text: string }> };
    };
    expect(call.result.content[0]).toEqual({ type: 'text', text: 'Echo: hi from mcp-typegen' });

    await transport.close();
    expect(closes).toBe(1);
    expect(isAlive(pid)).toBe(false);
    expect(transport.exitStatus).toBeDefined();
    expect(stderrText).toContain('Starting default (STDIO) server');
    expect(errors).toEqual([]);
    await transport.close(); // idempotent
    expect(closes).toBe(1);
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow(/Not connected/);
  });
});

describe('StdioClientTransport framing and lifecycle', () => {
  it('reassembles partial lines, reports bad lines (blank ones too) without dying', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(fixturesDir, 'chunky-stdout.mjs')],
    });
    const errors: Error[] = [];
    transport.onerror = (e) => errors.push(e);
    const box = inbox(transport as { onmessage?: (m: JsonRpcMessage) => void });
    await transport.start();
    await box.response(7);
    expect(box.received).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'héllo wörld ✓' } },
      { jsonrpc: '2.0', id: 7, result: { ok: true } },
    ]);
    // Three blank lines (the first line's `\n`, then `\n\n   \n`: a blank line is a message that is not JSON)
    // and the line that is not JSON.
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^Invalid JSON-RPC line .*: $/),
      expect.stringMatching(/^Invalid JSON-RPC line .*: $/),
      expect.stringMatching(/^Invalid JSON-RPC line .*: {4}$/),
      expect.stringMatching(/Invalid JSON-RPC line .*this is not json/),
    ]);
    const pid = transport.pid!;
    await transport.close(); // the fixture exits when stdin ends: no signal needed
    expect(transport.exitStatus).toEqual({ code: 0, signal: null });
    expect(isAlive(pid)).toBe(false);
  });

  it('escalates to SIGTERM when stdin ending is not enough', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(fixturesDir, 'stubborn.mjs')],
      closeGracePeriodMs: 200,
    });
    const box = inbox(transport as { onmessage?: (m: JsonRpcMessage) => void });
    let closes = 0;
    transport.onclose = () => closes++;
    await transport.start();
    await box.next((m) => 'method' in m && m.method === 'ready');
    const pid = transport.pid!;
    await transport.close();
    expect(transport.exitStatus).toEqual({ code: null, signal: 'SIGTERM' });
    expect(isAlive(pid)).toBe(false);
    expect(closes).toBe(1);
  });

  it('escalates to SIGKILL when SIGTERM is ignored', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(fixturesDir, 'stubborn.mjs'), 'ignore-term'],
      closeGracePeriodMs: 200,
      stderr: 'ignore',
    });
    const box = inbox(transport as { onmessage?: (m: JsonRpcMessage) => void });
    await transport.start();
    await box.next((m) => 'method' in m && m.method === 'ready');
    const pid = transport.pid!;
    const started = Date.now();
    await transport.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(transport.exitStatus).toEqual({ code: null, signal: 'SIGKILL' });
    expect(isAlive(pid)).toBe(false);
  });

  it('fires onclose once when the child exits on its own', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: ['-e', 'process.exit(3)'] });
    let closes = 0;
    const closed = new Promise<void>((resolve) => (transport.onclose = () => (closes++, resolve())));
    await transport.start();
    await closed;
    expect(transport.exitStatus).toEqual({ code: 3, signal: null });
    await transport.close();
    expect(closes).toBe(1);
  });

  it('fails pending calls promptly when the server closes its stdout but keeps running', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-e', 'process.stdin.resume(); setTimeout(() => process.stdout.end(), 50); setInterval(() => {}, 1000);'],
      closeGracePeriodMs: 200,
    });
    const peer = new RpcPeer(transport, { timeout: 30_000 });
    await peer.start();
    const started = Date.now();
    await expect(peer.request('ping')).rejects.toMatchObject({ code: -32000 });
    expect(Date.now() - started).toBeLessThan(2000);
    await peer.close();
    expect(transport.exitStatus).not.toBeUndefined();
  });

  it('keeps no drain listener per write under backpressure, and several frames share a write', async () => {
    const sink = new PassThrough({ highWaterMark: 16 });
    const transport = new StdioServerTransport({ stdin: new PassThrough(), stdout: sink });
    await transport.start();
    const writes: number[] = [];
    const write = sink.write.bind(sink);
    sink.write = ((chunk: string, ...rest: never[]) => (writes.push(chunk.length), write(chunk, ...rest))) as never;
    const sends = Array.from({ length: 200 }, (_, i) => transport.send({ jsonrpc: '2.0', method: 'n', params: { i } }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sink.listenerCount('drain')).toBeLessThanOrEqual(1);
    sink.resume();
    await Promise.all(sends);
    expect(writes.length).toBeLessThan(20);
    expect(sink.listenerCount('drain')).toBe(0);
    await transport.close();
  });

  it('writes a busy tick in order: its first frame alone, the rest in writes of at most 16 frames', async () => {
    const sink = new PassThrough({ highWaterMark: 1 << 20 });
    const transport = new StdioServerTransport({ stdin: new PassThrough(), stdout: sink });
    await transport.start();
    const framesPerWrite: number[] = [];
    const write = sink.write.bind(sink);
    sink.write = ((chunk: string, ...rest: never[]) => (
      framesPerWrite.push(chunk.split('\n').length - 1),
      write(chunk, ...rest)
    )) as never;
    const sends = Array.from({ length: 100 }, (_, i) => transport.send({ jsonrpc: '2.0', method: 'n', params: { i } }));
    await Promise.all(sends);
    // Whole-tick batches made client and server take turns at 64 calls in flight; smaller ones overlap.
    expect(framesPerWrite).toEqual([1, 16, 16, 16, 16, 16, 16, 3]);
    const lines = String(sink.read()).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { params: { i: number } }).params.i)).toEqual(
      Array.from({ length: 100 }, (_, i) => i),
    );
    await transport.close();
  });

  it('after backpressure, sends the backlog in writes of at most 16 frames, in order', async () => {
    const chunks: string[] = [];
    const slow = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _encoding, done) {
        chunks.push(String(chunk));
        setTimeout(done, 2);
      },
    });
    const transport = new StdioServerTransport({ stdin: new PassThrough(), stdout: slow });
    await transport.start();
    const send = (i: number) => transport.send({ jsonrpc: '2.0', method: 'n', params: { i } });
    const first = Array.from({ length: 40 }, (_, i) => send(i));
    await new Promise((resolve) => setImmediate(resolve));
    const second = Array.from({ length: 160 }, (_, i) => send(40 + i));
    await Promise.all([...first, ...second]);
    const framesPerWrite = chunks.map((chunk) => chunk.split('\n').length - 1);
    expect(Math.max(...framesPerWrite)).toBeLessThanOrEqual(16);
    const order = chunks.join('').trim().split('\n');
    expect(order.map((line) => (JSON.parse(line) as { params: { i: number } }).params.i)).toEqual(
      Array.from({ length: 200 }, (_, i) => i),
    );
    expect(slow.listenerCount('drain')).toBe(0);
    await transport.close();
  });

  it('passes env (merged over the default environment) and cwd', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '-e',
        `process.stdout.write(JSON.stringify({jsonrpc:'2.0',method:'env',params:{v:process.env.MY_VAR,path:!!process.env.PATH,secret:process.env.NOT_INHERITED ?? null,cwd:process.cwd()}})+'\\n')`,
      ],
      env: { MY_VAR: 'hello' },
      cwd: fixturesDir,
    });
    process.env.NOT_INHERITED = 'x';
    const box = inbox(transport as { onmessage?: (m: JsonRpcMessage) => void });
    try {
      await transport.start();
      const msg = (await box.next((m) => 'method' in m && m.method === 'env')) as { params: unknown };
      expect(msg.params).toEqual({ v: 'hello', path: true, secret: null, cwd: fixturesDir });
    } finally {
      delete process.env.NOT_INHERITED;
      await transport.close();
    }
  });

  it('rejects start() clearly when the command does not exist', async () => {
    const transport = new StdioClientTransport({ command: 'definitely-not-a-command-mcp-typegen' });
    let closes = 0;
    transport.onclose = () => closes++;
    const error = await transport.start().then(
      () => undefined,
      (e: NodeJS.ErrnoException) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toMatch(
      /Failed to start MCP server "definitely-not-a-command-mcp-typegen": command not found/,
    );
    expect(error!.code).toBe('ENOENT');
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow(/Not connected/);
    await transport.close();
    expect(closes).toBe(1);
  });
});

describe('StdioServerTransport', () => {
  let runtime: string;
  beforeAll(() => {
    runtime = transpiledRuntime();
  });

  it('serves the SDK Client over the SDK StdioClientTransport from a child process', async () => {
    const sdkTransport = new SdkStdioClientTransport({
      command: process.execPath,
      args: [join(fixturesDir, 'echo-stdio-server.mjs'), runtime],
      stderr: 'pipe',
    });
    let stderrText = '';
    sdkTransport.stderr!.on('data', (chunk: Buffer) => (stderrText += chunk.toString()));
    const client = new Client({ name: 'sdk-client', version: '1.0.0' });
    await client.connect(sdkTransport);
    expect(client.getServerVersion()).toEqual({ name: 'echo-fixture', version: '1.0.0' });
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['echo']);
    const result = await client.callTool({ name: 'echo', arguments: { message: 'round trip ✓' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: round trip ✓' }]);
    await client.ping();
    const pid = sdkTransport.pid!;
    await client.close();
    expect(isAlive(pid)).toBe(false);
    expect(stderrText).toContain('fixture transport closed'); // stdin end closed our transport
  });

  it('works on arbitrary streams: framing, errors, close on end', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = new StdioServerTransport({ stdin, stdout });
    const errors: Error[] = [];
    transport.onerror = (e) => errors.push(e);
    let closes = 0;
    transport.onclose = () => closes++;
    const box = inbox(transport as { onmessage?: (m: JsonRpcMessage) => void });
    await transport.start();
    stdin.write('{"jsonrpc":"2.0","id":1,');
    stdin.write('"method":"ping"}\n\n{bad}\n');
    await box.next((m) => 'method' in m && m.method === 'ping');
    await new Promise((r) => setTimeout(r, 20));
    expect(box.received).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    // The blank line is a message that is not JSON, like `{bad}` (frame-corpus-server.ts).
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^Invalid JSON-RPC line .*: $/),
      expect.stringMatching(/^Invalid JSON-RPC line .*: \{bad\}$/),
    ]);

    let out = '';
    stdout.on('data', (c: Buffer) => (out += c.toString()));
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(out).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');

    stdin.end();
    await new Promise((r) => setImmediate(r));
    expect(closes).toBe(1);
    await transport.close();
    expect(closes).toBe(1);
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow(/Not connected/);
  });

  it('sends on a stream whose write callback runs before write() returns (as Bun calls it)', async () => {
    // Node always defers the callback; Bun does not. Both a plain write and a backpressured one must settle.
    for (const accepted of [true, false]) {
      const drains: Array<() => void> = [];
      const written: string[] = [];
      const stdout = new PassThrough();
      // The first frame of a tick is written without a callback (FrameWriter), the ones behind it with one.
      stdout.write = ((text: string, callback?: (error?: Error | null) => void) => {
        written.push(text);
        callback?.(null);
        return accepted;
      }) as typeof stdout.write;
      stdout.once = ((event: string, listener: () => void) => {
        if (event === 'drain') drains.push(listener);
        return stdout;
      }) as typeof stdout.once;
      const transport = new StdioServerTransport({ stdin: new PassThrough(), stdout });
      await transport.start();
      const sent = transport.send({ jsonrpc: '2.0', method: 'x' });
      await new Promise((resolve) => setImmediate(resolve)); // frames of one tick are written together, after it
      if (!accepted) {
        expect(drains).toHaveLength(1);
        drains[0]!();
      }
      await sent;
      expect(written).toEqual(['{"jsonrpc":"2.0","method":"x"}\n']);
      await transport.close();
    }
  });
});
