/**
 * No hang, no leak over Streamable HTTP sessions (2025-11-25): cancelled and timed-out calls release the
 * server's channel, request entry and stored event stream, and the client's request and socket, and the
 * counts return to their baseline; many calls in flight add no abort listeners to shared signals.
 */
import { expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { InMemoryEventStore } from '../../templates/cluster/event-store.js';
import {
  createStreamableHttpServer,
  type StreamableHttpServerTransport,
} from '../../templates/transports/http/server/endpoint.js';
import { StreamableHttpClientTransport } from '../../templates/transports/http/client/transport.js';
import { RpcPeer } from '../../templates/core/peer.js';
import { listen, modelProtocol } from './helpers/http.js';
import { eventually } from '../helpers/eventually.js';

it('300 cancelled or timed-out calls leave nothing behind on either side', { timeout: 180_000 }, async () => {
  const store = new InMemoryEventStore();
  let session: StreamableHttpServerTransport | undefined;
  let aborted = 0;
  let started = 0;
  const handler = createStreamableHttpServer({
    protocol: await modelProtocol(),
    keepAliveMs: 0,
    eventStore: store,
    onSession: async (connection) => {
      session = connection as StreamableHttpServerTransport;
      const peer = new RpcPeer(connection);
      peer.setRequestHandler('initialize', (params) => ({
        protocolVersion: params?.['protocolVersion'],
        capabilities: {},
        serverInfo: { name: 'leaks', version: '1' },
      }));
      peer.setRequestHandler('ping', () => ({}));
      peer.setRequestHandler('slow', (_params, ctx) => {
        started++;
        return new Promise((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => (aborted++, reject(ctx.signal.reason))),
        );
      });
      await peer.start();
    },
  });
  const http = await listen(handler);
  const sockets = new Set<Socket>();
  http.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const warnings: Error[] = [];
  const onWarning = (warning: Error): void => void warnings.push(warning);
  process.on('warning', onWarning);
  const transport = new StreamableHttpClientTransport(`${http.url}/mcp`, { openSseStream: false });
  const client = new RpcPeer(transport, { timeout: 60_000 });
  try {
    await client.start();
    await client.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    transport.setProtocolVersion('2025-11-25');
    await client.notify('notifications/initialized');
    await client.request('ping');
    const baseline = { channels: session!.stats.channels, streams: store.streamCount, sockets: sockets.size };

    // 200 calls cancelled once the server runs them, then 100 that time out (some perhaps before the server
    // sees them on a loaded machine: nothing may be left behind either way). In waves of 50, so a loaded
    // machine is not also asked for hundreds of simultaneous connections.
    const outcomes: unknown[] = [];
    for (let wave = 0; wave < 4; wave++) {
      const controllers = Array.from({ length: 50 }, () => new AbortController());
      const calls = controllers.map((c) => client.request('slow', {}, { signal: c.signal }).catch((e: unknown) => e));
      await until(() => started === (wave + 1) * 50);
      for (const controller of controllers) controller.abort();
      outcomes.push(...(await Promise.all(calls)));
    }
    for (let wave = 0; wave < 2; wave++) {
      const calls = Array.from({ length: 50 }, () =>
        client.request('slow', {}, { timeout: 1500 }).catch((e: unknown) => e),
      );
      outcomes.push(...(await Promise.all(calls)));
    }
    expect(outcomes.slice(0, 200).every((o) => (o as Error).name === 'AbortError')).toBe(true);
    expect(outcomes.slice(200).every((o) => (o as { code?: number }).code === -32001)).toBe(true);
    await until(() => aborted === started && session!.stats.requests === 0);
    await until(() => session!.stats.channels === baseline.channels && store.streamCount === baseline.streams);
    expect(transport.requestsInFlight).toBe(0);
    await until(() => sockets.size <= Math.max(baseline.sockets, 1) + 1);
    await expect(client.request('ping')).resolves.toEqual({});
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  } finally {
    process.off('warning', onWarning);
    await client.close();
    await handler.close();
    await http.close();
  }
  expect(EventEmitter.defaultMaxListeners).toBe(10);
});

const until = (condition: () => boolean): Promise<void> => eventually(condition, 60_000);
