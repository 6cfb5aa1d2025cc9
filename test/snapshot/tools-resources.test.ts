/**
 * Issue 44, item 4: resource templates. The names snapshot's template `notes://{folder}/{name}` gets a typed read
 * on the generated client (`client.resource['notes://{folder}/{name}']({ folder, name })`, the URI expanded per
 * RFC 6570 by url-template) and a typed handler on the generated toolsServer (`resources`), which answers
 * resources/read with the URI's variables read back; a URI no template matches is -32002. Query variables
 * (`{?q,limit}`, templates.snapshot.json) may be omitted: the read leaves them out of the URI, the server out of
 * the handler's variables. Run in memory, client to server; templateMatcher on the operators a template may use.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { templateMatcher } from '../../templates/peer/typed-surface.js';
import { ROOT } from '../helpers/generate.js';
import { buildWithTools } from './tools-build.js';

const NAMES_SNAPSHOT = join(ROOT, 'test', 'fixtures', 'snapshots', 'names.snapshot.json');
type Json = Record<string, any>;
const TEMPLATE = 'notes://{folder}/{name}';

let gen: Json;
let client: Json;
const seen: Json[] = [];

beforeAll(async () => {
  const build = await buildWithTools('tools-names', { tools: NAMES_SNAPSHOT });
  gen = await build.load('index.js');
  const tools = Object.fromEntries(
    // Object.fromEntries makes own members, `__proto__` too.
    Object.keys(JSON.parse(readFileSync(NAMES_SNAPSHOT, 'utf8')).tools).map((name) => [
      name,
      () => ({ content: [], structuredContent: { constructor: 'c' } }),
    ]),
  );
  const resources = {
    [TEMPLATE]: (variables: Json) => {
      seen.push(variables);
      return { contents: [{ uri: `notes://${variables.folder}/${variables.name}`, text: 'a note' }] };
    },
  };
  const server = gen.createServer(
    gen.toolsServer({ tools, prompts: Object.fromEntries([['__proto__', () => ({ messages: [] })]]), resources }),
    {
      serverInfo: { name: 'names', version: '1.0.0' },
    },
  );
  const [clientSide, serverSide] = gen.createInMemoryPair();
  await server.connect(serverSide);
  client = gen.createToolsClient(clientSide, { clientInfo: { name: 'c', version: '1' } });
  await client.connect();
});

describe('a typed read per resource template', () => {
  it('expands the variables into the URI (RFC 6570: reserved characters encoded) and reads it', async () => {
    const result = await client.resource[TEMPLATE]({ folder: 'work notes', name: 'a/b' });
    expect(seen.at(-1)).toEqual({ folder: 'work notes', name: 'a/b' });
    expect(result.contents).toEqual([{ uri: 'notes://work notes/a/b', text: 'a note' }]);
  });

  it('a URI no template matches is -32002, resource not found', async () => {
    const error = await client.request('resources/read', { uri: 'files:///etc/passwd' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32002, message: 'Resource not found: files:///etc/passwd' });
  });
});

describe('resource templates with query variables (RFC 6570 `{?q,limit}`), client to toolsServer', () => {
  const TEMPLATES = join(ROOT, 'test', 'fixtures', 'snapshots', 'templates.snapshot.json');
  let typed: Json;
  beforeAll(async () => {
    const output = await (await buildWithTools('tools-templates', { tools: TEMPLATES })).load('index.js');
    // The handler answers with the variables it was given: what the server read back from the expanded URI.
    const answer = (variables: Json) => ({ contents: [{ uri: 'notes://x', text: JSON.stringify(variables) }] });
    const server = output.createServer(
      output.toolsServer({
        tools: { noop: () => ({ content: [] }) },
        resources: { 'notes://search{?q,limit}': answer, 'notes://{folder}/list{?sort}': answer },
      }),
      { serverInfo: { name: 'templates', version: '1.0.0' } },
    );
    const [clientSide, serverSide] = output.createInMemoryPair();
    await server.connect(serverSide);
    typed = output.createToolsClient(clientSide, { clientInfo: { name: 'c', version: '1' } });
    await typed.connect();
  });

  it.each([
    ['notes://search{?q,limit}', undefined, {}],
    ['notes://search{?q,limit}', {}, {}],
    ['notes://search{?q,limit}', { limit: '5' }, { limit: '5' }],
    ['notes://search{?q,limit}', { q: 'a&b c', limit: '5' }, { q: 'a&b c', limit: '5' }],
    ['notes://{folder}/list{?sort}', { folder: 'work' }, { folder: 'work' }],
    ['notes://{folder}/list{?sort}', { folder: 'work', sort: 'date' }, { folder: 'work', sort: 'date' }],
  ])(
    "%s with %j: omitted query variables are left out of the URI and of the handler's variables",
    async (template, given, expected) => {
      const result = await typed.resource[template](given);
      expect(JSON.parse(result.contents[0].text)).toEqual(expected);
    },
  );
});

describe('templateMatcher: a URI read back by the template, through url-template expansion', () => {
  const match = (template: string, names: string[], uri: string) => templateMatcher(template, names)(uri);
  it.each([
    ['notes://{folder}/{name}', ['folder', 'name'], 'notes://a%20b/c%2Fd', { folder: 'a b', name: 'c/d' }],
    ['notes://{folder}/{name}', ['folder', 'name'], 'notes://a/b/c', undefined],
    ['file:///{+path}', ['path'], 'file:///usr/local/x.txt', { path: 'usr/local/x.txt' }],
    [
      'api://items{/id}{?q,page}',
      ['id', 'q', 'page'],
      'api://items/7?q=x%26y&page=2',
      { id: '7', q: 'x&y', page: '2' },
    ],
    // Query variables are optional (RFC 6570 expands an undefined one to nothing), in any order.
    ['api://items{/id}{?q,page}', ['id', 'q', 'page'], 'api://items/7', { id: '7' }],
    ['api://items{/id}{?q,page}', ['id', 'q', 'page'], 'api://items/7?page=2', { id: '7', page: '2' }],
    ['api://items{/id}{?q,page}', ['id', 'q', 'page'], 'api://items/7?page=2&q=a', { id: '7', q: 'a', page: '2' }],
    ['api://items{/id}{?q,page}', ['id', 'q', 'page'], 'api://items?q=a', undefined],
    ['search://x?fixed=1{&q}', ['q'], 'search://x?fixed=1&q=a%20b', { q: 'a b' }],
    ['search://x?fixed=1{&q}', ['q'], 'search://x?fixed=1', {}],
    [
      'db://{table}{?where}{#part}',
      ['table', 'where', 'part'],
      'db://t?where=1#p/q',
      { table: 't', where: '1', part: 'p/q' },
    ],
    ['db://{table}', ['table'], 'db://%E0%A4%A', undefined],
  ])('%s ← %s', (template, names, uri, expected) => {
    expect(match(template, names, uri)).toEqual(expected);
  });
});
