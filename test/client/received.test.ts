/**
 * What the client receives is checked when it is given the generated validators (`checkWith`): the server's requests
 * (-32602 with the pointer) and notifications (dropped, with a diagnostic), 2026-07-28 embedded input
 * requests, results with `validateResults`, and `structuredContent` against the tool's `outputSchema` with
 * `validateStructuredContent`. Without validators nothing is checked. The server is a raw RpcPeer, so it can
 * send what a generated server never would.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { built, importBuilt } from './helpers/build.js';

type Json = Record<string, any>;
let gen: any;
let validators: any;
let gen26: any;
let validators26: any;

beforeAll(async () => {
  const b = await built('2025-11-25');
  gen = await importBuilt(b, 'index.js');
  validators = await importBuilt(b, 'validators.js');
  const b26 = await built('2026-07-28');
  gen26 = await importBuilt(b26, 'index.js');
  validators26 = await importBuilt(b26, 'validators.js');
});

const INFO = { name: 'raw', version: '1' };

/** A 2025-11-25 client connected to a raw peer that answers initialize and then whatever `answer` says. */
async function connect(options: Json, answer: (method: string, params: Json) => unknown = () => ({})) {
  const [a, b] = gen.createInMemoryPair();
  const server = new gen.RpcPeer(b, {});
  server.fallbackRequestHandler = (method: string, params: Json) =>
    method === 'initialize'
      ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: INFO }
      : answer(method, params);
  await server.start();
  const diagnostics: Json[] = [];
  const client = gen.createClient(a, {
    clientInfo: INFO,
    onDiagnostic: (d: Json) => diagnostics.push(d),
    ...options,
  });
  await client.connect();
  return { client, server, diagnostics };
}

const SAMPLE = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 };
const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' };

describe('requests and notifications the server sends', () => {
  it('an invalid request is answered -32602 with the pointer; a valid one reaches the handler', async () => {
    const { client, server } = await connect({ validate: gen.checkWith(validators) });
    const seen: Json[] = [];
    client.setRequestHandler('sampling/createMessage', (p: Json) => (seen.push(p), SAMPLED));
    await expect(server.request('sampling/createMessage', { maxTokens: 5 })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('/messages'),
    });
    await expect(server.request('sampling/createMessage', SAMPLE)).resolves.toEqual(SAMPLED);
    expect(seen).toEqual([SAMPLE]);
  });

  it('an invalid notification is dropped with a diagnostic', async () => {
    const { client, server, diagnostics } = await connect({ validate: gen.checkWith(validators) });
    const logs: Json[] = [];
    client.setNotificationHandler('notifications/message', (p: Json) => void logs.push(p));
    await server.notify('notifications/message', { data: 'no level' });
    await server.notify('notifications/message', { level: 'info', data: 'fine' });
    await client.ping();
    expect(logs).toEqual([{ level: 'info', data: 'fine' }]);
    expect(diagnostics).toContainEqual(expect.objectContaining({ kind: 'invalid-notification' }));
  });

  it('without validators nothing is checked (they stay out of client bundles that do not ask)', async () => {
    const { client, server } = await connect({});
    const seen: Json[] = [];
    client.setRequestHandler('sampling/createMessage', (p: Json) => (seen.push(p), SAMPLED));
    await expect(server.request('sampling/createMessage', { maxTokens: 5 })).resolves.toEqual(SAMPLED);
    expect(seen).toEqual([{ maxTokens: 5 }]);
  });
});

describe('results', () => {
  const bad = { content: 'not a list' };

  it('validateResults: a result that does not match its schema fails the call', async () => {
    const { client } = await connect({ validate: gen.checkWith(validators), validateResults: true }, () => bad);
    await expect(client.tools.call({ name: 'x' })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringMatching(/^tools\/call: the server's result is invalid \(CallToolResult: \/content /),
    });
  });

  it('results are not checked unless asked', async () => {
    const { client } = await connect({ validators }, () => bad);
    await expect(client.tools.call({ name: 'x' })).resolves.toEqual(bad);
  });

  it("validateStructuredContent: checked against the listed tool's outputSchema", async () => {
    const outputSchema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const calls: Json[] = [];
    const { client } = await connect(
      {
        validateStructuredContent: gen.checkStructuredContentWith((schema: Json, value: Json) => {
          calls.push(schema);
          return typeof value?.n === 'number' ? undefined : 'must have a number n';
        }),
      },
      (method, params) =>
        method === 'tools/list'
          ? { tools: [{ name: 'count', inputSchema: { type: 'object' }, outputSchema }] }
          : { content: [], structuredContent: params.arguments },
    );
    await client.tools.list();
    await expect(client.tools.call({ name: 'count', arguments: { n: 1 } })).resolves.toMatchObject({
      structuredContent: { n: 1 },
    });
    await expect(client.tools.call({ name: 'count', arguments: { n: 'one' } })).rejects.toThrow(
      'tools/call count: structuredContent must have a number n',
    );
    expect(calls).toEqual([outputSchema, outputSchema]);
  });
});

describe('2026-07-28 embedded input requests', () => {
  it('an embedded request with invalid params fails the call before any handler runs', async () => {
    const [a, b] = gen26.createInMemoryPair();
    const server = new gen26.RpcPeer(b, {});
    server.fallbackRequestHandler = (method: string) =>
      method === 'server/discover'
        ? {
            resultType: 'complete',
            supportedVersions: ['2026-07-28'],
            capabilities: {},
            cacheScope: 'public',
            ttlMs: 0,
          }
        : {
            resultType: 'input_required',
            inputRequests: { pick: { method: 'sampling/createMessage', params: { maxTokens: 'five' } } },
          };
    await server.start();
    const client = gen26.createClient(a, {
      clientInfo: INFO,
      validate: gen26.checkWith(validators26),
      eraCache: new Map(),
    });
    let asked = 0;
    client.setRequestHandler('sampling/createMessage', () => (asked++, SAMPLED));
    await client.connect();
    await expect(client.tools.call({ name: 'x', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^input request "pick" \(sampling\/createMessage\): invalid params at \//),
    });
    expect(asked).toBe(0);
  });
});
