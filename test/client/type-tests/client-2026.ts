/**
 * Type tests for the generated 2026-07-28 McpClient (`./generated-2026/`): per-request `_meta` and the
 * input-required retry fields are filled in by the client, so callers never pass them.
 */
import {
  connected as connectedClient,
  createInMemoryPair,
  McpClient,
  type CallToolResult,
  type ConnectedMcpClient,
  type LegacyMcpClient,
  type ModernMcpClient,
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

/**
 * After falling back to a legacy server, `connected(client)` types the client by era: the legacy one has the
 * calls 2026-07-28 removed (`ping`, `logging.setLevel`, `resources.subscribe`/`unsubscribe`), the modern
 * one and the unnarrowed union do not.
 */
export async function eras2026(): Promise<void> {
  await client.connect();
  const connected: ConnectedMcpClient = connectedClient(client);
  if (connected.era === 'legacy') {
    const legacy: LegacyMcpClient = connected;
    await legacy.ping();
    await legacy.logging.setLevel({ level: 'debug' });
    await legacy.resources.subscribe({ uri: 'file:///a' });
    await legacy.resources.unsubscribe({ uri: 'file:///a' });
    await legacy.resources.list(); // the modern calls stay
    // @ts-expect-error [2026-legacy-wrong-level]
    await legacy.logging.setLevel({ level: 'verbose' });
  } else {
    const modern: ModernMcpClient = connected;
    // @ts-expect-error [2026-legacy-call-on-modern]
    await modern.ping();
    // @ts-expect-error [2026-legacy-call-on-modern]
    await modern.resources.subscribe({ uri: 'file:///a' });
  }
  // @ts-expect-error [2026-legacy-call-unnarrowed]
  await connected.logging.setLevel({ level: 'debug' });
  // @ts-expect-error [2026-legacy-call-unnarrowed]
  await client.ping();
}
