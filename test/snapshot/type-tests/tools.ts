/**
 * Type tests for the typed surface generated from the server-everything snapshot (`./generated/`, with
 * `tools`). Compiled by tools-types.test.ts; every `@ts-expect-error [tag]` must become unused once the
 * generated surface types are loosened to `any`.
 */
import {
  createInMemoryPair,
  createServer,
  createToolsClient,
  toolsServer,
  type GetStructuredContentStructuredContent,
  type ResourceTemplateVariables,
  type ToolCalls,
} from './generated/index.js';

const client = createToolsClient(createInMemoryPair()[0], { clientInfo: { name: 'types', version: '0' } });

export async function positive(): Promise<void> {
  const echoed = await client.tool.echo({ message: 'hi' });
  void echoed.content;
  const result = await client.tool['get-structured-content']({ location: 'Chicago' });
  if (!result.isError) {
    const weather: GetStructuredContentStructuredContent = result.structuredContent;
    const celsius: number = result.structuredContent.temperature;
    void weather;
    void celsius;
  }
  // Arguments nothing requires may be left out; options come second.
  await client.tool['get-env']();
  await client.tool['get-sum']({ a: 1, b: 2 }, { signal: AbortSignal.timeout(10) });
  await client.prompt['args-prompt']({ city: 'Lisbon', state: 'LX' });
  const variables: ResourceTemplateVariables['demo://resource/dynamic/text/{resourceId}'] = { resourceId: '1' };
  void variables;
}

/** Every tool has its handler; prompts too. */
const tools = {
  echo: (args: { message: string }) => ({ content: [{ type: 'text' as const, text: args.message }] }),
  'get-annotated-message': () => ({ content: [] }),
  'get-env': () => ({ content: [] }),
  'get-resource-links': () => ({ content: [] }),
  'get-resource-reference': () => ({ content: [] }),
  'get-structured-content': async () => ({
    content: [],
    structuredContent: { temperature: 21, conditions: 'sunny', humidity: 40 },
  }),
  'get-sum': ({ a, b }: { a: number; b: number }) => ({ content: [{ type: 'text' as const, text: String(a + b) }] }),
  'get-tiny-image': () => ({ content: [] }),
  'gzip-file-as-resource': () => ({ content: [] }),
  'simulate-research-query': () => ({ content: [] }),
  'toggle-simulated-logging': () => ({ content: [] }),
  'toggle-subscriber-updates': () => ({ content: [] }),
  'trigger-long-running-operation': () => ({ content: [] }),
};
const prompts = {
  'args-prompt': (args: { city: string }) => ({
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: args.city } }],
  }),
  'completable-prompt': () => ({ messages: [] }),
  'resource-prompt': () => ({ messages: [] }),
  'simple-prompt': () => ({ messages: [] }),
};

void createServer(
  { ...toolsServer({ tools, prompts }), 'resources/read': () => ({ contents: [] }) },
  { serverInfo: { name: 'typed', version: '0' } },
);

export async function negative(): Promise<void> {
  // @ts-expect-error [misspelled-tool]
  await client.tool.ecko({ message: 'hi' });
  // @ts-expect-error [wrong-argument-type]
  await client.tool['get-sum']({ a: 1, b: 'two' });
  // @ts-expect-error [missing-argument]
  await client.tool.echo({});
  // @ts-expect-error [unknown-argument]
  await client.tool.echo({ message: 'hi', loud: true });
  // @ts-expect-error [misspelled-prompt-argument]
  await client.prompt['args-prompt']({ cty: 'Lisbon' });
  const result = await client.tool['get-structured-content']({ location: 'Chicago' });
  if (!result.isError) {
    // @ts-expect-error [structured-content-typed]
    const wrong: string = result.structuredContent.temperature;
    void wrong;
  }
  // @ts-expect-error [missing-handler]
  toolsServer({ tools: { echo: tools.echo }, prompts });
  toolsServer({
    tools: {
      ...tools,
      'get-structured-content': () => ({
        content: [],
        // @ts-expect-error [handler-wrong-structured-content]
        structuredContent: { temperature: 'warm', conditions: '', humidity: 1 },
      }),
    },
    prompts,
  });
  toolsServer({
    tools: {
      ...tools,
      // @ts-expect-error [handler-wrong-argument-type]
      'get-sum': (args: { a: string; b: number }) => ({ content: [{ type: 'text' as const, text: args.a }] }),
    },
    prompts,
  });
}

/** Drift (issue 44, item 5): the removed and changed tools are named by the snapshot's tool-name union. */
export async function drift(): Promise<void> {
  const check = (change: Awaited<ReturnType<typeof client.drift.check>>): void => {
    for (const name of change.removed) {
      const known: keyof ToolCalls = name;
      void known;
    }
    // Added tools are the server's new ones: any name.
    void change.added.includes('a-new-tool');
    // @ts-expect-error [drift-removed-name]
    void change.removed.includes('no-such-tool');
    // @ts-expect-error [drift-changed-name]
    void change.changed.some((c) => c.name === 'no-such-tool');
  };
  check(await client.drift.check());
  const stop = client.drift.on((change) => {
    // @ts-expect-error [drift-event-name]
    void change.removed.includes('no-such-tool');
  });
  stop();
}
