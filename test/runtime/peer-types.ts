/**
 * Type tests for RpcPeer, compiled by `tsc -p tsconfig.json --noEmit` (never run). Each `@ts-expect-error`
 * must stay an error: if the peer's typing loosens, the directive becomes unused and the build fails.
 */
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { InMemoryTransport as SdkInMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport as SdkTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RequestId } from '../../templates/core/jsonrpc.js';
import { RpcPeer, type HandlerContext } from '../../templates/core/peer.js';
import { createInMemoryPair, type Transport } from '../../templates/core/transport.js';

// Tables shaped like the generated maps.ts.
type ClientRequests = {
  'tools/call': {
    params: { name: string; arguments?: { [key: string]: unknown } };
    paramsRequired: true;
    result: { content: { type: 'text'; text: string }[]; isError?: boolean };
  };
  'tools/list': { params: { cursor?: string }; paramsRequired: false; result: { tools: { name: string }[] } };
};
type ServerRequests = {
  'sampling/createMessage': { params: { prompt: string }; paramsRequired: true; result: { text: string } };
};
type ClientNotifications = {
  'notifications/initialized': { params: { _meta?: object }; paramsRequired: false };
  'notifications/cancelled': { params: { requestId: RequestId; reason?: string }; paramsRequired: true };
};
type ServerNotifications = {
  'notifications/message': { params: { level: 'info' | 'error'; data: unknown }; paramsRequired: true };
};

type Client = RpcPeer<ClientRequests, ClientNotifications, ServerRequests, ServerNotifications>;
type Server = RpcPeer<ServerRequests, ServerNotifications, ClientRequests, ClientNotifications>;

export async function clientSide(client: Client): Promise<void> {
  const result = await client.request('tools/call', { name: 'search', arguments: { q: 'x' } });
  const text: string = result.content[0]!.text;
  void text;
  await client.request('tools/call', { name: 'search' }, { timeout: 1000, onProgress: (p) => void p.progress });
  await client.request('tools/list');
  await client.request('tools/list', { cursor: 'c' });
  await client.notify('notifications/initialized');
  await client.notify('notifications/cancelled', { requestId: 1, reason: 'no longer needed' });

  // @ts-expect-error unknown method
  await client.request('tools/nope', {});
  // @ts-expect-error a server-to-client method is not a client request
  await client.request('sampling/createMessage', { prompt: 'x' });
  // @ts-expect-error wrong params type
  await client.request('tools/call', { name: 1 });
  // @ts-expect-error unknown params member
  await client.request('tools/list', { cursr: 'c' });
  // @ts-expect-error missing required params
  await client.request('tools/call');
  // @ts-expect-error bad option type
  await client.request('tools/call', { name: 'x' }, { timeout: 'soon' });
  // @ts-expect-error reading a field the result does not have
  void result.contents;
  // @ts-expect-error unknown notification
  await client.notify('notifications/nope');
  // @ts-expect-error missing required notification params
  await client.notify('notifications/cancelled');
  // @ts-expect-error wrong notification params
  await client.notify('notifications/cancelled', { requestId: true });
}

export function serverSide(server: Server): void {
  server.setRequestHandler('tools/call', (params, ctx) => {
    const name: string = params.name;
    const id: RequestId = ctx.id;
    void id;
    return { content: [{ type: 'text', text: name }] };
  });
  server.setRequestHandler('tools/call', async (_params, ctx: HandlerContext<ServerRequests, ServerNotifications>) => {
    const reply = await ctx.request('sampling/createMessage', { prompt: 'hi' });
    await ctx.notify('notifications/message', { level: 'info', data: reply.text });
    await ctx.progress(1, 2, 'half');
    if (ctx.signal.aborted) return { content: [], isError: true };
    // @ts-expect-error a client-to-server method cannot be requested back
    await ctx.request('tools/list');
    // @ts-expect-error wrong params for the request back
    await ctx.request('sampling/createMessage', { prompt: 3 });
    // @ts-expect-error reading a field the nested result does not have
    void reply.txt;
    // @ts-expect-error wrong notification params
    await ctx.notify('notifications/message', { level: 'debug', data: 1 });
    return { content: [{ type: 'text', text: reply.text }] };
  });
  server.setRequestHandler('tools/list', (params) => {
    // @ts-expect-error params are optional for this method, so possibly undefined
    void params.cursor;
    return { tools: [{ name: params?.cursor ?? 'first' }] };
  });
  // @ts-expect-error wrong handler return shape
  server.setRequestHandler('tools/list', () => ({ tool: [] }));
  // @ts-expect-error wrong handler return shape (async)
  server.setRequestHandler('tools/call', async () => ({ content: 'text' }));
  // @ts-expect-error unknown method
  server.setRequestHandler('tools/nope', () => ({}));
  // @ts-expect-error a server-to-client request is not handled by the server
  server.setRequestHandler('sampling/createMessage', () => ({ text: '' }));
  // @ts-expect-error params read with the wrong type
  server.setRequestHandler('tools/call', (_params: { name: number }) => ({ content: [] }));

  server.setNotificationHandler('notifications/cancelled', (params) => {
    const requestId: RequestId = params.requestId;
    void requestId;
  });
  // @ts-expect-error unknown notification
  server.setNotificationHandler('notifications/nope', () => {});
  server.removeRequestHandler('tools/call');
  // @ts-expect-error unknown method
  server.removeRequestHandler('tools/nope');
}

/** With the default tables, any method and object params are accepted. */
export async function untyped(transport: Transport): Promise<void> {
  const peer = new RpcPeer(transport, { batches: true, timeout: 5000 });
  const result = await peer.request('anything/at-all', { a: 1 });
  const value: unknown = result.whatever;
  void value;
  await peer.request('no/params');
  await peer.notify('notifications/whatever', { x: [1] });
  peer.setRequestHandler('x', (params, ctx) => ({ got: params?.a, id: ctx.id }));
  peer.setNotificationHandler('y', () => {});
  // @ts-expect-error params are objects, never arrays
  await peer.request('x', [1, 2]);
}

/** The official SDK's transports plug in unchanged; ours is SDK-shaped too. */
export function sdkTransportsAssign(
  stdioClient: StdioClientTransport,
  httpClient: StreamableHTTPClientTransport,
  stdioServer: StdioServerTransport,
  httpServer: StreamableHTTPServerTransport,
  sdkPair: [SdkInMemoryTransport, SdkInMemoryTransport],
  anySdk: SdkTransport,
): Transport[] {
  const [a, b] = createInMemoryPair();
  return [stdioClient, httpClient, stdioServer, httpServer, sdkPair[0], anySdk, a, b];
}
