/**
 * The generated 2025-11-25 server's lifecycle, driven by a raw RpcPeer over the in-memory pair: the
 * initialize gate, version negotiation, capabilities from handlers, error mapping, cancellation,
 * progress, handler-key checks and development-time result validation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { built, importBuilt } from '../client/helpers/build.js';

type Json = Record<string, any>;
let gen: any;

beforeAll(async () => {
  gen = await importBuilt(await built('2025-11-25'), 'index.js');
});

const INFO = { name: 'lifecycle-server', version: '1.0.0' };
const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } };

async function connect(handlers: Json, options: Json = {}, initialize = true) {
  const [a, b] = gen.createInMemoryPair();
  const handlerErrors: unknown[] = [];
  const server = gen.createServer(handlers, {
    serverInfo: INFO,
    onHandlerError: (e: unknown) => handlerErrors.push(e),
    ...options,
  });
  await server.connect(b);
  const peer = new gen.RpcPeer(a, {});
  await peer.start();
  let init: Json | undefined;
  if (initialize) {
    init = await peer.request('initialize', INIT);
    await peer.notify('notifications/initialized');
  }
  return { server, peer, init, handlerErrors };
}

const echoTool = { 'tools/call': (p: Json) => ({ content: [{ type: 'text', text: String(p.name) }] }) };

describe('generated 2025-11-25 server lifecycle', () => {
  it('refuses requests before initialize (except ping) with a clear error', async () => {
    const { peer } = await connect(echoTool, {}, false);
    await expect(peer.request('tools/call', { name: 'x' })).rejects.toMatchObject({
      code: -32600,
      message: 'Server not initialized: send "initialize" before "tools/call"',
    });
    await expect(peer.request('ping')).resolves.toEqual({});
    await peer.request('initialize', INIT);
    await expect(peer.request('tools/call', { name: 'x' })).resolves.toEqual({
      content: [{ type: 'text', text: 'x' }],
    });
  });

  it('negotiates the version: its own when the client asks for one it does not speak', async () => {
    const { peer } = await connect(echoTool, {}, false);
    const result = await peer.request('initialize', { ...INIT, protocolVersion: '1999-01-01' });
    expect(result).toEqual({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: INFO });
    const multi = await connect(echoTool, { supportedProtocolVersions: ['2025-11-25', '2025-06-18'] }, false);
    expect((await multi.peer.request('initialize', { ...INIT, protocolVersion: '2025-06-18' })).protocolVersion).toBe(
      '2025-06-18',
    );
  });

  it('derives capabilities from the handlers given (plus explicit ones)', async () => {
    const noop = () => ({});
    const { init } = await connect(
      {
        'tools/list': () => ({ tools: [] }),
        'resources/list': () => ({ resources: [] }),
        'resources/subscribe': noop,
        'prompts/list': () => ({ prompts: [] }),
        'logging/setLevel': noop,
        'completion/complete': () => ({ completion: { values: [] } }),
      },
      { capabilities: { experimental: { x: {} } }, instructions: 'hello' },
    );
    expect(init).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: {
        tools: {},
        resources: { subscribe: true },
        prompts: {},
        logging: {},
        completions: {},
        experimental: { x: {} },
      },
      serverInfo: INFO,
      instructions: 'hello',
    });
    expect((await connect({ 'prompts/get': () => ({ messages: [] }) })).init!.capabilities).toEqual({ prompts: {} });
  });

  it('a thrown ProtocolError keeps code, message and data; a plain Error is -32603 "Internal error" without leaking', async () => {
    const { peer, handlerErrors } = await connect({
      'prompts/get': (p: Json) => {
        if (p.name === 'protocol') throw new gen.ProtocolError(-32002, 'Resource not found', { uri: 'file:///x' });
        throw new Error('secret database password in stack');
      },
    });
    await expect(peer.request('prompts/get', { name: 'protocol' })).rejects.toMatchObject({
      code: -32002,
      message: 'Resource not found',
      data: { uri: 'file:///x' },
    });
    const error = await peer.request('prompts/get', { name: 'plain' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32603, message: 'Internal error' });
    expect(error.data).toBeUndefined();
    expect(JSON.stringify(error)).not.toContain('secret');
    expect(handlerErrors).toHaveLength(1);
    expect(String(handlerErrors[0])).toContain('secret database password');
  });

  it('a tools/call handler that throws answers isError with the message (the model sees it); a ProtocolError stays an error', async () => {
    const { peer, handlerErrors } = await connect({
      'tools/call': (p: Json) => {
        if (p.name === 'protocol') throw new gen.ProtocolError(-32602, 'Unknown tool', { name: p.name });
        throw new Error('city must not be empty');
      },
    });
    await expect(peer.request('tools/call', { name: 'plain' })).resolves.toEqual({
      content: [{ type: 'text', text: 'city must not be empty' }],
      isError: true,
    });
    await expect(peer.request('tools/call', { name: 'protocol' })).rejects.toMatchObject({ code: -32602 });
    expect(handlerErrors).toHaveLength(1);
  });

  it('logging/setLevel filters what handlers send with ctx.notify("notifications/message")', async () => {
    const { peer } = await connect({
      'logging/setLevel': () => ({}),
      'tools/call': async (_p: Json, ctx: Json) => {
        await ctx.notify('notifications/message', { level: 'debug', data: 'fine detail' });
        await ctx.notify('notifications/message', { level: 'error', data: 'it broke' });
        return { content: [] };
      },
    });
    const logs: string[] = [];
    peer.setNotificationHandler('notifications/message', (params: Json) => void logs.push(params.data));
    await peer.request('tools/call', { name: 'x' });
    await peer.request('logging/setLevel', { level: 'warning' });
    await peer.request('tools/call', { name: 'x' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(logs).toEqual(['fine detail', 'it broke', 'it broke']);
  });

  it('ctx.signal aborts on notifications/cancelled, and no response is sent', async () => {
    let aborted: ((reason: unknown) => void) | undefined;
    const abortedReason = new Promise((resolve) => (aborted = resolve));
    const { peer } = await connect({
      'tools/call': (_p: Json, ctx: Json) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            aborted!(ctx.signal.reason);
            reject(ctx.signal.reason);
          });
        }),
    });
    const controller = new AbortController();
    const call = peer.request('tools/call', { name: 'slow' }, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 20));
    controller.abort('changed my mind');
    await expect(call).rejects.toBe('changed my mind');
    expect(await abortedReason).toMatchObject({ name: 'AbortError', message: 'changed my mind' });
    await expect(peer.request('ping')).resolves.toEqual({});
  });

  it('ctx.progress sends progress only when the request carried a progressToken', async () => {
    const { peer } = await connect({
      'tools/call': async (_p: Json, ctx: Json) => {
        await ctx.progress(1, 2, 'half');
        await ctx.progress(2, 2);
        return { content: [] };
      },
    });
    const seen: unknown[] = [];
    await peer.request('tools/call', { name: 'a' }, { onProgress: (p: unknown) => seen.push(p) });
    expect(seen).toEqual([
      { progress: 1, total: 2, message: 'half' },
      { progress: 2, total: 2 },
    ]);

    const notifications: unknown[] = [];
    peer.fallbackNotificationHandler = (method: string, params: unknown) => notifications.push({ method, params });
    await peer.request('tools/call', { name: 'b' });
    await new Promise((r) => setTimeout(r, 10));
    expect(notifications).toEqual([]);
  });

  it('createServer rejects a handler key that is not a method the server receives', () => {
    expect(() => gen.createServer({ 'sampling/createMessage': () => ({}) }, { serverInfo: INFO })).toThrow(
      'createServer: "sampling/createMessage" is not a method this server receives',
    );
    expect(() => gen.createServer({ 'tools/cal': () => ({}) }, { serverInfo: INFO })).toThrow(
      /"tools\/cal" is not a method/,
    );
  });

  it('validateResults catches a wrong result in development; off by default', async () => {
    const wrong = { 'tools/call': () => ({ content: 'not an array' }) };
    const dev = await connect(wrong, { validateResults: true });
    await expect(dev.peer.request('tools/call', { name: 'x' })).rejects.toMatchObject({
      code: -32603,
      message: 'Internal error',
    });
    expect(String(dev.handlerErrors[0])).toMatch(
      /tools\/call handler returned an invalid result \(CallToolResult: \/content must be array\)/,
    );
    const prod = await connect(wrong);
    await expect(prod.peer.request('tools/call', { name: 'x' })).resolves.toEqual({ content: 'not an array' });
  });

  it('validateResults: a task-augmented tools/call sent with task is checked as the created task', async () => {
    const task = { taskId: 't', status: 'working', createdAt: 'now', lastUpdatedAt: 'now', ttl: 1000 };
    const handlers = { 'tools/call': (p: { task?: unknown }) => (p.task === undefined ? { content: [] } : { task }) };
    const dev = await connect(handlers, { validateResults: true });
    await expect(dev.peer.request('tools/call', { name: 'x', task: { ttl: 1000 } })).resolves.toEqual({ task });
    await expect(dev.peer.request('tools/call', { name: 'x' })).resolves.toEqual({ content: [] });
    const swapped = await connect({ 'tools/call': () => ({ content: [] }) }, { validateResults: true });
    await expect(swapped.peer.request('tools/call', { name: 'x', task: {} })).rejects.toMatchObject({ code: -32603 });
    expect(String(swapped.handlerErrors[0])).toMatch(/\(CreateTaskResult: \/task must have required property 'task'\)/);
  });

  it('bad params are answered -32602 with the pointer, before the handler runs', async () => {
    let ran = false;
    const { peer } = await connect({ 'tools/call': () => ((ran = true), { content: [] }) });
    await expect(peer.request('tools/call', { name: 5 })).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid params: /name must be string',
      data: { pointer: '/name', keyword: 'type' },
    });
    await expect(peer.request('tools/call', {})).rejects.toMatchObject({
      code: -32602,
      data: { pointer: '/name', keyword: 'required' },
    });
    expect(ran).toBe(false);
    await expect(peer.request('resources/read', { uri: 'x' })).rejects.toMatchObject({ code: -32601 });
  });

  it('params the schema requires but the request omits are invalid params, not a handler crash', async () => {
    let ran = false;
    const { peer, handlerErrors } = await connect({
      'tools/call': () => ((ran = true), { content: [] }),
      'tools/list': () => ({ tools: [] }),
    });
    await expect(peer.request('tools/call')).rejects.toMatchObject({
      code: -32602,
      message: "Invalid params: /name must have required property 'name'",
      data: { pointer: '/name', keyword: 'required' },
    });
    expect(ran).toBe(false);
    expect(handlerErrors).toEqual([]);
    // Optional params may still be left out.
    await expect(peer.request('tools/list')).resolves.toEqual({ tools: [] });
    await expect(peer.request('ping')).resolves.toEqual({});
  });
});
