/**
 * Listener counts stay bounded under load: 2 560 calls with 256 in flight (the window refilled 10 times), all
 * sharing one caller's AbortSignal (as an app that cancels everything at shutdown does), over Streamable HTTP
 * (loopback, in-process server) and over stdio (a child echoing 4 KiB payloads, so its pipe pushes back). Sampled while
 * the calls run: the shared signal carries one abort listener however many calls wait on it, none after;
 * stdio keeps at most one 'drain' listener; the transports' maps return to their baseline; no
 * MaxListenersExceededWarning.
 *
 * In test/stress rather than test/transports: the platform matrix reruns test/transports on Node 22 and 24,
 * and these calls need not run three times.
 */
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { RpcPeer } from '../../templates/core/peer.js';
import { StreamableHttpClientTransport } from '../../templates/transports/http/client/transport.js';
import {
  createStreamableHttpServer,
  type StreamableHttpServerTransport,
} from '../../templates/transports/http/server/endpoint.js';
import { StdioClientTransport } from '../../templates/transports/stdio/stdio.js';
import { ROOT } from '../helpers/paths.js';
import { listen, modelProtocol } from '../transports/helpers/http.js';
import { eventually } from '../helpers/eventually.js';

// Ten windows: enough for a per-call leak to show as growth between samples (was 5 000: 8.6 s over HTTP).
const CALLS = 2_560;
const IN_FLIGHT = 256;
/**
 * Per call: generous, since a loaded 2-core machine can starve one loopback connection for a while; a lost
 * answer still fails the test (the test's own timeout).
 */
const CALL_TIMEOUT = 240_000;
const TEST_TIMEOUT = 300_000;

let warnings: Error[] = [];
const onWarning = (warning: Error): void => void warnings.push(warning);
beforeEach(() => {
  warnings = [];
  process.on('warning', onWarning);
});
afterEach(() => void process.off('warning', onWarning));

/** What is sampled while the calls run. */
interface Sample {
  abort: number;
  drain: number;
  /** HTTP: requests the client transport has in flight (its map of open POSTs). */
  pending: number;
}

/**
 * Runs CALLS calls with at most IN_FLIGHT at once, all on `signal`; samples the counts every 100 settled
 * calls. Resolves with the largest of each.
 */
async function load(call: (i: number) => Promise<unknown>, sample: () => Sample): Promise<Sample> {
  const max: Sample = { abort: 0, drain: 0, pending: 0 };
  let next = 0;
  let settled = 0;
  const worker = async (): Promise<void> => {
    while (next < CALLS) {
      const i = next++;
      await call(i);
      if (++settled % 100 === 0) {
        const now = sample();
        for (const k of Object.keys(max) as (keyof Sample)[]) max[k] = Math.max(max[k], now[k]);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  expect(settled).toBe(CALLS);
  return max;
}

const until = (condition: () => boolean): Promise<void> => eventually(condition, 30_000);

it(`Streamable HTTP: ${CALLS} calls, ${IN_FLIGHT} in flight, one signal`, { timeout: TEST_TIMEOUT }, async () => {
  let session: StreamableHttpServerTransport | undefined;
  const handler = createStreamableHttpServer({
    protocol: await modelProtocol(),
    keepAliveMs: 0,
    enableJsonResponse: true,
    onSession: async (connection) => {
      session = connection as StreamableHttpServerTransport;
      const peer = new RpcPeer(connection);
      peer.setRequestHandler('initialize', (params) => ({
        protocolVersion: params?.['protocolVersion'],
        capabilities: {},
        serverInfo: { name: 'bounds', version: '1' },
      }));
      peer.setRequestHandler('echo', (params) => params ?? {});
      await peer.start();
    },
  });
  const http = await listen(handler);
  const sockets = new Set<Socket>();
  let mostSockets = 0;
  http.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    mostSockets = Math.max(mostSockets, sockets.size);
    socket.once('close', () => sockets.delete(socket));
  });
  const transport = new StreamableHttpClientTransport(`${http.url}/mcp`, { openSseStream: false });
  const client = new RpcPeer(transport, { timeout: CALL_TIMEOUT });
  const shared = new AbortController();
  try {
    await client.start();
    await client.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    transport.setProtocolVersion('2025-11-25');
    const baseline = session!.stats;
    const max = await load(
      (i) => client.request('echo', { i }, { signal: shared.signal }),
      () => ({
        abort: getEventListeners(shared.signal, 'abort').length,
        drain: 0,
        pending: transport.requestsInFlight,
      }),
    );
    expect(max.abort).toBe(1); // one listener for every call sharing the signal
    expect(max.pending).toBeLessThanOrEqual(IN_FLIGHT);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    // Both sides finish their bookkeeping just after the last answer is delivered.
    await until(() => transport.requestsInFlight === 0);
    await until(() => session!.stats.channels === baseline.channels && session!.stats.requests === 0);
    // Connections are pooled and reused: a bounded pool (a reused socket is freed a moment after its answer
    // is read, so a few more than the calls in flight), never one per call made.
    expect(mostSockets).toBeLessThanOrEqual(2 * IN_FLIGHT);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  } finally {
    await client.close();
    await handler.close();
    await http.close();
  }
});

it(`stdio: ${CALLS} calls of 4 KiB, ${IN_FLIGHT} in flight, one signal`, { timeout: TEST_TIMEOUT }, async () => {
  const fixture = join(ROOT, 'test', 'transports', 'fixtures', 'echo-stdio-server.mjs');
  const runtime = join(ROOT, 'packages', 'runtime', 'dist', 'esm');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fixture, runtime],
    stderr: 'ignore',
  });
  const client = new RpcPeer(transport, { timeout: CALL_TIMEOUT });
  const shared = new AbortController();
  const payload = 'x'.repeat(4096);
  try {
    await client.start();
    const stdin = (transport as unknown as { child: { stdin: NodeJS.WritableStream } }).child.stdin;
    const stdout = (transport as unknown as { child: { stdout: NodeJS.ReadableStream } }).child.stdout;
    const dataListeners = stdout.listenerCount('data');
    const max = await load(
      async (i) => {
        const answer = (await client.request('echo/any', { i, payload }, { signal: shared.signal })) as {
          echoed: { params: { i: number } };
        };
        expect(answer.echoed.params.i).toBe(i);
      },
      () => ({
        abort: getEventListeners(shared.signal, 'abort').length,
        drain: stdin.listenerCount('drain'),
        pending: 0,
      }),
    );
    expect(max.abort).toBe(1); // one listener for every call sharing the signal
    expect(max.drain).toBeLessThanOrEqual(1);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    expect(stdin.listenerCount('drain')).toBe(0);
    expect(stdout.listenerCount('data')).toBe(dataListeners);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  } finally {
    await client.close();
  }
});
