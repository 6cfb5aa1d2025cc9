/**
 * The official `@modelcontextprotocol/ext-tasks` 0.2.2 requester — on the v2 SDK `Client` 2.4.0, as its
 * README wires it for a 2026-07-28 server (`rawDispatch` + `v2RequestFraming`) — against a server
 * generated with `--ext io.modelcontextprotocol/tasks`, in-process over the in-memory pair: a tools/call the
 * server turns into a task, polled with tasks/get until input_required, answered through tasks/update by
 * its input handler, completed; a second task cancelled through tasks/cancel; an immediate result for a
 * plain tool. The generated module is imported in-process (vite compiles it), so the handlers here are not
 * type-checked; the typed, cast-free server and client of the same flow are tasks-flow.ts (tasks.test.ts).
 * The SDK wiring needs `as never` where its option types name its own transports and codecs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { ProtocolError, RpcPeer, createInMemoryPair } from '@mcp-typegen/runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { generated, tempDir, writeFiles } from '../helpers/generate.js';

const TASKS = 'io.modelcontextprotocol/tasks';
type Json = Record<string, any>;
let gen: Json;

beforeAll(async () => {
  const dir = tempDir('ext-tasks-interop');
  writeFiles(join(dir, 'generated'), (await generated('2026-07-28', { extensions: [TASKS] })).files);
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  gen = await import(join(dir, 'generated', 'index.ts'));
}, 300_000);

/** A task server written against the generated handler types: tools become tasks when the client allows. */
function taskServer(seen: string[]) {
  const tasks = new Map<string, Json>();
  let clock = 0;
  const now = () => new Date(Date.UTC(2026, 6, 28, 0, 0, clock++)).toISOString();
  return gen.createServer(
    {
      'tools/list'() {
        const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });
        return { tools: [tool('greet'), tool('slow'), tool('echo')] };
      },
      'tools/call'(params: Json, ctx: Json) {
        seen.push(`tools/call ${params.name}`);
        const wantsTasks = TASKS in (ctx.session.clientCapabilities?.extensions ?? {});
        if (!wantsTasks || params.name === 'echo') return { content: [{ type: 'text', text: `ran ${params.name}` }] };
        const taskId = `task-${tasks.size + 1}`;
        const task = {
          taskId,
          status: 'working',
          createdAt: now(),
          lastUpdatedAt: now(),
          ttlMs: 60_000,
          pollIntervalMs: 1,
        };
        tasks.set(taskId, { ...task, polls: 0, tool: params.name });
        return { ...task, resultType: 'task' };
      },
      'tasks/get'(params: Json) {
        seen.push(`tasks/get ${params.taskId}`);
        const { polls, tool, ...task } = tasks.get(params.taskId) ?? {};
        if (!task.taskId) throw new ProtocolError(-32602, `no task ${params.taskId}`);
        tasks.set(params.taskId, { ...task, polls: polls + 1, tool });
        if (tool === 'greet' && task.status === 'working' && polls >= 1) {
          const waiting = {
            ...task,
            status: 'input_required',
            lastUpdatedAt: now(),
            inputRequests: {
              name: {
                method: 'elicitation/create',
                params: {
                  mode: 'form',
                  message: 'Your name?',
                  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
                },
              },
            },
          };
          tasks.set(params.taskId, { ...waiting, polls: polls + 1, tool });
          return { ...waiting, resultType: 'complete' };
        }
        return { ...task, resultType: 'complete' };
      },
      'tasks/update'(params: Json) {
        seen.push(`tasks/update ${params.taskId} ${JSON.stringify(params.inputResponses)}`);
        const task = tasks.get(params.taskId)!;
        const name = params.inputResponses.name?.content?.name ?? 'nobody';
        const { inputRequests: _answered, ...rest } = task;
        tasks.set(params.taskId, {
          ...rest,
          status: 'completed',
          lastUpdatedAt: now(),
          result: { resultType: 'complete', content: [{ type: 'text', text: `hello ${name}` }], isError: false },
        });
        return { resultType: 'complete' };
      },
      'tasks/cancel'(params: Json) {
        seen.push(`tasks/cancel ${params.taskId}`);
        const task = tasks.get(params.taskId)!;
        tasks.set(params.taskId, { ...task, status: 'cancelled', lastUpdatedAt: now() });
        return { resultType: 'complete' };
      },
    },
    { serverInfo: { name: 'generated-tasks-server', version: '1.0.0' } },
  );
}

async function connect(server: Json) {
  const [clientSide, serverSide] = createInMemoryPair();
  await server.connect(serverSide);
  const capabilities = { extensions: { [TASKS]: {} } };
  const clientInfo = { name: 'ext-tasks-requester', version: '1.0.0' };
  const client = new V2Client(clientInfo, { capabilities, versionNegotiation: { mode: 'auto' } } as never);
  await client.connect(clientSide as never);
  // rawDispatch: task traffic the SDK's codecs refuse goes out as plain JSON-RPC on a second connection
  // (2026-07-28 requests stand alone, so any connection to the server will do).
  const [rawSide, rawServerSide] = createInMemoryPair();
  await server.connect(rawServerSide);
  const raw = new RpcPeer(rawSide);
  await raw.start();
  const rawDispatch = async (request: any) => {
    try {
      return { jsonrpc: '2.0', id: request.id, result: await raw.request(request.method, request.params) };
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      return { jsonrpc: '2.0', id: request.id, error: { code: error.code, message: error.message } };
    }
  };
  return { client, raw, rawDispatch, clientInfo, capabilities };
}

describe('ext-tasks 0.2.2 requester (v2 SDK Client) → generated tasks-extension server', () => {
  it('creates a task by tools/call, polls it, answers input_required through tasks/update, cancels another', async () => {
    const seen: string[] = [];
    const server = taskServer(seen);
    const { client, raw, rawDispatch, clientInfo, capabilities } = await connect(server);
    const inputs: Json[] = [];
    const session = createTaskSessionFromClient(
      client as never,
      {
        endpointId: 'generated-server',
        rawDispatch: rawDispatch as never,
        v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo, clientCapabilities: capabilities },
        onInputRequest: async (request: Json) => {
          inputs.push({ kind: request.kind, message: request.params.message });
          return { action: 'accept', content: { name: 'Ada' } } as never;
        },
      } as never,
    );
    try {
      const execution = await session.callTool('greet', {});
      expect(execution.kind).toBe('task');
      const { outcome } = await execution.settle();
      expect(resultFromTaskOutcome(outcome)).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: 'hello Ada' }],
        isError: false,
      });
      expect(inputs).toEqual([{ kind: 'elicitation', message: 'Your name?' }]);

      const slow = await session.callTool('slow', {});
      expect(slow.kind).toBe('task');
      await slow.cancel();
      const cancelled = await slow.result();
      expect(cancelled.status).toBe('cancelled');

      const plain = await session.callTool('echo', {});
      expect(plain.kind).toBe('immediate');
      expect(resultFromTaskOutcome(await plain.result())).toMatchObject({
        content: [{ type: 'text', text: 'ran echo' }],
      });
    } finally {
      await session.close();
      await raw.close();
      await client.close();
    }
    expect(seen).toEqual(
      expect.arrayContaining([
        'tools/call greet',
        'tasks/get task-1',
        'tasks/update task-1 {"name":{"action":"accept","content":{"name":"Ada"}}}',
        'tools/call slow',
        'tasks/cancel task-2',
        'tools/call echo',
      ]),
    );
  });
});
