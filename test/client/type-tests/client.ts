/**
 * Type tests for the generated 2025-11-25 McpClient. Not part of the repo's typecheck: types.test.ts
 * compiles it next to freshly generated output (`./generated/`). Every `@ts-expect-error [tag]` is
 * checked to become unused when the generated `ClientCalls` is loosened to `any`, unless the test
 * lists it as independent of it (a misspelled stub fails on the class shape alone).
 */
import {
  createInMemoryPair,
  McpClient,
  type CallToolRequestParams,
  type CallToolResult,
  type CreateTaskResult,
  type ListToolsResult,
} from './generated/index.js';

const client = new McpClient(createInMemoryPair()[0], { clientInfo: { name: 'types', version: '0' } });

export async function positive(): Promise<void> {
  const result: CallToolResult = await client.tools.call({ name: 'echo', arguments: { message: 'hi' } });
  const text: string | undefined = result.content[0]?.type === 'text' ? result.content[0].text : undefined;
  void text;
  const flag: boolean | undefined = result.isError;
  void flag;
  // Optional params stay optional.
  const tools: ListToolsResult = await client.tools.list();
  await client.tools.list({ cursor: 'next' });
  await client.resources.templates.list();
  await client.ping();
  await client.request('tools/list');
  await client.request(
    'tools/call',
    { name: 'echo' },
    { onProgress: (p) => void p.progress, signal: AbortSignal.timeout(10) },
  );
  void tools.tools[0]?.inputSchema.properties;
  client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///tmp' }] }));
}

export async function negative(): Promise<void> {
  // @ts-expect-error [misspelled-stub]
  await client.tools.cal({ name: 'echo' });
  // @ts-expect-error [misspelled-request]
  await client.request('tools/cal', { name: 'echo' });
  // @ts-expect-error [wrong-params]
  await client.tools.call({ name: 5 });
  // @ts-expect-error [missing-params]
  await client.tools.call();
  // @ts-expect-error [missing-required-field]
  await client.tools.call({ arguments: {} });
  // @ts-expect-error [request-wrong-params]
  await client.request('tools/call', { name: 5 });
  // @ts-expect-error [request-missing-params]
  await client.request('tools/call');
  const result = await client.tools.call({ name: 'echo' });
  // Results are open (the spec's Result has an index signature): a misspelled field is `unknown`.
  // @ts-expect-error [unknown-result-field]
  void result.contents.length;
  const listed = await client.request('tools/list');
  // @ts-expect-error [unknown-request-result-field]
  void listed.tool.length;
}

// Task-augmented requests (2025-11-25, issue 35 item 7): with `task` a call is answered with the created
// task, without it with its result, and with params whose `task` may be set, with either; the client's
// handler of a task-augmented request may answer with a created task, no cast.
export async function taskAugmented(params: CallToolRequestParams): Promise<void> {
  const created: CreateTaskResult = await client.tools.call({ name: 'echo', task: { ttl: 1000 } });
  const plain: CallToolResult = await client.tools.call({ name: 'echo' });
  const either: CallToolResult | CreateTaskResult = await client.tools.call(params);
  void [created.task.taskId, plain.content, either];
  client.setRequestHandler('elicitation/create', (request) =>
    request.task === undefined
      ? { action: 'decline' }
      : { task: { taskId: 't', status: 'working', createdAt: '', lastUpdatedAt: '', ttl: request.task.ttl ?? 0 } },
  );
  // @ts-expect-error [task-call-is-created-task]
  const notPlain: CallToolResult = await client.tools.call({ name: 'echo', task: { ttl: 1000 } });
  // @ts-expect-error [plain-call-is-no-task]
  const notCreated: CreateTaskResult = await client.tools.call({ name: 'echo' });
  // @ts-expect-error [maybe-task-call-is-either]
  const notSure: CallToolResult = await client.tools.call(params);
  void [notPlain, notCreated, notSure];
}
