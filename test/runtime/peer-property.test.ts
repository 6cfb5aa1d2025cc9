/**
 * Property-based dispatcher test: thousands of random, mutated and hostile frames. `receive` must never
 * throw (or leave a rejection behind), every request-shaped frame gets exactly one answer carrying its id
 * (null when the id is unreadable), and notifications and responses get none.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolError, isPlainObject, isValidRequestId } from '../../templates/core/jsonrpc.js';
import { RpcPeer } from '../../templates/core/peer.js';
import { jsonCopy } from '../../templates/core/transport.js';

import { RecordingTransport, settle } from './recording-transport.js';

function makePeer(batches: boolean): { peer: RpcPeer; transport: RecordingTransport } {
  const transport = new RecordingTransport();
  const peer = new RpcPeer(transport, {
    batches,
    maxFrameSize: 64 * 1024,
    validateParams: (method, params) =>
      method === 'validated' && params?.ok !== true ? { pointer: '/ok', message: 'must be true' } : null,
  });
  peer.setRequestHandler('echo', (params) => ({ echoed: params ?? null }));
  peer.setRequestHandler('validated', () => ({}));
  peer.setRequestHandler('async', async (params) => {
    await Promise.resolve();
    return { echoed: params ?? null };
  });
  peer.setRequestHandler('throws', () => {
    throw new Error('boom');
  });
  peer.setRequestHandler('rejects', async () => {
    throw new TypeError('async boom');
  });
  peer.setRequestHandler('protocolError', () => {
    throw new ProtocolError(-32002, 'nope', { why: 'because' });
  });
  peer.setRequestHandler('unserializable', () => {
    const result: { self?: unknown } = {};
    result.self = result;
    return result;
  });
  peer.setRequestHandler('usesContext', async (_params, ctx) => {
    await ctx.progress(1, 2, 'half');
    await ctx.notify('notifications/message', { level: 'info' });
    return { aborted: ctx.signal.aborted };
  });
  peer.setNotificationHandler('notifications/message', () => {});
  peer.setNotificationHandler('throwingNotification', () => {
    throw new Error('notification boom');
  });
  return { peer, transport };
}

// ----------------------------------------------------------------------------------------------
// Arbitraries
// ----------------------------------------------------------------------------------------------

const knownMethods = [
  'echo',
  'async',
  'throws',
  'rejects',
  'protocolError',
  'unserializable',
  'usesContext',
  'validated',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/message',
  'throwingNotification',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'unknown/method',
];
const method = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...knownMethods) },
  { weight: 1, arbitrary: fc.anything() },
);
const validId = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.constantFrom(0, -1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER),
);
const anyId = fc.oneof(
  { weight: 4, arbitrary: validId },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 2 }),
      fc.object({ maxDepth: 1 }),
      fc.constant(2 ** 53),
    ),
  },
);
const params = fc.oneof(
  { weight: 3, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        requestId: validId,
        progressToken: validId,
        progress: fc.double(),
        reason: fc.string(),
        _meta: fc.record({ progressToken: validId }),
        ok: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);
const jsonrpc = fc.oneof(
  { weight: 6, arbitrary: fc.constant('2.0') },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 1 }) },
);

/** Well-formed requests. */
const validRequest = fc.record(
  {
    jsonrpc: fc.constant('2.0'),
    id: validId,
    method: fc.constantFrom(...knownMethods),
    params: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  },
  { requiredKeys: ['jsonrpc', 'id', 'method'] },
);
/** Anything message-like: every member optional and possibly of the wrong type (mutations of the above). */
const messageLike = fc.record(
  { jsonrpc, id: anyId, method, params, result: fc.anything({ maxDepth: 1 }), error: fc.anything({ maxDepth: 1 }) },
  { requiredKeys: [] },
);
const element = fc.oneof(
  { weight: 3, arbitrary: validRequest },
  { weight: 5, arbitrary: messageLike },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);
/** JSON text of a value, possibly truncated or with one character replaced. */
const text = fc
  .tuple(
    fc.oneof(element, fc.array(element, { maxLength: 4 })),
    fc.nat(),
    fc.nat(),
    fc.boolean(),
    fc.string({ minLength: 1, maxLength: 1 }),
  )
  .map(([value, cut, at, mutate, char]) => {
    const json = JSON.stringify(value) ?? 'undefined';
    if (!mutate) return json;
    return cut % 2 === 0
      ? json.slice(0, cut % (json.length + 1))
      : json.slice(0, at % json.length) + char + json.slice((at % json.length) + 1);
  });
const frame = fc.oneof(
  { weight: 4, arbitrary: element },
  { weight: 2, arbitrary: fc.array(element, { maxLength: 5 }) },
  { weight: 3, arbitrary: text },
  { weight: 1, arbitrary: fc.string() },
);

// ----------------------------------------------------------------------------------------------
// Oracle
// ----------------------------------------------------------------------------------------------

const key = (id: unknown) => JSON.stringify(id);

interface Expectation {
  /** Answers expected per id key (null id → 'null'). */
  exact: Map<string, number>;
  /** Ids whose request may go unanswered: a cancel for them rode in the same batch. */
  mayBeCancelled: Set<string>;
}

function expectFor(value: unknown, into: Expectation): void {
  const add = (id: unknown): void => {
    into.exact.set(key(id), (into.exact.get(key(id)) ?? 0) + 1);
  };
  if (!isPlainObject(value)) return add(null);
  if (Object.hasOwn(value, 'method')) {
    if (Object.hasOwn(value, 'id')) add(isValidRequestId(value.id) ? value.id : null);
    // Not a well-formed notification: an invalid Request, answered with id null (JSON-RPC 2.0 §7).
    else if (!wellFormedNotification(value)) add(null);
    else if (value.method === 'notifications/cancelled' && isPlainObject(value.params)) {
      if (isValidRequestId(value.params.requestId)) into.mayBeCancelled.add(key(value.params.requestId));
    }
    return;
  }
  if (Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error')) return;
  add(isValidRequestId(value.id) ? value.id : null);
}

function wellFormedNotification(value: { [key: string]: unknown }): boolean {
  const params = value.params;
  return value.jsonrpc === '2.0' && typeof value.method === 'string' && (params === undefined || isPlainObject(params));
}

/** What a peer must answer to a frame, computed independently of the peer. */
function oracle(input: unknown, batches: boolean): { batch: boolean; expectation: Expectation } {
  const expectation: Expectation = { exact: new Map(), mayBeCancelled: new Set() };
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      expectation.exact.set('null', 1);
      return { batch: false, expectation };
    }
  }
  if (Array.isArray(value)) {
    if (value.length === 0 || !batches) {
      expectation.exact.set('null', 1);
      return { batch: false, expectation };
    }
    for (const item of value) expectFor(item, expectation);
    return { batch: true, expectation };
  }
  expectFor(value, expectation);
  return { batch: false, expectation };
}

function assertWellFormedResponse(response: any): void {
  expect(response.jsonrpc).toBe('2.0');
  expect(response.id === null || isValidRequestId(response.id)).toBe(true);
  expect(Object.hasOwn(response, 'result') !== Object.hasOwn(response, 'error')).toBe(true);
  if (Object.hasOwn(response, 'error')) {
    expect(Number.isInteger(response.error.code)).toBe(true);
    expect(typeof response.error.message).toBe('string');
    // Nothing a handler threw leaks.
    expect(response.error.message).not.toMatch(/boom/);
  }
}

async function checkFrame(input: unknown, batches: boolean): Promise<void> {
  const { peer, transport } = makePeer(batches);
  expect(() => peer.receive(input)).not.toThrow();
  await settle();
  const { batch, expectation } = oracle(input, batches);
  // Only responses go out: progress and notifications/message from 'usesContext' are set aside.
  const frames = transport.sent.filter((f) => Array.isArray(f) || !Object.hasOwn(f as object, 'method'));
  let responses: any[];
  const expectedTotal = [...expectation.exact.values()].reduce((a, b) => a + b, 0);
  if (batch) {
    expect(frames.length).toBeLessThanOrEqual(1);
    responses = frames.length === 1 ? (frames[0] as any[]) : [];
    if (frames.length === 1) expect(Array.isArray(frames[0]) && responses.length > 0).toBe(true);
  } else {
    responses = frames as any[];
    expect(frames.every((f) => !Array.isArray(f))).toBe(true);
  }
  const seen = new Map<string, number>();
  for (const response of responses) {
    assertWellFormedResponse(response);
    seen.set(key(response.id), (seen.get(key(response.id)) ?? 0) + 1);
  }
  for (const [id, count] of expectation.exact) {
    const got = seen.get(id) ?? 0;
    if (expectation.mayBeCancelled.has(id)) expect(got).toBeLessThanOrEqual(count);
    else expect(got, `answers for id ${id}`).toBe(count);
  }
  for (const id of seen.keys()) expect(expectation.exact.has(id), `unexpected answer for id ${id}`).toBe(true);
  if (expectation.mayBeCancelled.size === 0) expect(responses.length).toBe(expectedTotal);
}

describe.each([false, true])('receive() on random frames (batches: %s)', (batches) => {
  it('never throws; answers each request exactly once with its id; never answers notifications', async () => {
    await fc.assert(
      fc.asyncProperty(frame, (input) => checkFrame(input, batches)),
      { numRuns: 3000 },
    );
  });

  it('answers every well-formed request exactly once with its id', async () => {
    await fc.assert(
      fc.asyncProperty(validRequest, async (request) => {
        const { peer, transport } = makePeer(batches);
        peer.receive(request);
        await settle();
        const responses = transport.sent.filter((f) => !Object.hasOwn(f as object, 'method')) as any[];
        expect(responses).toHaveLength(1);
        expect(key(responses[0].id)).toBe(key(request.id));
      }),
      { numRuns: 1000 },
    );
  });

  it('never answers a well-formed notification', async () => {
    // A method of undefined would vanish in JSON text, leaving a frame that is not a notification at all.
    const notification = messageLike
      .filter((m) => Object.hasOwn(m, 'method') && m.method !== undefined)
      .map(({ id: _drop, ...rest }) => rest)
      .filter((m) => wellFormedNotification(JSON.parse(JSON.stringify(m))));
    await fc.assert(
      fc.asyncProperty(notification, fc.boolean(), async (message, asText) => {
        const { peer, transport } = makePeer(batches);
        peer.receive(asText ? JSON.stringify(message) : message);
        await settle();
        expect(transport.sent).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('hostile values', () => {
  it('survives throwing getters and proxies', async () => {
    const throwing = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
        has: () => {
          throw new Error('trap');
        },
        getOwnPropertyDescriptor: () => {
          throw new Error('trap');
        },
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    const getter = Object.defineProperty({ jsonrpc: '2.0', id: 1 }, 'method', {
      enumerable: true,
      get: () => {
        throw new Error('getter');
      },
    });
    const badThen = { jsonrpc: '2.0', id: 2, method: 'badThen' };
    for (const batches of [false, true]) {
      const { peer } = makePeer(batches);
      peer.setRequestHandler('badThen', () =>
        Object.defineProperty({}, 'then', {
          get: () => {
            throw new Error('then getter');
          },
        }),
      );
      for (const input of [throwing, getter, [throwing, getter], badThen, Symbol('x'), () => 1, BigInt(1), undefined]) {
        expect(() => peer.receive(input)).not.toThrow();
      }
      await settle();
    }
  });
});

describe('jsonCopy (the in-memory pair isolation)', () => {
  it('equals a JSON round trip for any value', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBoxedValues: true,
          withDate: true,
          withNullPrototype: true,
          withObjectString: true,
          withSparseArray: true,
        }),
        (value) => {
          let expected: unknown;
          try {
            expected = JSON.parse(JSON.stringify(value) ?? 'null');
          } catch {
            expect(() => jsonCopy(value)).toThrow();
            return;
          }
          const copy = jsonCopy(value);
          expect(JSON.stringify(copy)).toBe(JSON.stringify(expected));
          expect(copy).toStrictEqual(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('keeps a __proto__ key as data and throws on circular values', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":1}');
    const copy = jsonCopy(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"a":1}');
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => jsonCopy(circular)).toThrow(TypeError);
  });
});

describe('outgoing frame size check', () => {
  it('refuses exactly the frames whose UTF-8 JSON exceeds maxFrameSize', async () => {
    const value = fc.dictionary(
      fc.string(),
      fc.anything({ withBoxedValues: true, withDate: true, withNullPrototype: true, withSparseArray: true }),
      { maxKeys: 5 },
    );
    await fc.assert(
      fc.asyncProperty(value, fc.integer({ min: 30, max: 3000 }), async (params, limit) => {
        let size: number;
        try {
          size = Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', method: 'm', params }));
        } catch {
          return; // Unserializable: covered by the "not serializable" path, not by size.
        }
        const transport = new RecordingTransport();
        const peer = new RpcPeer(transport, { maxFrameSize: limit });
        const outcome = await peer.notify('m', params).then(
          () => 'sent',
          (error: ProtocolError) => error.data,
        );
        if (size > limit) expect(outcome).toEqual({ size, limit });
        else expect(outcome).toBe('sent');
      }),
      { numRuns: 2000 },
    );
  });
});
