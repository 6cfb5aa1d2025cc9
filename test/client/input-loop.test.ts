/**
 * The generated 2026-07-28 McpClient against a scripted server (a raw RpcPeer over the in-memory pair):
 * `server/discover` at connect, per-request `_meta`, and the input-required loop — embedded
 * elicitation/sampling requests answered by the registered handlers, the retry carrying
 * `inputResponses` (keyed like `inputRequests`) and `requestState`, the call resolving to the final result.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { built, importBuilt } from './helpers/build.js';

type Gen = any;
type Json = Record<string, any>;

const CLIENT_INFO = { name: 'loop-test-client', version: '1.2.3' };
const ELICIT = {
  method: 'elicitation/create',
  params: {
    message: 'Please provide your GitHub username',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
};
const SAMPLE = {
  method: 'sampling/createMessage',
  params: {
    messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
    maxTokens: 100,
  },
};
const DISCOVER = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  serverInfo: { name: 'scripted-server', version: '9.9.9' },
  cacheScope: 'public',
  ttlMs: 0,
};
const FINAL = { resultType: 'complete', content: [{ type: 'text', text: 'Weather in octocat-town: sunny' }] };

let gen: Gen;

beforeAll(async () => {
  gen = await importBuilt(await built('2026-07-28'), 'index.js');
});

/** A client wired to a scripted server peer; the server records every request it receives. */
function setup(script: (method: string, params: Json, round: number) => unknown, clientOptions: Json = {}) {
  const [clientSide, serverSide] = gen.createInMemoryPair();
  const server = new gen.RpcPeer(serverSide, {});
  const received: { method: string; params: Json }[] = [];
  server.fallbackRequestHandler = (method: string, params: Json) => {
    const round = received.filter((r) => r.method === method).length;
    received.push({ method, params });
    return script(method, params, round);
  };
  const client = new gen.McpClient(clientSide, { clientInfo: CLIENT_INFO, ...clientOptions });
  return { client, server, received };
}

describe('2026-07-28 McpClient: discover, per-request _meta, input-required loop', () => {
  it('calls server/discover at connect with the per-request _meta and records the server', async () => {
    const { client, server, received } = setup((method) => (method === 'server/discover' ? DISCOVER : FINAL));
    await server.start();
    await client.connect();
    expect(received.map((r) => r.method)).toEqual(['server/discover']);
    expect(received[0]!.params._meta).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      'io.modelcontextprotocol/clientCapabilities': {},
    });
    expect(client.negotiatedVersion).toBe('2026-07-28');
    expect(client.serverInfo).toEqual(DISCOVER.serverInfo);
    expect(client.serverCapabilities).toEqual({ tools: {} });
    await client.close();
  });

  it('connect fails when the server does not support the version', async () => {
    const { client, server } = setup(() => ({ ...DISCOVER, supportedVersions: ['2099-01-01'] }));
    await server.start();
    await expect(client.connect()).rejects.toThrow(
      'Server supports 2099-01-01; this client accepts 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05',
    );
  });

  it('answers embedded elicitation and sampling requests and retries until the final result', async () => {
    const { client, server, received } = setup((method, params, round) => {
      if (method === 'server/discover') return DISCOVER;
      if (round === 0)
        return {
          resultType: 'input_required',
          inputRequests: { github_login: ELICIT, capital_of_france: SAMPLE },
          requestState: 'state-1',
        };
      if (round === 1) return { resultType: 'input_required', requestState: 'state-2' };
      return FINAL;
    });
    const calls: { method: string; params: unknown; id: unknown }[] = [];
    client.setRequestHandler('elicitation/create', (params: unknown, ctx: Json) => {
      calls.push({ method: ctx.method, params, id: ctx.id });
      return { action: 'accept', content: { name: 'octocat' } };
    });
    client.setRequestHandler('sampling/createMessage', async (params: unknown, ctx: Json) => {
      calls.push({ method: ctx.method, params, id: ctx.id });
      return {
        role: 'assistant',
        content: { type: 'text', text: 'Paris.' },
        model: 'test-model',
        stopReason: 'endTurn',
      };
    });
    await server.start();
    await client.connect();

    const result = await client.tools.call({
      name: 'get_weather',
      arguments: { location: 'New York' },
      _meta: { 'example.com/trace': 'abc' },
    });
    expect(result).toEqual(FINAL);

    // The handlers got exactly the embedded params, with the input request's key as ctx.id.
    expect(calls).toEqual([
      { method: 'elicitation/create', params: ELICIT.params, id: 'github_login' },
      { method: 'sampling/createMessage', params: SAMPLE.params, id: 'capital_of_france' },
    ]);

    const toolCalls = received.filter((r) => r.method === 'tools/call').map((r) => r.params);
    expect(toolCalls).toHaveLength(3);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      // Derived from the registered handlers.
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {} },
      'example.com/trace': 'abc',
    };
    expect(toolCalls[0]).toEqual({ name: 'get_weather', arguments: { location: 'New York' }, _meta: meta });
    expect(toolCalls[1]).toEqual({
      name: 'get_weather',
      arguments: { location: 'New York' },
      _meta: meta,
      inputResponses: {
        github_login: { action: 'accept', content: { name: 'octocat' } },
        capital_of_france: {
          role: 'assistant',
          content: { type: 'text', text: 'Paris.' },
          model: 'test-model',
          stopReason: 'endTurn',
        },
      },
      requestState: 'state-1',
    });
    expect(Object.keys(toolCalls[1]!.inputResponses)).toEqual(['github_login', 'capital_of_france']);
    // A round with only requestState: no inputs to answer, the new state goes back.
    expect(toolCalls[2]).toMatchObject({ name: 'get_weather', requestState: 'state-2', inputResponses: {} });
    await client.close();
  });

  it('every request carries _meta; list calls work without params', async () => {
    const { client, server, received } = setup((method) =>
      method === 'server/discover' ? DISCOVER : { resultType: 'complete', tools: [] },
    );
    await server.start();
    await client.connect();
    await expect(client.tools.list()).resolves.toEqual({ resultType: 'complete', tools: [] });
    const list = received.find((r) => r.method === 'tools/list')!;
    expect(list.params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    expect(list.params._meta['io.modelcontextprotocol/clientInfo']).toEqual(CLIENT_INFO);
    expect(list.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({});
    await client.close();
  });

  it('fails the call when an input request has no handler, or rounds never end', async () => {
    const { client, server } = setup((method) =>
      method === 'server/discover'
        ? DISCOVER
        : { resultType: 'input_required', inputRequests: { a: ELICIT }, requestState: 's' },
    );
    await server.start();
    await client.connect();
    await expect(client.tools.call({ name: 'x' })).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining('elicitation/create'),
    });
    client.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));
    await expect(client.tools.call({ name: 'x' })).rejects.toThrow(/still asks for input after 8 rounds/);
    await client.close();
  });

  it('works end to end against the generated 2026-07-28 server', async () => {
    const [a, b] = gen.createInMemoryPair();
    const server = gen.createServer(
      {
        'tools/call': (params: Json) => {
          if (!params.inputResponses) {
            return { resultType: 'input_required', inputRequests: { who: ELICIT }, requestState: 'r1' };
          }
          return {
            resultType: 'complete',
            content: [{ type: 'text', text: `hi ${params.inputResponses.who.content.name} (${params.requestState})` }],
          };
        },
      },
      { serverInfo: { name: 'gen-2026', version: '1.0.0' } },
    );
    await server.connect(b);
    const client = new gen.McpClient(a, { clientInfo: CLIENT_INFO });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'octocat' } }));
    await client.connect();
    expect(client.serverInfo).toEqual({ name: 'gen-2026', version: '1.0.0' });
    expect(client.serverCapabilities).toHaveProperty('tools');
    const result = await client.tools.call({ name: 'greet' });
    expect(result.content).toEqual([{ type: 'text', text: 'hi octocat (r1)' }]);
    await client.close();
  });
});
