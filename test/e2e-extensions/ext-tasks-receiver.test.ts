/**
 * The official `@modelcontextprotocol/ext-tasks` 0.2.2 receiver, bound to the v2 SDK `Client` 2.4.0, against
 * a generated server: the receiver implements only the 2025-11-25 tasks (a server asks a client for
 * task-augmented sampling or elicitation), which SEP-2663 replaces with the tasks extension, so this
 * direction runs the generated 2025-11-25 server — a tools/call handler sends a task-augmented
 * elicitation/create, polls the client's task with tasks/get and reads the answer with tasks/result.
 * In-process over the in-memory pair; the generated module is imported through vite.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { bindTaskReceiver } from '@modelcontextprotocol/ext-tasks/receiver';
import { createInMemoryPair } from '@mcp-typegen/runtime';
import { describe, expect, it } from 'vitest';
import { generated, tempDir, writeFiles } from '../helpers/generate.js';

type Json = Record<string, any>;

async function importGenerated(version: '2025-11-25', extensions: string[]): Promise<Json> {
  const dir = tempDir('ext-tasks-receiver');
  writeFiles(join(dir, 'generated'), (await generated(version, { extensions })).files);
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  return import(join(dir, 'generated', 'index.ts'));
}
describe('ext-tasks 0.2.2 receiver (v2 SDK Client) ← generated 2025-11-25 server', () => {
  it('a task-augmented elicitation/create from a tools/call handler, polled with tasks/get, read with tasks/result', async () => {
    const gen2025: Json = await importGenerated('2025-11-25', []);
    const seen: string[] = [];
    const server = gen2025.createServer(
      {
        async 'tools/call'(params: Json, ctx: Json) {
          const created = await ctx.request('elicitation/create', {
            mode: 'form',
            message: 'Your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
            task: { ttl: 60_000 },
          });
          const taskId: string = created.task.taskId;
          seen.push(`created ${created.task.status}`);
          let task = created.task;
          for (let i = 0; i < 50 && task.status !== 'completed'; i++) {
            await new Promise((resolve) => setTimeout(resolve, 5));
            task = await ctx.request('tasks/get', { taskId });
          }
          seen.push(`polled ${task.status}`);
          const answer = await ctx.request('tasks/result', { taskId });
          return { content: [{ type: 'text', text: `${params.name}: hello ${answer.content.name}` }] };
        },
        'notifications/tasks/status'(params: Json) {
          seen.push(`status ${params.status}`);
        },
      },
      { serverInfo: { name: 'generated-2025-server', version: '1.0.0' } },
    );
    const [clientSide, serverSide] = createInMemoryPair();
    await server.connect(serverSide);
    const client = new V2Client(
      { name: 'ext-tasks-receiver', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    const receiver = bindTaskReceiver(client as never, {
      methods: { 'elicitation/create': true },
      elicitation: async (request) => {
        seen.push(`elicit ${String(request.params.message)}`);
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });
    client.registerCapabilities({ tasks: receiver.capabilities } as never);
    try {
      await client.connect(clientSide as never);
      const result = await client.callTool({ name: 'ask', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'ask: hello Ada' }]);
    } finally {
      receiver.close();
      await client.close();
    }
    // The receiver reports the task input_required at once (it is waiting on the user), then completed.
    expect(seen).toEqual(
      expect.arrayContaining(['created input_required', 'elicit Your name?', 'status completed', 'polled completed']),
    );
  }, 300_000);
});
