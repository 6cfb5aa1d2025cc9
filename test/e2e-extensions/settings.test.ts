/**
 * Issue 35, item 3: extension settings. An extension whose settings schema requires `region`
 * (test/fixtures/ext-e2e/settings/geo.extension.json), generated for 2025-11-25 and 2026-07-28:
 * - a client or a server that would advertise settings the schema refuses fails at construction, naming
 *   what to set (it used to advertise `{}` and fail at connect with -32602, or fall back silently);
 * - with settings, each side reads the other's with `extensionSettings(...)` (typed: see
 *   test/fixtures/ext-e2e/type-tests/2026-07-28/settings-types.ts);
 * - a 2026-07-28 client whose server/discover the server refuses with -32602 fails with that error (which
 *   says why) and does not fall back to `initialize`.
 * Generated in process, transpiled, run over the in-memory pair.
 */
import { join } from 'node:path';
import { createInMemoryPair } from '@mcp-typegen/runtime';
import { describe, expect, it } from 'vitest';
import { generated } from '../helpers/generate.js';
import { FIXTURES, importGenerated } from './helpers.js';

type Json = Record<string, any>;
const GEO = join(FIXTURES, 'settings', 'geo.extension.json');
const ID = 'com.example/geo';
const VERSIONS = ['2025-11-25', '2026-07-28'] as const;

const builds = new Map<string, Promise<Json>>();
function build(version: (typeof VERSIONS)[number], extensions = [GEO]): Promise<Json> {
  const key = `${version}-${extensions.length}`;
  const made = builds.get(key) ?? generated(version, { extensions }).then((o) => importGenerated(`settings-${key}`, o));
  builds.set(key, made);
  return made;
}

const clientInfo = { name: 'c', version: '1' };
const serverInfo = { name: 's', version: '1' };
const refused = (peer: string, path: string, text: string) =>
  `This ${peer} advertises the ${ID} extension with settings its schema refuses: capabilities.extensions["${ID}"]${path} ${text}; set capabilities.extensions["${ID}"]${path} in the ${peer}'s options`;

describe.each(VERSIONS)('%s: settings a peer advertises satisfy the schema, or construction fails', (version) => {
  it('no settings where the schema requires one: the client and the server throw, naming what to set', async () => {
    const gen = await build(version);
    const [a] = createInMemoryPair();
    expect(() => gen.createClient(a, { clientInfo })).toThrow(refused('client', '.region', 'is required'));
    const handlers = { [`${ID}.locate`]: () => ({ region: 'eu' }) };
    expect(() => gen.createServer(handlers, { serverInfo })).toThrow(refused('server', '.region', 'is required'));
    const caps = { extensions: { [ID]: { region: 'eu', maxResults: 0 } } };
    expect(() => gen.createServer(handlers, { serverInfo, capabilities: caps })).toThrow(
      refused('server', '.maxResults', 'must be >= 1'),
    );
    const extra = { extensions: { [ID]: { region: 'eu', regoin: 'eu' } } };
    expect(() => gen.createServer(handlers, { serverInfo, capabilities: extra })).toThrow(
      `capabilities.extensions["${ID}"].regoin is not one of its settings; remove capabilities.extensions["${ID}"].regoin in the server's options`,
    );
    // A server that handles none of the extension's methods does not advertise it: nothing to check.
    expect(() => gen.createServer({}, { serverInfo })).not.toThrow();
  });

  it("with settings, each side reads the other's, typed by the accessor", async () => {
    const gen = await build(version);
    const [clientSide, serverSide] = createInMemoryPair();
    const handlers = {
      [`${ID}.locate`]: (_p: Json, ctx: Json) => ({
        region: gen.extensionSettings(ctx.session.clientCapabilities, ID)?.region ?? 'none',
      }),
    };
    const capabilities = (region: string) => ({ extensions: { [ID]: { region } } });
    await gen.createServer(handlers, { serverInfo, capabilities: capabilities('eu') }).connect(serverSide);
    const client = gen.createClient(clientSide, { clientInfo, capabilities: capabilities('us'), eraCache: new Map() });
    await client.connect();
    expect(gen.extensionSettings(client.serverCapabilities, ID)).toEqual({ region: 'eu' });
    expect(gen.extensionSettings(client.serverCapabilities, 'com.example/none')).toBeUndefined();
    expect(await client.com.example.geo.locate({ place: 'Oslo' })).toMatchObject({ region: 'us' });
    await client.close();
  });
});

describe('a 2026-07-28 client never falls back silently on -32602', () => {
  it('a server refusing its server/discover params: connect fails with the reason, no initialize is sent', async () => {
    const server = await build('2026-07-28');
    const plain = await build('2026-07-28', []);
    const [clientSide, serverSide] = createInMemoryPair();
    const sent: string[] = [];
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message: Json) => (sent.push(message.method), send(message as never));
    const capabilities = { extensions: { [ID]: { region: 'eu' } } };
    await server
      .createServer({ [`${ID}.locate`]: () => ({ region: 'eu' }) }, { serverInfo, capabilities })
      .connect(serverSide);
    // A client generated without the extension, told to advertise it with settings the server's schema refuses.
    const client = plain.createClient(clientSide, {
      clientInfo,
      capabilities: { extensions: { [ID]: { region: 7 } } },
      eraCache: new Map(),
    });
    // The server's own -32602 (naming what it refused in the _meta), not a fallback that fails later.
    await expect(client.connect()).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid params: \/_meta\//),
    });
    expect(sent).toEqual(['server/discover']);
  });
});
