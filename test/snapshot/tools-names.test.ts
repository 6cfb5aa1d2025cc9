/**
 * Every tool name the spec allows reaches generated code intact: `__proto__`, `constructor`, `toString` and a name
 * with a leading digit (its types get the stem first: `Tool1StToolArguments`), a prompt and a property named
 * `__proto__`. The generated client calls each through the generated toolsServer, in memory; the type tests
 * (type-tests/names.ts, compiled by tools-types.test.ts) show the same names typed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/generate.js';
import { buildWithTools } from './tools-build.js';

const NAMES_SNAPSHOT = join(ROOT, 'test', 'fixtures', 'snapshots', 'names.snapshot.json');
type Json = Record<string, any>;
const text = (value: string) => ({ content: [{ type: 'text', text: value }] });
/** An object of own members, `__proto__` included (given as pairs: an object literal would set the prototype). */
const own = (members: [string, unknown][]): Json => {
  const out: Json = {};
  for (const [key, value] of members)
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
};

describe('tools named __proto__, constructor, toString and 1st-tool', () => {
  let gen: Json;
  let client: Json;
  let types = '';

  beforeAll(async () => {
    const build = await buildWithTools('tools-names', { tools: NAMES_SNAPSHOT });
    types = readFileSync(join(build.dir, 'generated', 'tool-types.ts'), 'utf8');
    gen = await build.load('index.js');
    // As a user writes them, with computed keys (`{ ['__proto__']: … }`): own members, never the prototype.
    const handlers = own([
      [
        '__proto__',
        (args: Json) => ({
          ...text(`proto ${String(Object.getOwnPropertyDescriptor(args, '__proto__')?.value)}`),
          structuredContent: { constructor: 'c' },
        }),
      ],
      ['constructor', () => text('ctor')],
      ['toString', (args: Json) => text(`toString ${String(args['valueOf'])}`)],
      ['1st-tool', (args: Json) => text(`first ${args['n']}`)],
    ]);
    const prompts = own([['__proto__', () => ({ messages: [] })]]);
    const server = gen.createServer(gen.toolsServer({ tools: handlers, prompts }), {
      serverInfo: { name: 'names', version: '1.0.0' },
    });
    const [clientSide, serverSide] = gen.createInMemoryPair();
    await server.connect(serverSide);
    client = gen.createToolsClient(clientSide, { clientInfo: { name: 'c', version: '1' } });
    await client.connect();
  });

  it('types named safely: the stem before a leading digit, PascalCase otherwise', () => {
    for (const name of [
      'Tool1StToolArguments',
      'ProtoArguments',
      'ProtoStructuredContent',
      'ConstructorArguments',
      'ToStringArguments',
      'ProtoPromptArguments',
    ])
      expect(types).toContain(`export interface ${name} `);
  });

  it('each tool is listed and called by its own name', async () => {
    const listed = await client.tools.list();
    expect(listed.tools.map((t: Json) => t.name).sort()).toEqual(['1st-tool', '__proto__', 'constructor', 'toString']);
    expect(Object.keys(client.tool).sort()).toEqual(['1st-tool', '__proto__', 'constructor', 'toString']);
    const proto = await client.tool['__proto__'](JSON.parse('{"__proto__":"x"}'));
    expect(proto.content).toEqual(text('proto x').content);
    expect(proto.structuredContent).toEqual({ constructor: 'c' });
    expect((await client.tool['constructor']()).content).toEqual(text('ctor').content);
    expect((await client.tool['toString']({ valueOf: true })).content).toEqual(text('toString true').content);
    expect((await client.tool['1st-tool']({ n: 1 })).content).toEqual(text('first 1').content);
  });

  it('arguments are checked under those names too: a missing __proto__ property, a string for an integer', async () => {
    await expect(client.tool['__proto__']({})).rejects.toMatchObject({ code: -32602 });
    await expect(client.tool['1st-tool']({ n: 'one' })).rejects.toThrow(/\/n must be integer/);
    await expect(client.prompt['__proto__']({})).rejects.toMatchObject({ code: -32602 });
  });
});
