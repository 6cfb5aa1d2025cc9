/**
 * The surface of test/fixtures/snapshots/names.snapshot.json (`./generated-names/`): tools named `__proto__`,
 * `constructor`, `toString` and `1st-tool` are typed under their own names and compile under the strictest
 * settings. Compiled by tools-types.test.ts (positive only: the loosened copy holds the everything surface).
 */
import {
  createInMemoryPair,
  createToolsClient,
  toolsServer,
  type ProtoStructuredContent,
  type Tool1StToolArguments,
} from './generated-names/index.js';

const client = createToolsClient(createInMemoryPair()[0], { clientInfo: { name: 'names', version: '0' } });

export async function names(): Promise<void> {
  const proto = await client.tool['__proto__']({ ['__proto__']: 'x' });
  if (!proto.isError) {
    const typed: ProtoStructuredContent = proto.structuredContent;
    void typed.constructor.toUpperCase();
  }
  await client.tool['constructor']();
  await client.tool['toString']({ valueOf: true });
  const first: Tool1StToolArguments = { n: 1 };
  await client.tool['1st-tool'](first);
  await client.prompt['__proto__']({ ['__proto__']: 'p' });
}

void toolsServer({
  tools: {
    ['__proto__']: (args) => ({
      content: [{ type: 'text', text: args['__proto__'] }],
      structuredContent: { constructor: 'c' },
    }),
    constructor: () => ({ content: [] }),
    toString: (args) => ({ content: [{ type: 'text', text: String(args.valueOf) }] }),
    '1st-tool': ({ n }) => ({ content: [{ type: 'text', text: String(n + 1) }] }),
  },
  prompts: {
    ['__proto__']: (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: args['__proto__'] } }] }),
  },
});
