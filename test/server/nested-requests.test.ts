/**
 * Issue 36, item 5: a handler's own requests to the client. The generated 2025-11-25 server refuses, before
 * sending, a request the client's capabilities do not allow (elicitation, sampling, roots), and a nested
 * request that fails comes back as a NestedRequestError: a tool that lets it through answers `isError` with a
 * message naming the method (not the client's -32601 as the `tools/call` error), and `onHandlerError` hears it.
 * Clients: a raw RpcPeer and the official SDK v1 `Client`, over the in-memory pair.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { built, importBuilt } from '../client/helpers/build.js';

let gen: any;
const cleanups: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  gen = await importBuilt(await built('2025-11-25'), 'index.js');
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const elicit = { message: 'Deploy?', requestedSchema: { type: 'object', properties: {} } };

/** A server whose tool asks the client to elicit; what its handler and onHandlerError saw. */
async function serverFor(clientEnd: unknown) {
  const seen = { handlerErrors: [] as unknown[], caught: [] as unknown[] };
  const server = gen.createServer(
    {
      'tools/call': async (params: any, ctx: any) => {
        if (params.name === 'catching') {
          await ctx.request('elicitation/create', elicit).catch((error: unknown) => seen.caught.push(error));
          return { content: [{ type: 'text', text: 'went on' }] };
        }
        const answer = await ctx.request('elicitation/create', elicit);
        return { content: [{ type: 'text', text: answer.action }] };
      },
    },
    {
      serverInfo: { name: 'nested', version: '1' },
      onHandlerError: (error: unknown) => seen.handlerErrors.push(error),
    },
  );
  await server.connect(clientEnd);
  return seen;
}

const INIT = (capabilities: object) => ({
  protocolVersion: '2025-11-25',
  capabilities,
  clientInfo: { name: 'raw', version: '0' },
});

async function rawClient(capabilities: object, onElicit?: () => unknown) {
  const [a, b] = gen.createInMemoryPair();
  const seen = await serverFor(b);
  const peer = new gen.RpcPeer(a, {});
  const asked: unknown[] = [];
  if (onElicit) {
    peer.setRequestHandler('elicitation/create', (params: unknown) => {
      asked.push(params);
      return onElicit();
    });
  }
  peer.fallbackRequestHandler = (method: string) => {
    asked.push(method);
    throw new gen.ProtocolError(-32601, `Method not found: ${method}`);
  };
  await peer.start();
  cleanups.push(() => peer.close());
  await peer.request('initialize', INIT(capabilities));
  await peer.notify('notifications/initialized');
  return { peer, seen, asked };
}

describe('a request the client did not declare the capability for', () => {
  it('is never sent: the tool answers isError, onHandlerError hears a NestedRequestError', async () => {
    const { peer, seen, asked } = await rawClient({});
    const result = await peer.request('tools/call', { name: 'deploy' });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/elicitation\/create needs the client capability "elicitation"/);
    expect(asked).toEqual([]);
    expect(seen.handlerErrors).toEqual([expect.objectContaining({ name: 'NestedRequestError' })]);
  });

  it('a handler that catches it goes on, with the refusal and its code in hand', async () => {
    const { peer, seen } = await rawClient({});
    expect((await peer.request('tools/call', { name: 'catching' })).content[0].text).toBe('went on');
    expect(seen.caught).toEqual([
      expect.objectContaining({ name: 'NestedRequestError', method: 'elicitation/create', code: expect.any(Number) }),
    ]);
    expect(seen.handlerErrors).toEqual([]);
  });
});

describe('a nested request the client fails', () => {
  it('becomes an isError result naming the method and the client’s code, logged', async () => {
    // Declares elicitation, but answers -32601 (no handler): the failure is the client's.
    const { peer, seen, asked } = await rawClient({ elicitation: {} });
    const result = await peer.request('tools/call', { name: 'deploy' });
    expect(asked).toEqual(['elicitation/create']);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^elicitation\/create failed with -32601/);
    expect(seen.handlerErrors).toHaveLength(1);
  });

  it('an answered one reaches the tool as before', async () => {
    const { peer } = await rawClient({ elicitation: {} }, () => ({ action: 'accept', content: {} }));
    expect((await peer.request('tools/call', { name: 'deploy' })).content[0].text).toBe('accept');
  });
});

describe('against the official SDK v1 Client', () => {
  it('a client without elicitation gets an isError result, and no elicitation request', async () => {
    const [a, b] = gen.createInMemoryPair();
    const seen = await serverFor(b);
    const client = new Client({ name: 'sdk', version: '1' }, { capabilities: {} });
    const requests: string[] = [];
    client.fallbackRequestHandler = async (request) => {
      requests.push(request.method);
      return {};
    };
    await client.connect(a);
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: 'deploy', arguments: {} });
    expect(result.isError).toBe(true);
    expect(requests).toEqual([]);
    expect(seen.handlerErrors).toHaveLength(1);
  });
});

/**
 * Issue 43: the dual-era 2026-07-28 server, whose handler asks with `ctx.inputs`, serving a legacy client that
 * lacks the capability an input needs answers as the 2025-11-25 server does (it answered -32603 "Internal
 * error"): the tool's isError names the capability, nothing is sent, onHandlerError hears it.
 */
describe('the dual-era 2026-07-28 server and a legacy client without the capability', () => {
  const INPUTS: Record<string, { method: string; params?: object; capability: string }> = {
    elicit: { method: 'elicitation/create', params: elicit, capability: 'elicitation' },
    sample: {
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 },
      capability: 'sampling',
    },
    roots: { method: 'roots/list', capability: 'roots' },
  };

  it.each(Object.keys(INPUTS))('%s: isError naming the capability, as from the 2025-11-25 server', async (name) => {
    const modern = await importBuilt(await built('2026-07-28'), 'index.js');
    const ask = INPUTS[name]!;
    const handlerErrors: unknown[] = [];
    const server = modern.createServer(
      {
        'tools/call': (params: any, ctx: any) => {
          const round = ctx.inputs(params, { answer: { method: ask.method, params: ask.params } });
          return round.complete ? { content: [{ type: 'text', text: 'answered' }] } : round.ask;
        },
      },
      { serverInfo: { name: 'dual', version: '1' }, onHandlerError: (error: unknown) => handlerErrors.push(error) },
    );
    const [a, b] = modern.createInMemoryPair();
    await server.connect(b);
    const peer = new modern.RpcPeer(a, {});
    const asked: string[] = [];
    peer.fallbackRequestHandler = (method: string) => (asked.push(method), {});
    await peer.start();
    cleanups.push(() => peer.close());
    await peer.request('initialize', INIT({}));
    await peer.notify('notifications/initialized');
    const result = await peer.request('tools/call', { name: 'deploy' });
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: `${ask.method} needs the client capability "${ask.capability}", which the client did not declare: not sent`,
        },
      ],
      isError: true,
    });
    expect(asked).toEqual([]);
    expect(handlerErrors).toEqual([expect.objectContaining({ name: 'NestedRequestError', method: ask.method })]);
  });
});
