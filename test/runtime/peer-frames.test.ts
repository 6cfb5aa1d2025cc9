/**
 * The dispatcher's answer to each kind of invalid (and valid) frame, asserted exactly: JSON-RPC 2.0 fixes
 * codes and ids, and MCP clients depend on a notification never being answered.
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../templates/core/jsonrpc.js';
import { RpcPeer, type PeerDiagnostic } from '../../templates/core/peer.js';

import { RecordingTransport, settle } from './recording-transport.js';

function makePeer(batches: boolean) {
  const transport = new RecordingTransport();
  const diagnostics: PeerDiagnostic[] = [];
  const peer = new RpcPeer(transport, {
    batches,
    onDiagnostic: (d) => diagnostics.push(d),
    validateParams: (method, params) =>
      method === 'validated' && typeof params?.name !== 'string'
        ? { pointer: '/name', message: 'must be string' }
        : null,
  });
  peer.setRequestHandler('echo', (params) => ({ echoed: params ?? null }));
  peer.setRequestHandler('validated', (params) => ({ hello: params?.name }));
  peer.setRequestHandler('async', async () => ({ later: true }));
  peer.setRequestHandler('throws', () => {
    throw new Error('secret detail');
  });
  peer.setRequestHandler('protocolError', () => {
    throw new ProtocolError(-32002, 'Resource not found', { uri: 'file:///x' });
  });
  peer.setNotificationHandler('note', () => {});
  return { peer, transport, diagnostics };
}

const err = (id: string | number | null, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});
const ok = (id: string | number, result: unknown) => ({ jsonrpc: '2.0', id, result });
const invalid = (id: string | number | null, reason: string) => err(id, -32600, `Invalid Request: ${reason}`);
const req = (id: unknown, method: unknown, params?: unknown) =>
  params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };

/** [name, frame, exact frames sent in answer] — identical in both batch modes. */
const singleFrameCases: [string, unknown, unknown[]][] = [
  ['valid request', req(1, 'echo', { a: 1 }), [ok(1, { echoed: { a: 1 } })]],
  ['valid request as text', JSON.stringify(req('s-1', 'echo')), [ok('s-1', { echoed: null })]],
  ['async handler', req(2, 'async'), [ok(2, { later: true })]],
  ['negative id', req(-7, 'echo'), [ok(-7, { echoed: null })]],
  ['max safe integer id', req(Number.MAX_SAFE_INTEGER, 'echo'), [ok(Number.MAX_SAFE_INTEGER, { echoed: null })]],
  ['empty string id', req('', 'echo'), [ok('', { echoed: null })]],
  ['unparseable text', '{"jsonrpc":"2.0","method":"echo","id":1', [err(null, -32700, 'Parse error')]],
  ['garbage text', 'not json at all', [err(null, -32700, 'Parse error')]],
  ['empty text', '', [err(null, -32700, 'Parse error')]],
  ['jsonrpc missing', { id: 1, method: 'echo' }, [invalid(1, 'jsonrpc must be "2.0"')]],
  ['jsonrpc 1.0', { jsonrpc: '1.0', id: 1, method: 'echo' }, [invalid(1, 'jsonrpc must be "2.0"')]],
  ['jsonrpc as number', { jsonrpc: 2, id: 1, method: 'echo' }, [invalid(1, 'jsonrpc must be "2.0"')]],
  ['float id', req(1.5, 'echo'), [invalid(null, 'id must be a string or an integer')]],
  ['unsafe integer id', req(2 ** 53, 'echo'), [invalid(null, 'id must be a string or an integer')]],
  ['boolean id', req(true, 'echo'), [invalid(null, 'id must be a string or an integer')]],
  ['object id', req({ n: 1 }, 'echo'), [invalid(null, 'id must be a string or an integer')]],
  ['array id', req([1], 'echo'), [invalid(null, 'id must be a string or an integer')]],
  ['null id', req(null, 'echo'), [invalid(null, 'id must be a string or an integer')]],
  ['numeric method', req(3, 42), [invalid(3, 'method must be a string')]],
  ['null method', req(3, null), [invalid(3, 'method must be a string')]],
  ['array params', req(4, 'echo', [1, 2]), [invalid(4, 'params must be an object')]],
  ['string params', req(4, 'echo', 'bar'), [invalid(4, 'params must be an object')]],
  ['null params', req(4, 'echo', null), [invalid(4, 'params must be an object')]],
  ['unknown method', req(5, 'tools/nope'), [err(5, -32601, 'Method not found: tools/nope')]],
  ['__proto__ method', req(5, '__proto__'), [err(5, -32601, 'Method not found: __proto__')]],
  ['constructor method', req(5, 'constructor'), [err(5, -32601, 'Method not found: constructor')]],
  ['toString method', req(5, 'toString'), [err(5, -32601, 'Method not found: toString')]],
  ['hasOwnProperty method', req(5, 'hasOwnProperty'), [err(5, -32601, 'Method not found: hasOwnProperty')]],
  [
    'invalid params (hook)',
    req(6, 'validated', { name: 3 }),
    [err(6, -32602, 'Invalid params: /name must be string', { pointer: '/name', message: 'must be string' })],
  ],
  ['valid params (hook)', req(6, 'validated', { name: 'x' }), [ok(6, { hello: 'x' })]],
  ['handler throws', req(7, 'throws'), [err(7, -32603, 'Internal error')]],
  [
    'handler throws ProtocolError',
    req(8, 'protocolError'),
    [err(8, -32002, 'Resource not found', { uri: 'file:///x' })],
  ],
  ['number', 42, [invalid(null, 'not an object')]],
  ['null', null, [invalid(null, 'not an object')]],
  ['boolean text', 'true', [invalid(null, 'not an object')]],
  ['string value text', '"hello"', [invalid(null, 'not an object')]],
  ['object without method/result/error', { foo: 'boo' }, [invalid(null, 'not a request, notification or response')]],
  ['id only', { jsonrpc: '2.0', id: 9 }, [invalid(9, 'not a request, notification or response')]],
  ['empty batch', [], [invalid(null, 'empty batch')]],
  ['empty batch text', '[]', [invalid(null, 'empty batch')]],
  // Well-formed notifications (no id member) are never answered; a frame without id that is not one is an
  // invalid Request, answered with id null (JSON-RPC 2.0 §7's `{"jsonrpc":"2.0","method":1,"params":"bar"}`).
  ['notification', { jsonrpc: '2.0', method: 'note' }, []],
  ['notification for unknown method', { jsonrpc: '2.0', method: 'nope' }, []],
  ['notification without jsonrpc', { method: 'note' }, [invalid(null, 'jsonrpc must be "2.0"')]],
  [
    'notification with array params',
    { jsonrpc: '2.0', method: 'note', params: [1] },
    [invalid(null, 'params must be an object')],
  ],
  [
    'notification with numeric method',
    { jsonrpc: '2.0', method: 1, params: 'bar' },
    [invalid(null, 'method must be a string')],
  ],
  ['notification for a request method', { jsonrpc: '2.0', method: 'echo' }, []],
  ['notification __proto__', { jsonrpc: '2.0', method: '__proto__' }, []],
  ['cancel for unknown request', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, []],
  [
    'progress for unknown token',
    { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
    [],
  ],
  // Responses go to the outgoing side, never answered.
  ['response for unknown id', { jsonrpc: '2.0', id: 99, result: {} }, []],
  ['error response with null id', err(null, -32700, 'Parse error'), []],
];

describe.each([false, true])('receive() with batches: %s', (batches) => {
  it.each(singleFrameCases)('%s', async (_name, frame, expected) => {
    const { peer, transport } = makePeer(batches);
    peer.receive(frame);
    await settle();
    expect(transport.sent).toEqual(expected);
  });

  it('answers a second request with an id still in flight with -32600, leaving the first alone', async () => {
    const { peer, transport } = makePeer(batches);
    let release!: () => void;
    peer.setRequestHandler(
      'slow',
      () => new Promise<{ done: boolean }>((resolve) => (release = () => resolve({ done: true }))),
    );
    peer.receive(req(1, 'slow'));
    peer.receive(req(1, 'echo'));
    await settle();
    expect(transport.sent).toEqual([invalid(1, 'id is in use by a request in progress')]);
    release();
    await settle();
    expect(transport.sent).toEqual([invalid(1, 'id is in use by a request in progress'), ok(1, { done: true })]);
  });

  it('treats string and number ids as different ids', async () => {
    const { peer, transport } = makePeer(batches);
    peer.setRequestHandler('slow', () => new Promise(() => {}));
    peer.receive(req(1, 'slow'));
    peer.receive(req('1', 'echo'));
    await settle();
    expect(transport.sent).toEqual([ok('1', { echoed: null })]);
  });

  it('does not leak a thrown error to the wire', async () => {
    const { peer, transport } = makePeer(batches);
    const seen: unknown[] = [];
    peer.onHandlerError = (error) => seen.push(error);
    peer.receive(req(1, 'throws'));
    await settle();
    expect(JSON.stringify(transport.sent)).not.toContain('secret');
    expect(seen).toHaveLength(1);
    expect((seen[0] as Error).message).toBe('secret detail');
  });
});

describe('batches disabled (MCP other than 2025-03-26)', () => {
  it('answers a batch with a single -32600 and runs nothing', async () => {
    const { peer, transport } = makePeer(false);
    let ran = false;
    peer.setRequestHandler('mark', () => ((ran = true), {}));
    peer.receive([req(1, 'mark'), req(2, 'echo')]);
    await settle();
    expect(transport.sent).toEqual([invalid(null, 'batches are not supported')]);
    expect(ran).toBe(false);
  });

  it('answers a batch of notifications with a single -32600 too', async () => {
    const { peer, transport } = makePeer(false);
    peer.receive(JSON.stringify([{ jsonrpc: '2.0', method: 'note' }]));
    await settle();
    expect(transport.sent).toEqual([invalid(null, 'batches are not supported')]);
  });
});

describe('batches enabled (MCP 2025-03-26)', () => {
  it('answers each request of a batch in one array, skipping notifications', async () => {
    const { peer, transport } = makePeer(true);
    peer.receive([
      req(1, 'echo', { x: 1 }),
      { jsonrpc: '2.0', method: 'note' },
      req(2, 'nope'),
      req(3, 'async'),
      req(4.5, 'echo'),
    ]);
    await settle();
    expect(transport.sent).toHaveLength(1);
    const answers = transport.sent[0] as unknown[];
    expect(answers).toHaveLength(4);
    expect(answers).toEqual(
      expect.arrayContaining([
        ok(1, { echoed: { x: 1 } }),
        err(2, -32601, 'Method not found: nope'),
        ok(3, { later: true }),
        invalid(null, 'id must be a string or an integer'),
      ]),
    );
  });

  it('sends nothing for a batch of notifications', async () => {
    const { peer, transport } = makePeer(true);
    peer.receive('[{"jsonrpc":"2.0","method":"note"},{"jsonrpc":"2.0","method":"unknown"}]');
    await settle();
    expect(transport.sent).toEqual([]);
  });

  it('answers each non-object element with its own -32600 (JSON-RPC example [1,2,3])', async () => {
    const { peer, transport } = makePeer(true);
    peer.receive('[1,2,3]');
    await settle();
    expect(transport.sent).toEqual([
      [invalid(null, 'not an object'), invalid(null, 'not an object'), invalid(null, 'not an object')],
    ]);
  });

  it('answers a nested empty array as an invalid element', async () => {
    const { peer, transport } = makePeer(true);
    peer.receive([[]]);
    await settle();
    expect(transport.sent).toEqual([[invalid(null, 'not an object')]]);
  });

  it('omits a cancelled request from the batch answer', async () => {
    const { peer, transport } = makePeer(true);
    peer.setRequestHandler('slow', () => new Promise(() => {}));
    peer.receive([req(1, 'slow'), req(2, 'echo')]);
    await settle();
    expect(transport.sent).toEqual([]);
    peer.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await settle();
    expect(transport.sent).toEqual([[ok(2, { echoed: null })]]);
  });
});

describe('oversized incoming frames', () => {
  function smallPeer() {
    const transport = new RecordingTransport();
    const diagnostics: PeerDiagnostic[] = [];
    const peer = new RpcPeer(transport, { maxFrameSize: 200, onDiagnostic: (d) => diagnostics.push(d) });
    peer.setRequestHandler('echo', (params) => ({ echoed: params ?? null }));
    return { peer, transport, diagnostics };
  }

  it('answers a request with a readable id with -32600 naming size and limit', async () => {
    const { peer, transport } = smallPeer();
    const text = JSON.stringify(req(11, 'echo', { blob: 'x'.repeat(300) }));
    peer.receive(text);
    await settle();
    const size = Buffer.byteLength(text);
    expect(transport.sent).toEqual([
      err(11, -32600, `Invalid Request: frame of ${size} bytes exceeds maxFrameSize (200 bytes)`, {
        size,
        limit: 200,
      }),
    ]);
  });

  it('counts UTF-8 bytes, not characters', async () => {
    const { peer, transport } = smallPeer();
    // 60 three-byte characters: 60 UTF-16 units but 180 bytes of payload.
    const text = JSON.stringify(req(12, 'echo', { s: '€'.repeat(60) }));
    expect(text.length).toBeLessThan(200);
    peer.receive(text);
    await settle();
    expect((transport.sent[0] as { error: { code: number } }).error.code).toBe(-32600);
  });

  it('only reports an oversized notification or unreadable frame', async () => {
    const { peer, transport, diagnostics } = smallPeer();
    peer.receive(JSON.stringify({ jsonrpc: '2.0', method: 'note', params: { blob: 'x'.repeat(300) } }));
    peer.receive('x'.repeat(300));
    await settle();
    expect(transport.sent).toEqual([]);
    expect(diagnostics.map((d) => d.kind)).toEqual(['oversized-frame', 'oversized-frame']);
  });

  it('replaces an oversized result with -32603 naming size and limit', async () => {
    const { peer, transport, diagnostics } = smallPeer();
    peer.setRequestHandler('big', () => ({ blob: 'y'.repeat(500) }));
    peer.receive(req(13, 'big'));
    await settle();
    const size = JSON.stringify(ok(13, { blob: 'y'.repeat(500) })).length;
    expect(transport.sent).toEqual([err(13, -32603, 'Response exceeds maxFrameSize', { size, limit: 200 })]);
    expect(diagnostics.map((d) => d.kind)).toEqual(['oversized-frame']);
  });
});
