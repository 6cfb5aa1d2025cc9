/** Engine tests: two RpcPeers over the in-memory pair, with every frame on the wire recorded. */
import { describe, expect, it } from 'vitest';
import { ErrorCode, LocalError, ProtocolError, type RequestId } from '../../templates/core/jsonrpc.js';
import { RpcPeer, type PeerDiagnostic, type PeerOptions, type Progress } from '../../templates/core/peer.js';
import { createInMemoryPair, type JsonRpcFrame, type Transport } from '../../templates/core/transport.js';

interface WireEntry {
  from: 'client' | 'server';
  frame: any;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

function tap(transport: Transport, from: WireEntry['from'], wire: WireEntry[]): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    wire.push({ from, frame: JSON.parse(JSON.stringify(message)) });
    return send(message, options);
  };
}

/** Two started peers over the in-memory pair; `wire` records every frame in send order. */
async function connectedPeers(options: { client?: PeerOptions; server?: PeerOptions } = {}) {
  const [clientTransport, serverTransport] = createInMemoryPair();
  const wire: WireEntry[] = [];
  tap(clientTransport, 'client', wire);
  tap(serverTransport, 'server', wire);
  const diagnostics = { client: [] as PeerDiagnostic[], server: [] as PeerDiagnostic[] };
  const client = new RpcPeer(clientTransport, { onDiagnostic: (d) => diagnostics.client.push(d), ...options.client });
  const server = new RpcPeer(serverTransport, { onDiagnostic: (d) => diagnostics.server.push(d), ...options.server });
  await Promise.all([client.start(), server.start()]);
  return { client, server, wire, diagnostics };
}

const fromServer = (wire: WireEntry[]) => wire.filter((e) => e.from === 'server').map((e) => e.frame);
const fromClient = (wire: WireEntry[]) => wire.filter((e) => e.from === 'client').map((e) => e.frame);

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('requests and responses', () => {
  it('round-trips params and result', async () => {
    const { client, server } = await connectedPeers();
    server.setRequestHandler('add', (params) => ({ sum: (params!.a as number) + (params!.b as number) }));
    await expect(client.request('add', { a: 2, b: 3 })).resolves.toEqual({ sum: 5 });
  });

  it('answers {} for a handler that returns nothing', async () => {
    const { client, server } = await connectedPeers();
    server.setRequestHandler('ping', () => undefined as never);
    await expect(client.request('ping')).resolves.toEqual({});
  });

  it('uses 1,000 distinct integer ids for 1,000 concurrent calls', async () => {
    const { client, server, wire } = await connectedPeers();
    server.setRequestHandler('echo', async (params) => ({ n: params!.n }));
    const results = await Promise.all(Array.from({ length: 1000 }, (_, n) => client.request('echo', { n })));
    expect(results.map((r) => r.n)).toEqual(Array.from({ length: 1000 }, (_, n) => n));
    const ids = fromClient(wire).map((f) => f.id);
    expect(ids.every((id) => Number.isSafeInteger(id))).toBe(true);
    expect(new Set(ids).size).toBe(1000);
    // Every response carried the id of its request.
    expect(new Set(fromServer(wire).map((f) => f.id))).toEqual(new Set(ids));
  });

  it('never reuses an id that is still outstanding', async () => {
    const { client, server, wire } = await connectedPeers();
    server.setRequestHandler('hang', () => new Promise(() => {}));
    // Force the counter to wrap onto ids that are still pending.
    void client.request('hang').catch(() => {});
    void client.request('hang').catch(() => {});
    (client as unknown as { nextId: number }).nextId = 1;
    void client.request('hang').catch(() => {});
    await settle();
    expect(fromClient(wire).map((f) => f.id)).toEqual([1, 2, 3]);
    await client.close();
  });

  it('round-trips a ProtocolError with code, message and data', async () => {
    const { client, server } = await connectedPeers();
    server.setRequestHandler('fail', () => {
      throw new ProtocolError(-32002, 'Resource not found', { uri: 'file:///nope', tried: [1, 2] });
    });
    const error = await rejection(client.request('fail'));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({
      code: -32002,
      message: 'Resource not found',
      data: { uri: 'file:///nope', tried: [1, 2] },
    });
  });

  it('answers a handler throwing a plain Error with a bare -32603 and reports the real error', async () => {
    const logged: unknown[] = [];
    const { client, server, wire } = await connectedPeers({ server: { onHandlerError: (e) => logged.push(e) } });
    server.setRequestHandler('boom', async () => {
      throw new Error('database password is hunter2');
    });
    const error = await rejection(client.request('boom'));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.code).toBe(-32603);
    expect(error.message).toBe('Internal error');
    expect(error.data).toBeUndefined();
    expect(JSON.stringify(wire)).not.toContain('hunter2');
    expect(fromServer(wire)[0]).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } });
    expect((logged[0] as Error).message).toBe('database password is hunter2');
  });

  it('reports a response for an unknown id instead of throwing', async () => {
    const { client, server, diagnostics } = await connectedPeers();
    await server.transport.send({ jsonrpc: '2.0', id: 4242, result: {} });
    await settle();
    expect(diagnostics.client).toEqual([expect.objectContaining({ kind: 'unknown-response', id: 4242 })]);
    expect(client.isClosed).toBe(false);
  });

  it('rejects a call whose response is malformed', async () => {
    const transport = new ScriptedTransport((message, t) => {
      t.deliver({ jsonrpc: '2.0', id: (message as { id: RequestId }).id, error: { code: 'x' } });
    });
    const peer = new RpcPeer(transport);
    const error = await rejection(peer.request('anything'));
    expect(error).toMatchObject({ code: ErrorCode.InternalError });
    expect(error.message).toMatch(/Malformed response/);
  });

  it('lets a handler call back into the other peer through ctx.request', async () => {
    const { client, server, wire } = await connectedPeers();
    client.setRequestHandler('sampling/createMessage', (params) => ({ text: `reply to ${params!.prompt}` }));
    server.setRequestHandler('tools/call', async (_params, ctx) => {
      const answer = await ctx.request('sampling/createMessage', { prompt: 'hi' });
      return { content: answer.text };
    });
    await expect(client.request('tools/call', {})).resolves.toEqual({ content: 'reply to hi' });
    expect(fromServer(wire)[0]).toMatchObject({ method: 'sampling/createMessage', id: 1 });
  });

  it('sends notifications, handled by the user handler', async () => {
    const { client, server } = await connectedPeers();
    const seen: unknown[] = [];
    server.setNotificationHandler('notifications/initialized', (params, ctx) => {
      seen.push([params, ctx.method]);
    });
    await client.notify('notifications/initialized');
    await client.notify('notifications/initialized', { x: 1 });
    await settle();
    expect(seen).toEqual([
      [undefined, 'notifications/initialized'],
      [{ x: 1 }, 'notifications/initialized'],
    ]);
  });

  it('refuses requests through beforeRequest without running the handler', async () => {
    let ran = false;
    const { client, server } = await connectedPeers({
      server: {
        beforeRequest: (method) =>
          method === 'initialize' ? undefined : new ProtocolError(-32002, 'Server not initialized'),
      },
    });
    server.setRequestHandler('tools/list', () => ((ran = true), { tools: [] }));
    server.setRequestHandler('initialize', () => ({ ok: true }));
    await expect(client.request('tools/list')).rejects.toMatchObject({ code: -32002 });
    await expect(client.request('initialize')).resolves.toEqual({ ok: true });
    expect(ran).toBe(false);
  });

  it('routes unknown methods to fallbackRequestHandler, and removes handlers', async () => {
    const { client, server } = await connectedPeers();
    server.setRequestHandler('a', () => ({ from: 'a' }));
    await expect(client.request('a')).resolves.toEqual({ from: 'a' });
    server.removeRequestHandler('a');
    await expect(client.request('a')).rejects.toMatchObject({ code: -32601 });
    server.fallbackRequestHandler = (method) => ({ fallback: method });
    await expect(client.request('a')).resolves.toEqual({ fallback: 'a' });
  });
});

describe('progress', () => {
  it('routes progress by token to onProgress, without mutating the caller params', async () => {
    const { client, server, wire } = await connectedPeers();
    server.setRequestHandler('work', async (_params, ctx) => {
      await ctx.progress(1, 3);
      await ctx.progress(2, 3, 'halfway');
      return { done: true };
    });
    const params = { job: 'x', _meta: { trace: 't' } };
    const snapshot = structuredClone(params);
    const seen: Progress[] = [];
    await expect(client.request('work', params, { onProgress: (p) => seen.push(p) })).resolves.toEqual({ done: true });
    expect(seen).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3, message: 'halfway' },
    ]);
    expect(params).toEqual(snapshot);
    const sent = fromClient(wire)[0];
    expect(sent.params).toEqual({ job: 'x', _meta: { trace: 't', progressToken: sent.id } });
    const progress = fromServer(wire).filter((f) => f.method === 'notifications/progress');
    expect(progress.map((f) => f.params.progressToken)).toEqual([sent.id, sent.id]);
  });

  it('gives every request its own token', async () => {
    const { client, server, wire } = await connectedPeers();
    server.setRequestHandler('work', () => ({}));
    await Promise.all([1, 2, 3].map(() => client.request('work', {}, { onProgress: () => {} })));
    const tokens = fromClient(wire).map((f) => f.params._meta.progressToken);
    expect(new Set(tokens).size).toBe(3);
  });

  it('makes ctx.progress a no-op when the request carried no token', async () => {
    const { client, server, wire } = await connectedPeers();
    server.setRequestHandler('work', async (_params, ctx) => {
      await ctx.progress(1);
      return {};
    });
    await client.request('work');
    expect(fromServer(wire).map((f) => f.method)).toEqual([undefined]);
  });

  it('registers the progress route before send (progress delivered synchronously inside send)', async () => {
    const transport = new ScriptedTransport((message, t) => {
      const request = message as unknown as { id: RequestId; params: { _meta: { progressToken: RequestId } } };
      const token = request.params._meta.progressToken;
      t.deliver({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 0.5 } });
      t.deliver({ jsonrpc: '2.0', id: request.id, result: { ok: true } });
    });
    const peer = new RpcPeer(transport);
    const seen: Progress[] = [];
    await expect(peer.request('work', {}, { onProgress: (p) => seen.push(p) })).resolves.toEqual({ ok: true });
    expect(seen).toEqual([{ progress: 0.5 }]);
  });

  it('drops progress that arrives after the response quietly, reporting it', async () => {
    const { client, server, diagnostics } = await connectedPeers();
    let token: RequestId | undefined;
    server.setRequestHandler('work', (_params, ctx) => {
      token = ctx.meta!.progressToken as RequestId;
      return {};
    });
    const seen: Progress[] = [];
    await client.request('work', {}, { onProgress: (p) => seen.push(p) });
    await server.notify('notifications/progress', { progressToken: token!, progress: 1 });
    await server.notify('notifications/progress', { progressToken: 'never-issued', progress: 1 });
    await settle();
    expect(seen).toEqual([]);
    expect(diagnostics.client.map((d) => d.kind)).toEqual(['unroutable-progress', 'unroutable-progress']);
  });

  it('forwards built-in notifications to a registered user handler too', async () => {
    const { client, server } = await connectedPeers();
    const seen: unknown[] = [];
    client.setNotificationHandler('notifications/progress', (params) => {
      seen.push(params!.progress);
    });
    server.setRequestHandler('work', async (_params, ctx) => {
      await ctx.progress(7);
      return {};
    });
    const routed: Progress[] = [];
    await client.request('work', {}, { onProgress: (p) => routed.push(p) });
    expect(routed).toEqual([{ progress: 7 }]);
    expect(seen).toEqual([7]);
  });

  it('swallows an onProgress callback that throws', async () => {
    const { client, server, diagnostics } = await connectedPeers();
    server.setRequestHandler('work', async (_params, ctx) => {
      await ctx.progress(1);
      return { ok: 1 };
    });
    const result = await client.request(
      'work',
      {},
      {
        onProgress: () => {
          throw new Error('bad callback');
        },
      },
    );
    expect(result).toEqual({ ok: 1 });
    expect(diagnostics.client.map((d) => d.kind)).toEqual(['callback-error']);
  });
});

describe('cancellation', () => {
  it('sends notifications/cancelled, aborts the handler signal and sends no response', async () => {
    const { client, server, wire } = await connectedPeers();
    let handlerSignal: AbortSignal | undefined;
    let finish!: () => void;
    server.setRequestHandler('slow', (_params, ctx) => {
      handlerSignal = ctx.signal;
      return new Promise((resolve) => (finish = () => resolve({ late: true })));
    });
    const controller = new AbortController();
    const call = client.request('slow', {}, { signal: controller.signal });
    await settle();
    controller.abort('user pressed stop');
    await expect(call).rejects.toBe('user pressed stop');
    await settle();
    expect(handlerSignal!.aborted).toBe(true);
    expect(handlerSignal!.reason).toMatchObject({ name: 'AbortError', message: 'user pressed stop' });
    finish(); // The handler's late result must not be sent.
    await settle();
    const id = fromClient(wire)[0].id;
    expect(fromClient(wire)[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: 'user pressed stop' },
    });
    expect(fromServer(wire)).toEqual([]);
  });

  it('rejects with the default AbortError reason when aborted without one', async () => {
    const { client, server } = await connectedPeers();
    server.setRequestHandler('slow', () => new Promise(() => {}));
    const controller = new AbortController();
    const call = client.request('slow', {}, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects an already aborted signal without sending anything', async () => {
    const { client, wire } = await connectedPeers();
    const reason = new Error('too late');
    await expect(client.request('x', {}, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await settle();
    expect(wire).toEqual([]);
  });

  it('ignores an abort after the response arrived', async () => {
    const { client, server, wire } = await connectedPeers();
    server.setRequestHandler('fast', () => ({}));
    const controller = new AbortController();
    await client.request('fast', {}, { signal: controller.signal });
    controller.abort();
    await settle();
    expect(fromClient(wire).map((f) => f.method)).toEqual(['fast']);
  });
});

describe('local failures and peer errors are told apart', () => {
  it('an error the peer answers with is a ProtocolError, never a LocalError, even with a local code', async () => {
    const { client, server } = await connectedPeers();
    server.setRequestHandler('fail', () => {
      throw new ProtocolError(ErrorCode.RequestTimeout, 'the server says it timed out');
    });
    const error = await rejection(client.request('fail'));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).not.toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: -32001, name: 'ProtocolError' });
  });

  it('a handler that throws a LocalError (its own call to the peer timed out) answers with its code', async () => {
    const { client, server } = await connectedPeers();
    server.setRequestHandler('nested', () => {
      throw new LocalError(ErrorCode.RequestTimeout, 'Request timed out');
    });
    await expect(client.request('nested')).rejects.toMatchObject({ code: -32001, message: 'Request timed out' });
  });
});

describe('timeouts', () => {
  it('rejects with -32001 after the timeout and cancels on the wire', async () => {
    const { client, server, wire } = await connectedPeers();
    let handlerSignal: AbortSignal | undefined;
    server.setRequestHandler('hang', (_params, ctx) => {
      handlerSignal = ctx.signal;
      return new Promise(() => {});
    });
    const error = await rejection(client.request('hang', {}, { timeout: 20 }));
    expect(error).toBeInstanceOf(ProtocolError);
    // A failure on this side: its own type, apart from anything the peer answers with.
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: -32001, message: 'Request timed out', data: { timeout: 20 } });
    await settle();
    expect(fromClient(wire)[1]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(handlerSignal!.aborted).toBe(true);
  });

  it('uses the peer default timeout', async () => {
    const { client, server } = await connectedPeers({ client: { timeout: 15 } });
    server.setRequestHandler('hang', () => new Promise(() => {}));
    await expect(client.request('hang')).rejects.toMatchObject({ code: -32001 });
  });

  it('restarts the timeout on progress when asked', async () => {
    const { client, server } = await connectedPeers();
    server.setRequestHandler('steady', async (_params, ctx) => {
      for (let i = 0; i < 8; i++) {
        await sleep(40);
        await ctx.progress(i);
      }
      return { finished: true };
    });
    // 8 × 40 ms = 320 ms of work with a 200 ms timeout: only progress keeps it alive (wide margins for CI).
    await expect(
      client.request('steady', {}, { timeout: 200, resetTimeoutOnProgress: true, onProgress: () => {} }),
    ).resolves.toEqual({ finished: true });
    await expect(client.request('steady', {}, { timeout: 200, onProgress: () => {} })).rejects.toMatchObject({
      code: -32001,
    });
  });

  it('enforces maxTotalTimeout despite progress', async () => {
    const { client, server } = await connectedPeers();
    server.setRequestHandler('steady', async (_params, ctx) => {
      for (let i = 0; i < 60; i++) {
        await sleep(10);
        await ctx.progress(i);
      }
      return {};
    });
    const error = await rejection(
      client.request(
        'steady',
        {},
        { timeout: 300, resetTimeoutOnProgress: true, maxTotalTimeout: 150, onProgress: () => {} },
      ),
    );
    expect(error).toMatchObject({
      code: -32001,
      message: 'Request exceeded maxTotalTimeout',
      data: { maxTotalTimeout: 150 },
    });
  });

  it('enforces maxTotalTimeout when it is shorter than the timeout, without progress', async () => {
    const { client, server } = await connectedPeers();
    server.setRequestHandler('hang', () => new Promise(() => {}));
    const error = await rejection(client.request('hang', {}, { timeout: 10_000, maxTotalTimeout: 20 }));
    expect(error).toMatchObject({ code: -32001, data: { maxTotalTimeout: 20 } });
  });
});

describe('closing', () => {
  it('rejects pending calls on both sides with -32000 and aborts running handlers', async () => {
    const { client, server } = await connectedPeers();
    let handlerSignal: AbortSignal | undefined;
    server.setRequestHandler('hang', (_params, ctx) => {
      handlerSignal = ctx.signal;
      return new Promise(() => {});
    });
    client.setRequestHandler('hang', () => new Promise(() => {}));
    const calls = [client.request('hang'), client.request('hang'), server.request('hang')];
    await settle();
    let serverClosed = false;
    server.onclose = () => (serverClosed = true);
    await client.close();
    const errors = await Promise.all(calls.map(rejection));
    for (const error of errors) {
      expect(error).toBeInstanceOf(LocalError);
      expect(error).toMatchObject({ code: -32000, message: 'Connection closed', name: 'LocalError' });
    }
    expect(serverClosed).toBe(true);
    expect(handlerSignal!.aborted).toBe(true);
    await expect(client.request('again')).rejects.toMatchObject({ code: -32000 });
  });
});

describe('frame size limit', () => {
  it('fails an oversized outgoing request naming size and limit, sending nothing', async () => {
    const { client, wire } = await connectedPeers({ client: { maxFrameSize: 1000 } });
    const error = await rejection(client.request('big', { blob: 'x'.repeat(2000) }));
    const size = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'big', params: { blob: 'x'.repeat(2000) } }).length;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toContain(`${size} bytes`);
    expect(error.message).toContain('maxFrameSize (1000)');
    expect(error.data).toEqual({ size, limit: 1000 });
    await expect(client.notify('big', { blob: 'x'.repeat(2000) })).rejects.toBeInstanceOf(ProtocolError);
    await settle();
    expect(wire).toEqual([]);
  });

  it('answers an oversized incoming request frame with an error for its id', async () => {
    const [a, b] = createInMemoryPair();
    const client = new RpcPeer(a);
    const server = new RpcPeer(b, { maxFrameSize: 500 });
    server.setRequestHandler('big', () => ({}));
    await Promise.all([client.start(), server.start()]);
    // The in-memory pair delivers objects; a byte-stream transport hands the peer text, as here.
    b.onmessage = (message) => server.receive(JSON.stringify(message));
    await expect(client.request('big', { blob: 'x'.repeat(600) })).rejects.toMatchObject({ code: -32600 });
    await expect(client.request('big', { blob: 'x' })).resolves.toEqual({});
  });
});

describe('createInMemoryPair', () => {
  it('delivers asynchronously, in order, as isolated copies', async () => {
    const [a, b] = createInMemoryPair();
    const received: any[] = [];
    b.onmessage = (message) => received.push(message);
    await Promise.all([a.start(), b.start()]);
    const message = { jsonrpc: '2.0' as const, method: 'm', params: { list: [1], skip: undefined } };
    const sending = a.send(message);
    expect(received).toEqual([]); // Not synchronous.
    message.params.list.push(2); // Mutation after send does not travel.
    await a.send({ jsonrpc: '2.0', method: 'second' });
    await sending;
    await settle();
    expect(received).toEqual([
      { jsonrpc: '2.0', method: 'm', params: { list: [1] } },
      { jsonrpc: '2.0', method: 'second' },
    ]);
    expect(Object.hasOwn(received[0].params, 'skip')).toBe(false);
  });

  it('passes objects through with clone: false', async () => {
    const [a, b] = createInMemoryPair({ clone: false });
    const received: unknown[] = [];
    b.onmessage = (message) => received.push(message);
    await b.start();
    const message = { jsonrpc: '2.0' as const, method: 'm' };
    await a.send(message);
    await settle();
    expect(received[0]).toBe(message);
  });

  it('holds messages until start()', async () => {
    const [a, b] = createInMemoryPair();
    const received: unknown[] = [];
    b.onmessage = (message) => received.push(message);
    await a.send({ jsonrpc: '2.0', method: 'early' });
    await settle();
    expect(received).toEqual([]);
    await b.start();
    expect(received).toEqual([{ jsonrpc: '2.0', method: 'early' }]);
  });

  it('closes both sides, delivering what was already sent first', async () => {
    const [a, b] = createInMemoryPair();
    const events: string[] = [];
    a.onclose = () => events.push('a closed');
    b.onclose = () => events.push('b closed');
    b.onmessage = () => events.push('b got message');
    await Promise.all([a.start(), b.start()]);
    const sending = a.send({ jsonrpc: '2.0', method: 'last' }); // Still in flight when close() runs.
    await a.close();
    await sending;
    await settle();
    expect(events).toEqual(['a closed', 'b got message', 'b closed']);
    await expect(a.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow('Transport closed');
    await expect(b.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow('Transport closed');
  });
});

describe('interoperability with the official SDK', () => {
  it('serves an SDK Client over the SDK in-memory transport (initialize, progress, cancellation)', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const { LATEST_PROTOCOL_VERSION } = await import('@modelcontextprotocol/sdk/types.js');
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const server = new RpcPeer(serverTransport);
    let cancelledSignal: AbortSignal | undefined;
    server.setRequestHandler('initialize', () => ({
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: { tools: {} },
      serverInfo: { name: 'rpc-peer', version: '0.0.0' },
    }));
    server.setNotificationHandler('notifications/initialized', () => {});
    server.setRequestHandler('tools/call', async (params, ctx) => {
      if (params!.name === 'hang') {
        cancelledSignal = ctx.signal;
        return new Promise(() => {});
      }
      await ctx.progress(1, 2);
      return { content: [{ type: 'text', text: `called ${params!.name}` }] };
    });
    await server.start();
    const client = new Client({ name: 'sdk-client', version: '0.0.0' });
    await client.connect(clientTransport);
    const progress: unknown[] = [];
    const result = await client.callTool({ name: 'echo' }, undefined, { onprogress: (p) => progress.push(p) });
    expect(result).toEqual({ content: [{ type: 'text', text: 'called echo' }] });
    expect(progress).toEqual([{ progress: 1, total: 2 }]);
    const controller = new AbortController();
    const hanging = client.callTool({ name: 'hang' }, undefined, { signal: controller.signal });
    await settle();
    controller.abort('stop');
    await expect(hanging).rejects.toBeDefined();
    await settle();
    expect(cancelledSignal?.aborted).toBe(true);
    await client.close();
    expect(server.isClosed).toBe(true);
  });
});

/** A transport whose peer is a script: `onSend` may deliver frames back synchronously. */
class ScriptedTransport implements Transport {
  onmessage?(message: JsonRpcFrame): void;
  onclose?: () => void;
  constructor(private readonly onSend: (message: JsonRpcFrame, transport: ScriptedTransport) => void) {}
  async start(): Promise<void> {}
  send(message: JsonRpcFrame): Promise<void> {
    if ('method' in message && 'id' in message) this.onSend(message, this);
    return Promise.resolve();
  }
  deliver(message: unknown): void {
    this.onmessage?.(message as JsonRpcFrame);
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
}
