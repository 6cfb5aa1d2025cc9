/**
 * Issue 35, item 4: 2026-07-28 vendor results follow the core result conventions. A vendor result that names
 * no `resultType` gets it (required, as `Result` types it), and one that reuses CacheableResult gets the
 * cache defaults: a handler may leave them out (WithDefaults) and the server fills them in; a 2026-07-28
 * client that fell back to a legacy (2025-11-25) server, whose results carry none of them, fills them in
 * too. Generated in process, transpiled, run over the in-memory pair.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generated, type Version } from '../helpers/generate.js';
import { FIXTURES, importGenerated } from './helpers.js';

type Json = Record<string, any>;
const DIR = join(FIXTURES, 'vendor-results');
const FILES = { '2026-07-28': 'modern.extension.json', '2025-11-25': 'legacy.extension.json' } as const;

/** Generated output with the fixture extension of that version: its index module and its sources. */
async function build(version: keyof typeof FILES): Promise<{ index: Json; files: Map<string, string> }> {
  const output = await generated(version as Version, { extensions: [join(DIR, FILES[version])] });
  const index = await importGenerated(`vendor-results-${version}`, output);
  return { index, files: new Map(output.files.map((f) => [f.path, f.contents])) };
}

const HANDLERS = {
  'com.example/notes.list': () => ({ notes: ['a'] }),
  'com.example/notes.add': (p: Json) => ({ id: `#${p.text}` }),
};

async function call(serverVersion: keyof typeof FILES) {
  const modern = await build('2026-07-28');
  const server = serverVersion === '2026-07-28' ? modern : await build(serverVersion);
  const [clientSide, serverSide] = modern.index.createInMemoryPair();
  const options = { serverInfo: { name: 's', version: '1' }, validateResults: true };
  await server.index.createServer(HANDLERS, options).connect(serverSide);
  const client = modern.index.createClient(clientSide, {
    clientInfo: { name: 'c', version: '1' },
    eraCache: new Map(),
  });
  await client.connect();
  try {
    return {
      era: client.era as string,
      list: (await client.com.example.notes.list()) as Json,
      add: (await client.com.example.notes.add({ text: 'x' })) as Json,
    };
  } finally {
    await client.close();
  }
}

describe('2026-07-28 vendor results: resultType and the cache defaults, as core results get them', () => {
  it('the types: resultType required on every vendor result, the handler may leave the defaulted fields out', async () => {
    const { files } = await build('2026-07-28');
    const types = files.get('types.ts') ?? '';
    expect(types).toMatch(/export interface ComExampleNotesAddResult \{[^}]*resultType: string;/);
    const server = files.get('server.ts') ?? '';
    expect(server).toContain("WithDefaults<T.ComExampleNotesListResult, 'resultType' | 'cacheScope' | 'ttlMs'>");
    expect(server).toContain("WithDefaults<T.ComExampleNotesAddResult, 'resultType'>");
    const maps = files.get('maps.ts') ?? '';
    expect(maps).toContain("'com.example/notes.list': { cacheScope: 'private', resultType: 'complete', ttlMs: 0 }");
  });

  it('a 2026-07-28 server fills them in (and the filled result validates)', async () => {
    expect(await call('2026-07-28')).toEqual({
      era: 'modern',
      list: expect.objectContaining({ notes: ['a'], resultType: 'complete', cacheScope: 'private', ttlMs: 0 }),
      add: expect.objectContaining({ id: '#x', resultType: 'complete' }),
    });
  });

  it('a 2026-07-28 client that fell back to a 2025-11-25 server fills them in too', async () => {
    const { era, list, add } = await call('2025-11-25');
    expect(era).toBe('legacy');
    expect(list).toEqual({ notes: ['a'], resultType: 'complete', cacheScope: 'private', ttlMs: 0 });
    expect(add).toEqual({ id: '#x', resultType: 'complete' });
  });
});
