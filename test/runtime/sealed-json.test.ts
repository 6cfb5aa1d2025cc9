/**
 * Issue 37, item 3: what the runtime builds itself is built once, and neither measured nor copied again.
 * - sealJson: a deeply frozen copy as JSON carries it, its size bound known; jsonCopy passes it through;
 * - withKey: `{ ...object, [key]: value }` as an object V8 keeps fast (the key first);
 * - the 2026-07-28 pair over the in-memory transport (clone: true): every request carries one sealed `_meta`
 *   (a new one once a handler changes the capabilities), every result one sealed `_meta` with the server's info,
 *   and result defaults are filled in place (a frozen result is copied instead).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isSealed, oversize, sealJson } from '../../templates/core/json-size.js';
import { withKey } from '../../templates/core/peer-messages.js';
import { jsonCopy } from '../../templates/core/transport.js';
import { built, importBuilt } from '../client/helpers/build.js';

describe('sealJson', () => {
  it('is a deeply frozen copy as JSON would carry it, and its size is known without a walk', () => {
    const source = { a: { b: [1, { c: 'x' }] }, gone: undefined, n: Number.NaN };
    const sealed = sealJson(source);
    expect(sealed).toEqual(JSON.parse(JSON.stringify(source)));
    expect(sealed).not.toBe(source);
    expect(Object.isFrozen(source)).toBe(false);
    for (const value of [sealed, sealed.a, sealed.a.b, sealed.a.b[1]]) {
      expect(Object.isFrozen(value)).toBe(true);
      expect(isSealed(value as object)).toBe(true);
    }
    // The bound is what the walk gives, so a message holding it measures the same way.
    const size = JSON.stringify({ meta: sealed }).length;
    expect(oversize({ meta: sealed }, size - 1)).toBe(size);
    expect(oversize({ meta: sealed }, size)).toBeUndefined();
  });

  it('jsonCopy passes a sealed value through and copies what holds it', () => {
    const sealed = sealJson({ info: { name: 'n' } });
    const message = { params: { _meta: sealed, other: { x: 1 } } };
    const copy = jsonCopy(message) as typeof message;
    expect(copy).toEqual(message);
    expect(copy.params).not.toBe(message.params);
    expect(copy.params.other).not.toBe(message.params.other);
    expect(copy.params._meta).toBe(sealed);
  });
});

describe('withKey', () => {
  it('lists the key first, copies the other own members, keeps "__proto__" as data, leaves the object alone', () => {
    const object = JSON.parse('{"name":"n","__proto__":{"polluted":true},"_meta":{"old":1}}') as Record<
      string,
      unknown
    >;
    const out = withKey(object, '_meta', { fresh: 1 });
    expect(Object.keys(out)).toEqual(['_meta', 'name', '__proto__']);
    expect(out['_meta']).toEqual({ fresh: 1 });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(object['_meta']).toEqual({ old: 1 });
    expect(withKey(undefined, 'k', 1)).toEqual({ k: 1 });
  });
});

describe('the 2026-07-28 pair in memory', () => {
  let gen: any;
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    gen = await importBuilt(await built('2026-07-28'), 'index.js');
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function pair(handlers: Record<string, (params: any) => unknown>) {
    const [a, b] = gen.createInMemoryPair({ clone: true });
    const server = gen.createServer(handlers, { serverInfo: { name: 's', version: '1' } });
    await server.connect(b);
    const client = gen.createClient(a, { clientInfo: { name: 'c', version: '1' } });
    await client.connect();
    cleanups.push(() => client.close());
    return client;
  }

  it('requests share one sealed _meta until a handler changes the capabilities', async () => {
    const metas: unknown[] = [];
    const client = await pair({ 'tools/call': (params) => (metas.push(params._meta), { content: [] }) });
    await client.tools.call({ name: 'a' });
    await client.tools.call({ name: 'b' });
    expect(metas[0]).toBe(metas[1]);
    expect(Object.isFrozen(metas[0])).toBe(true);
    client.setRequestHandler('roots/list', () => ({ roots: [] }));
    await client.tools.call({ name: 'c', _meta: { progressToken: 'p' } });
    const last = metas[2] as Record<string, any>;
    expect(last).not.toBe(metas[0]);
    expect(last['io.modelcontextprotocol/clientCapabilities']).toEqual({ roots: {} });
    expect(last['progressToken']).toBe('p');
  });

  it('results: defaults filled in place, the server named in one shared sealed _meta; a frozen result is copied', async () => {
    const returned: Record<string, unknown>[] = [];
    const frozen = Object.freeze({ content: [] });
    const client = await pair({
      'tools/call': (params) => {
        if (params.name === 'frozen') return frozen;
        const result = params.name === 'own-meta' ? { content: [], _meta: { mine: 1 } } : { content: [] };
        returned.push(result);
        return result;
      },
    });
    const first = await client.tools.call({ name: 'x' });
    const second = await client.tools.call({ name: 'y' });
    expect(first).toEqual({
      content: [],
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } },
    });
    expect(first._meta).toBe(second._meta);
    expect(Object.isFrozen(first._meta)).toBe(true);
    // The handler's object became the answer: nothing was copied.
    expect(returned[0]).toMatchObject({ resultType: 'complete', _meta: first._meta });
    expect(await client.tools.call({ name: 'frozen' })).toMatchObject({ resultType: 'complete' });
    expect(frozen).toEqual({ content: [] });
    const own = await client.tools.call({ name: 'own-meta' });
    expect(own._meta).toEqual({ mine: 1, 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } });
  });
});
