/**
 * Issue 43: a server's requests of a vendor extension go only to a client that declared the extension. A
 * generated 2025-11-25 server with an extension that has a server→client request (`acme/jobs.reset`) refuses a
 * handler's `ctx.request` for it before sending when the client's `initialize` declared no
 * `capabilities.extensions["acme/jobs"]` (the tool answers isError naming it, as for a core capability), and
 * sends it when the client did.
 */
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generated } from '../helpers/generate.js';
import { ROOT } from '../helpers/paths.js';
import { importGenerated } from '../e2e-extensions/helpers.js';

const EXTENSION = join(ROOT, 'test/fixtures/extensions/rules/valid-no-params.json');
let gen: Record<string, any>;
const cleanups: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  gen = await importGenerated('extension-requests', await generated('2025-11-25', { extensions: [EXTENSION] }));
}, 120_000);
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function session(capabilities: object) {
  const server = gen.createServer(
    {
      'tools/call': async (_params: unknown, ctx: any) => {
        await ctx.request('acme/jobs.reset');
        return { content: [{ type: 'text', text: 'reset' }] };
      },
    },
    { serverInfo: { name: 'ext', version: '1' } },
  );
  const [a, b] = gen.createInMemoryPair();
  await server.connect(b);
  const peer = new gen.RpcPeer(a, {});
  const asked: string[] = [];
  peer.fallbackRequestHandler = (method: string) => (asked.push(method), {});
  await peer.start();
  cleanups.push(() => peer.close());
  await peer.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities,
    clientInfo: { name: 'raw', version: '0' },
  });
  await peer.notify('notifications/initialized');
  return { peer, asked };
}

describe("a server's request of a vendor extension", () => {
  it('is not sent to a client that did not declare the extension: the tool answers isError naming it', async () => {
    const { peer, asked } = await session({});
    const result = await peer.request('tools/call', { name: 'reset' });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe(
      'acme/jobs.reset needs the client capability extensions["acme/jobs"], which the client did not declare: not sent',
    );
    expect(asked).toEqual([]);
  });

  it('is sent to a client that declared it', async () => {
    const { peer, asked } = await session({ extensions: { 'acme/jobs': {} } });
    expect((await peer.request('tools/call', { name: 'reset' })).content[0].text).toBe('reset');
    expect(asked).toEqual(['acme/jobs.reset']);
  });
});
