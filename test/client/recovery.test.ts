/**
 * Issue 36, item 1: clients survive their server going away. Real server processes (a generated 2025-11-25
 * server, test/client/fixtures/restartable-server.ts) are killed with SIGKILL and started again:
 * - a call in flight fails at once with LocalError -32000 (its stream was cut and cannot be resumed), not at
 *   its timeout;
 * - after a restart the HTTP client meets 404 for its session, fails that call (it is not retried), opens a new
 *   session with the same options and says so through `onSessionRenewed`; the next call is served;
 * - `close()` then `connect()` works, over HTTP, HTTP+SSE, WebSocket and stdio (which spawns its server again);
 * - `close()` against a dead HTTP server returns without waiting out a timeout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { WebSocket as UndiciWebSocket } from 'undici';
// The transports the generated index does not re-export, from the same runtime package its client runs on.
import { SseLegacyClientTransport, WebSocketClientTransport } from '@mcp-typegen/runtime';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileFixture, importBuilt, built } from './helpers/build.js';

const FIXTURE = new URL('./fixtures/restartable-server.ts', import.meta.url).pathname;
const clientInfo = { name: 'recovery-test', version: '0' };
/** Calls get a long timeout: a test that waited for it would fail on vitest's own 60 s, never pass. */
const LONG = { timeout: 120_000 };

let gen: any;
let script: string;
const children = new Set<ChildProcess>();
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  gen = await importBuilt(await built('2025-11-25'), 'index.js');
  script = await compileFixture('2025-11-25', FIXTURE);
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
});

/** Starts the HTTP server process (on `port`, or one it picks) and resolves once it listens. */
async function startHttpServer(port = 0, mode = 'http'): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [script, mode, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  if (child.stdout === null) throw new Error('spawned without a stdout pipe');
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const match = /^PORT (\d+)$/.exec(line);
    if (match) return { child, port: Number(match[1]) };
  }
  throw new Error('the server exited before listening');
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

function textOf(result: { content: Array<{ text?: string }> }): string {
  return result.content.map((c) => c.text ?? '').join('');
}

function httpClient(port: number, options: object = {}) {
  const transport = new gen.StreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`);
  const client = new gen.McpClient(transport, { clientInfo, ...options });
  cleanups.push(() => client.close());
  return { client, transport };
}

describe('Streamable HTTP client, server killed and restarted', () => {
  it('fails the call in flight at once, then opens a new session after the 404', async () => {
    const first = await startHttpServer();
    const renewals: any[] = [];
    const { client, transport } = httpClient(first.port, { onSessionRenewed: (e: unknown) => renewals.push(e) });
    await client.connect();
    expect(textOf(await client.tools.call({ name: 'echo', arguments: { text: 'a' } }))).toBe(`a|${first.child.pid}`);
    const firstSession = transport.sessionId;

    const hanging = client.tools.call({ name: 'hang', arguments: {} }, LONG);
    const failure = hanging.catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the POST reaches the server
    await kill(first.child);
    const error = await failure;
    expect(error).toBeInstanceOf(gen.LocalError);
    expect(error).toMatchObject({ code: -32000 });

    const second = await startHttpServer(first.port);
    // The restarted server knows no session: that call fails with its 404 (never retried: it may not be
    // idempotent), and the client opens a new session.
    await expect(client.tools.call({ name: 'echo', arguments: { text: 'b' } }, LONG)).rejects.toMatchObject({
      status: 404,
    });
    const answer = await client.tools.call({ name: 'echo', arguments: { text: 'c' } }, LONG);
    expect(textOf(answer)).toBe(`c|${second.child.pid}`);
    expect(renewals).toEqual([{ previousSessionId: firstSession, sessionId: transport.sessionId }]);
    expect(transport.sessionId).not.toBe(firstSession);
  });

  it('connects again after close(), to the same server and to a restarted one', async () => {
    const first = await startHttpServer();
    const { client, transport } = httpClient(first.port);
    await client.connect();
    const firstSession = transport.sessionId;
    await client.close();
    await client.connect();
    expect(transport.sessionId).not.toBe(firstSession);
    expect(textOf(await client.tools.call({ name: 'echo', arguments: { text: 'a' } }))).toBe(`a|${first.child.pid}`);

    await kill(first.child);
    await client.close(); // against a dead server: does not wait out the DELETE's timeout
    const second = await startHttpServer(first.port);
    await client.connect();
    expect(textOf(await client.tools.call({ name: 'echo', arguments: { text: 'b' } }))).toBe(`b|${second.child.pid}`);
  });

  it.each(['SIGKILL', 'SIGSTOP'] as const)(
    'close() against a dead server (%s) does not wait out a long timeout',
    async (signal) => {
      const server = await startHttpServer();
      const { client } = httpClient(server.port);
      await client.connect();
      if (signal === 'SIGKILL') await kill(server.child);
      else server.child.kill('SIGSTOP'); // hung: accepts connections, answers nothing (SIGKILLed after the test)
      const closed = client.close().then(() => 'closed');
      // Generous: a killed server refuses the DELETE at once, a hung one costs the DELETE's 1 s bound (it was 5 s).
      const verdict = await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 4000, 'waiting'))]);
      expect(verdict).toBe('closed');
    },
  );
});

describe('stdio client, server killed', () => {
  it('fails the call in flight at once, and connect() starts the server again', async () => {
    const transport = new gen.StdioClientTransport({ command: process.execPath, args: [script, 'stdio'] });
    const client = new gen.McpClient(transport, { clientInfo });
    cleanups.push(() => client.close());
    await client.connect();
    const firstPid = transport.pid;
    expect(textOf(await client.tools.call({ name: 'echo', arguments: { text: 'a' } }))).toBe(`a|${firstPid}`);

    const failure = client.tools.call({ name: 'hang', arguments: {} }, LONG).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.kill(firstPid, 'SIGKILL');
    expect(await failure).toMatchObject({ code: -32000 });

    await client.connect();
    expect(transport.pid).not.toBe(firstPid);
    const answer = await client.tools.call({ name: 'echo', arguments: { text: 'b' } });
    expect(textOf(answer)).toBe(`b|${transport.pid}`);

    await client.close();
    await client.connect(); // and after close() too
    expect(textOf(await client.tools.call({ name: 'echo', arguments: { text: 'c' } }))).toBe(`c|${transport.pid}`);
  });
});

describe.each(['sse', 'ws'])('%s client, server killed and restarted', (mode) => {
  const transportFor = (port: number) =>
    mode === 'sse'
      ? new SseLegacyClientTransport(`http://127.0.0.1:${port}/sse`)
      : new WebSocketClientTransport(`ws://127.0.0.1:${port}/mcp`, { WebSocket: UndiciWebSocket });

  it('fails the call in flight at once, and connect() reaches the restarted server; close() then connect() too', async () => {
    const first = await startHttpServer(0, mode);
    const client = new gen.McpClient(transportFor(first.port), { clientInfo });
    cleanups.push(() => client.close());
    await client.connect();
    expect(textOf(await client.tools.call({ name: 'echo', arguments: { text: 'a' } }))).toBe(`a|${first.child.pid}`);

    const failure = client.tools.call({ name: 'hang', arguments: {} }, LONG).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await kill(first.child);
    expect(await failure).toMatchObject({ code: -32000 });

    const second = await startHttpServer(first.port, mode);
    await client.connect();
    expect(textOf(await client.tools.call({ name: 'echo', arguments: { text: 'b' } }))).toBe(`b|${second.child.pid}`);
    await client.close();
    await client.connect();
    expect(textOf(await client.tools.call({ name: 'echo', arguments: { text: 'c' } }))).toBe(`c|${second.child.pid}`);
  });
});
