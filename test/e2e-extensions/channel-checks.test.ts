/**
 * Issue 35, item 2: the generated MCP Apps channel ends (2025-11-25, `--ext io.modelcontextprotocol/ui`)
 * check what they receive as every MCP server does. Over a MessageChannel, a raw port posts structured
 * clones to our UiHost (and one to our UiView): params that fail the schema get -32602 with the pointer
 * before any handler runs; Map, Date, BigInt and `undefined` in an array get -32602 at their pointer;
 * a frame over `maxFrameSize` gets -32600; `ping` is answered before and after the handshake; a response
 * carrying a Date fails the call at once instead of at its timeout. In process, about a second.
 */
import { MessageChannel } from 'node:worker_threads';
import { PostMessageTransport } from '@mcp-typegen/runtime';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generated } from '../helpers/generate.js';
import { importGenerated } from './helpers.js';
import { eventually } from '../helpers/eventually.js';

type Json = Record<string, any>;
let gen: Json;
const open: { close(): unknown }[] = [];

beforeAll(async () => {
  const output = await generated('2025-11-25', { extensions: ['io.modelcontextprotocol/ui'] });
  gen = await importGenerated('channel-checks', output);
}, 120_000);

afterEach(async () => {
  for (const end of open.splice(0)) await end.close();
});

/** A raw port on one side (posts structured clones, collects what comes back) and `make` on the other. */
function rawPeer<T extends { close(): unknown }>(make: (transport: unknown) => T) {
  const { port1, port2 } = new MessageChannel();
  const end = make(new PostMessageTransport(port2));
  const replies: Json[] = [];
  const waiting = new Map<unknown, (reply: Json) => void>();
  port1.on('message', (reply: Json) => {
    replies.push(reply);
    waiting.get(reply.id)?.(reply);
  });
  open.push(end, { close: () => port1.close() });
  const ask = (message: Json) =>
    new Promise<Json>((resolve) => {
      waiting.set(message.id, resolve);
      port1.postMessage({ jsonrpc: '2.0', ...message });
    });
  return { end, port: port1, replies, ask };
}

async function openedHost(options: Json = {}) {
  const seen: string[] = [];
  const peer = rawPeer((t) => new gen.UiHost(t, options));
  peer.end.setRequestHandler('ui/initialize', () => ({ protocolVersion: '2026-01-26', hostCapabilities: {} }));
  peer.end.setRequestHandler('ui/open-link', (p: Json) => (seen.push(String(p.url)), {}));
  await peer.end.start();
  const init = await peer.ask({
    id: 0,
    method: 'ui/initialize',
    params: { appInfo: { name: 'v', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' },
  });
  expect(init.result).toMatchObject({ protocolVersion: '2026-01-26' });
  return { ...peer, seen };
}

describe('generated channel ends check what they receive', () => {
  it('params that fail the schema: -32602 with the pointer, and the handler never runs', async () => {
    const host = await openedHost();
    const reply = await host.ask({ id: 1, method: 'ui/open-link', params: { url: 12345 } });
    expect(reply.error).toMatchObject({ code: -32602, data: { pointer: '/url' } });
    expect(reply.error.message).toMatch(/^Invalid params: \/url /);
    const ok = await host.ask({ id: 2, method: 'ui/open-link', params: { url: 'https://ok.example/' } });
    expect(ok.result).toEqual({});
    expect(host.seen).toEqual(['https://ok.example/']);
  });

  it.each([
    ['a Map', { url: new Map([['a', 1]]) }, '/url', 'a Map'],
    ['a Date', { url: 'https://ok.example/', at: new Date(0) }, '/at', 'a Date'],
    ['a BigInt', { url: 'https://ok.example/', n: 10n }, '/n', 'a BigInt'],
    ['undefined in an array', { url: 'https://ok.example/', list: [1, undefined] }, '/list/1', 'undefined'],
  ])('a structured clone JSON cannot carry (%s): -32602 at its pointer', async (_name, params, pointer, what) => {
    const host = await openedHost();
    const reply = await host.ask({ id: 7, method: 'ui/open-link', params });
    expect(reply.error).toEqual({
      code: -32602,
      message: `Invalid params: ${pointer} is ${what}, which JSON cannot carry`,
      data: { pointer, message: `is ${what}, which JSON cannot carry` },
    });
    expect(host.seen).toEqual([]);
  });

  it('a message over maxFrameSize is refused with -32600, the default 4 MiB and a smaller one', async () => {
    const host = await openedHost();
    const big = await host.ask({ id: 3, method: 'ui/open-link', params: { url: 'x'.repeat(5 * 1024 * 1024) } });
    expect(big.error.code).toBe(-32600);
    expect(big.error.message).toMatch(/exceeds maxFrameSize \(4194304 bytes\)$/);
    const small = await openedHost({ maxFrameSize: 1000 });
    const refused = await small.ask({ id: 4, method: 'ui/open-link', params: { url: 'x'.repeat(2000) } });
    expect(refused.error.message).toMatch(/exceeds maxFrameSize \(1000 bytes\)$/);
    expect([...host.seen, ...small.seen]).toEqual([]);
  });

  it('the host runs no notification handler before the handshake is answered (issue 46)', async () => {
    const peer = rawPeer((t) => new gen.UiHost(t));
    const sizes: unknown[] = [];
    peer.end.setRequestHandler('ui/initialize', () => ({ protocolVersion: '2026-01-26', hostCapabilities: {} }));
    peer.end.setNotificationHandler('ui/notifications/size-changed', (p: Json) => void sizes.push(p.width));
    await peer.end.start();
    peer.port.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 1, height: 1 } });
    const init = await peer.ask({
      id: 0,
      method: 'ui/initialize',
      params: { appInfo: { name: 'v', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' },
    });
    expect(init.result).toBeDefined();
    peer.port.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 2, height: 2 } });
    await eventually(() => sizes.length > 0, 3000);
    await new Promise((r) => setTimeout(r, 20));
    expect(sizes).toEqual([2]);
  });

  it('ping is answered by the host before and after the handshake, and by the view', async () => {
    const host = rawPeer((t) => new gen.UiHost(t));
    await host.end.start();
    expect(await host.ask({ id: 1, method: 'ping' })).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const view = rawPeer((t) => new gen.UiView(t));
    await view.end.start();
    expect(await view.ask({ id: 'p', method: 'ping' })).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
  });

  it('the view checks what the host sends too: a bad notification is dropped and reported', async () => {
    const diagnostics: string[] = [];
    const got: unknown[] = [];
    const view = rawPeer((t) => new gen.UiView(t, { onDiagnostic: (d: Json) => diagnostics.push(d.message) }));
    view.end.setNotificationHandler('ui/notifications/tool-input', (p: Json) => got.push(p.arguments));
    await view.end.start();
    view.port.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: 'no' } });
    view.port.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: { a: 1 } } });
    await expect.poll(() => got).toEqual([{ a: 1 }]);
    expect(diagnostics).toEqual([expect.stringMatching(/^Invalid params: \/arguments /)]);
  });

  it('a response that carries a Date fails its call at once, naming where', async () => {
    const view = rawPeer((t) => new gen.UiView(t));
    view.port.removeAllListeners('message');
    view.port.on('message', (request: Json) => {
      view.port.postMessage({ jsonrpc: '2.0', id: request.id, result: { protocolVersion: 'x', when: new Date(0) } });
    });
    const handshake = view.end.connect({
      appInfo: { name: 'v', version: '1' },
      appCapabilities: {},
      protocolVersion: 'x',
    });
    await expect(handshake).rejects.toMatchObject({
      code: -32603,
      message: 'Malformed response: /result/when is a Date, which JSON cannot carry',
    });
  });
});
