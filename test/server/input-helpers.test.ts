/**
 * `ctx.inputs` on a generated 2026-07-28 server: a handler names the inputs it needs by method and reads
 * the typed answers (type tests: test/server/type-tests/server-2026.ts). Against the generated 2026-07-28
 * client the handler's input-required result goes round the client's loop (the retry carries the answers
 * and the requestState); against a 2025-11-25 client the dual-era server asks inline. A retry that misses
 * an answer asks for every input again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { inputRound } from '../../templates/peer/input-round.js';
import { built, importBuilt } from '../client/helpers/build.js';

type Json = Record<string, any>;
const gen: Json = {};
const CONFIRM = {
  method: 'elicitation/create',
  params: { message: 'Deploy?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
};

beforeAll(async () => {
  gen['2026'] = await importBuilt(await built('2026-07-28'), 'index.js');
  gen['2025'] = await importBuilt(await built('2025-11-25'), 'index.js');
});

/** A 2026-07-28 server whose deploy tool asks for a confirmation and the roots; records every round. */
async function serve(clientVersion: '2026' | '2025') {
  const rounds: Json[] = [];
  const server = gen['2026'].createServer(
    {
      'tools/call': (params: Json, ctx: Json) => {
        const round = ctx.inputs(params, { confirm: CONFIRM, roots: { method: 'roots/list' } }, { requestState: 'r1' });
        rounds.push({ complete: round.complete, state: round.requestState });
        if (!round.complete) return round.ask;
        const { confirm, roots } = round.responses;
        return { content: [{ type: 'text', text: `${confirm.action}:${roots.roots.map((r: Json) => r.uri)}` }] };
      },
    },
    { serverInfo: { name: 'inputs', version: '1' } },
  );
  const [clientSide, serverSide] = gen[clientVersion].createInMemoryPair();
  await server.connect(serverSide);
  const client = gen[clientVersion].createClient(clientSide, { clientInfo: { name: 'c', version: '1' } });
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', (params: Json) => {
    asked.push(params.message);
    return { action: 'accept', content: { ok: true } };
  });
  client.setRequestHandler('roots/list', () => {
    asked.push('roots');
    return { roots: [{ uri: 'file:///repo' }] };
  });
  await client.connect();
  return { client, rounds, asked };
}

describe('ctx.inputs', () => {
  it('a 2026-07-28 client answers the named inputs and retries; the handler reads them typed', async () => {
    const { client, rounds, asked } = await serve('2026');
    const result = await client.tools.call({ name: 'deploy', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'accept:file:///repo' }]);
    expect(rounds).toEqual([
      { complete: false, state: undefined },
      { complete: true, state: 'r1' },
    ]);
    expect(asked.sort()).toEqual(['Deploy?', 'roots']);
    await client.close();
  });

  it('a 2025-11-25 client is asked inline by the dual-era server, with the same handler', async () => {
    const { client, rounds, asked } = await serve('2025');
    const result = await client.tools.call({ name: 'deploy', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'accept:file:///repo' }]);
    expect(rounds.map((r) => r.complete)).toEqual([false, true]);
    expect(asked.sort()).toEqual(['Deploy?', 'roots']);
    await client.close();
  });

  it('asks for every input again when a retry misses one; the ask is an input_required result', () => {
    const asks = { confirm: CONFIRM, roots: { method: 'roots/list' } };
    const partial = inputRound({ inputResponses: { confirm: { action: 'accept' } } }, asks);
    expect(partial).toEqual({
      complete: false,
      ask: { resultType: 'input_required', inputRequests: asks },
    });
    const done = inputRound(
      { inputResponses: { confirm: { action: 'decline' }, roots: { roots: [] } }, requestState: 's' },
      asks,
    );
    expect(done).toEqual({
      complete: true,
      responses: { confirm: { action: 'decline' }, roots: { roots: [] } },
      requestState: 's',
    });
  });
});

/**
 * Issue 43: what a 2026-07-28 server makes of answers it cannot read. SEP-2322: a server SHOULD ignore what it
 * does not recognise in `inputResponses`; SEP-2663: answers to keys not outstanding. An answer that fails its
 * schema is read as no answer: an unknown key's is ignored (the request is served), the asked key's is asked for
 * again; `inputResponses` that is no object at all is still -32602.
 */
describe('inputResponses the server cannot read', () => {
  const META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  async function rawCall(inputResponses: unknown) {
    const server = gen['2026'].createServer(
      {
        'tools/call': (params: Json, ctx: Json) => {
          const round = ctx.inputs(params, { confirm: CONFIRM });
          return round.complete ? { content: [{ type: 'text', text: round.responses.confirm.action }] } : round.ask;
        },
      },
      { serverInfo: { name: 'inputs', version: '1' } },
    );
    const [a, b] = gen['2026'].createInMemoryPair();
    await server.connect(b);
    const peer = new gen['2026'].RpcPeer(a, {});
    await peer.start();
    try {
      return await peer
        .request('tools/call', { name: 'deploy', inputResponses, _meta: META })
        .catch((error: Json) => ({ error: error.code }));
    } finally {
      await peer.close();
    }
  }

  it('an invalid answer under a key nobody asked for is ignored: the call completes', async () => {
    const answer = await rawCall({ confirm: { action: 'accept' }, 'unknown-key': { ignored: true } });
    expect(answer).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'accept' }] });
  });

  it('an invalid answer to the key asked for is no answer: it is asked for again', async () => {
    const answer = await rawCall({ confirm: { nonsense: 1 } });
    expect(answer).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: CONFIRM } });
  });

  it('inputResponses that is not an object is -32602', async () => {
    expect(await rawCall('all of them')).toEqual({ error: -32602 });
  });
});
