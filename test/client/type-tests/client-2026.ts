/**
 * Type tests for the generated 2026-07-28 McpClient (`./generated-2026/`): per-request `_meta` and the
 * input-required retry fields are filled in by the client, so callers never pass them.
 */
import {
  createInMemoryPair,
  McpClient,
  type CallToolResult,
  type InputRequiredResult,
  type ListToolsResult,
} from './generated-2026/index.js';

const client = new McpClient(createInMemoryPair()[0], { clientInfo: { name: 'types', version: '0' } });

export async function positive2026(): Promise<void> {
  const tools: ListToolsResult = await client.tools.list();
  void tools;
  const result: CallToolResult = await client.tools.call({ name: 'echo', arguments: { a: 1 } });
  void result;
  await client.tools.call({ name: 'echo', _meta: { 'example.com/trace': 'abc' } });
  await client.request('tools/list');
  await client.server.discover();
  client.setRequestHandler('elicitation/create', (params) => ({ action: 'accept', content: { who: params.message } }));
}

export async function negative2026(): Promise<void> {
  // @ts-expect-error [2026-missing-required-field]
  await client.tools.call({});
  // @ts-expect-error [2026-wrong-params]
  await client.tools.call({ name: 'echo', arguments: 'nope' });
  // @ts-expect-error [2026-missing-params]
  await client.request('tools/call');
  // The client fills in the required `_meta` keys, but a known key the caller passes keeps its type.
  // @ts-expect-error [2026-wrong-meta-key]
  await client.tools.call({ name: 'echo', _meta: { progressToken: { not: 'a token' }, 'com.acme/trace': 'abc' } });
  type Final = Awaited<ReturnType<typeof client.tools.call>>;
  // No member of the caller's result is an InputRequiredResult (results are open, so test the union).
  // @ts-expect-error [2026-input-required-is-resolved]
  const inputRequired: Extract<Final, { inputRequests: unknown }> = {} as InputRequiredResult;
  void inputRequired;
}
