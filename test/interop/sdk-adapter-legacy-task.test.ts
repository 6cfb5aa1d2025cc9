/**
 * Issue 44, item 7: a task result the session cannot carry is an error, never a mistyped value. The tasks
 * extension (`--ext io.modelcontextprotocol/tasks`) answers `tools/call` with a task on 2026-07-28 only. On a
 * legacy-era session (2025-11-25 negotiated by `initialize`), the real SDK v2 client (2.4) takes any
 * `resultType` off a result and reads it as complete; the generated adapter's `sdkRequest` must then refuse
 * a task (the extension's, or a 2025-11-25 `{ task }` the client never asked for) rather than hand it on typed
 * as a complete result. The server is a hand-written JSON-RPC peer on the SDK's in-memory transport: it answers
 * as a server that ignores the era would.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generated, tempDir, writeFiles } from '../helpers/generate.js';

type Json = Record<string, any>;
let sdk: Json;

const TASK = {
  taskId: 'task-1',
  status: 'working',
  createdAt: '2026-07-28T00:00:00Z',
  lastUpdatedAt: '2026-07-28T00:00:00Z',
  ttlMs: 60_000,
};

/** What the peer answers each tools/call with, by tool name. */
const ANSWERS: Record<string, Json> = {
  'extension-task': { resultType: 'task', ...TASK },
  'legacy-task': { task: TASK },
  'task-with-content': { resultType: 'task', ...TASK, content: [] },
  plain: { content: [{ type: 'text', text: 'done' }] },
};

/** An SDK v2 client connected to a peer that negotiates 2025-11-25 and answers tools/call from ANSWERS. */
async function legacySession(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serverSide.onmessage = (message: Json) => {
    if (message.id === undefined) return;
    const reply = (body: Json) => void serverSide.send({ jsonrpc: '2.0', id: message.id, ...body } as never);
    if (message.method === 'initialize')
      reply({
        result: {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'old', version: '1' },
        },
      });
    else if (message.method === 'tools/call') reply({ result: ANSWERS[message.params.name] });
    else reply({ error: { code: -32601, message: 'Method not found' } });
  };
  await serverSide.start();
  const client = new Client({ name: 'legacy', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

beforeAll(async () => {
  const dir = tempDir('sdk-adapter-legacy-task');
  const out = await generated('2026-07-28', { extensions: ['io.modelcontextprotocol/tasks'], artifacts: ['sdk'] });
  writeFiles(join(dir, 'generated'), out.files);
  sdk = await import(join(dir, 'generated', 'sdk.js'));
});

describe('sdkRequest on a legacy-era SDK v2 session, tools/call answered with a task', () => {
  let client: Client;
  beforeAll(async () => {
    client = await legacySession();
  });

  it('the session is legacy-era', () => {
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
  });

  it("the extension's task (resultType task): an error naming why, not a result", async () => {
    await expect(sdk.sdkRequest(client)('tools/call', { name: 'extension-task' })).rejects.toThrow(
      'tools/call: answered with resultType "task", which this session cannot carry',
    );
  });

  it('a task that also carries content (which the SDK would read as complete): an error too', async () => {
    await expect(sdk.sdkRequest(client)('tools/call', { name: 'task-with-content' })).rejects.toThrow(
      /answered with resultType "task", which this session cannot carry/,
    );
  });

  it('a 2025-11-25 task ({ task }) the client did not ask for is checked as the complete result it is read as', async () => {
    const error = await sdk
      .sdkRequest(client)('tools/call', { name: 'legacy-task' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/Invalid result for tools\/call: .*must have required property 'content'/);
  });

  it('a complete result passes, typed complete', async () => {
    const result = await sdk.sdkRequest(client)('tools/call', { name: 'plain' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'done' }], resultType: 'complete' });
  });
});

describe('byResultType: a result checked by the variant its resultType names', () => {
  it('a complete result that another variant would accept is refused by the complete one', async () => {
    const schema = sdk.RESULT_SCHEMAS['tools/call']['~standard'];
    expect(schema.validate({ ...TASK, resultType: 'complete' }).issues).toEqual([
      expect.objectContaining({ message: "must have required property 'content'" }),
    ]);
    expect(schema.validate({ resultType: 'task', ...TASK }).issues).toBeUndefined();
    expect(schema.validate({ resultType: 'tsak', ...TASK }).issues).toEqual([
      { message: 'resultType must be one of input_required, complete, task', path: ['resultType'] },
    ]);
  });
});
