/**
 * A server made of `toolsServer()` round-trips: snapshot → generate → serve → snapshot gives the same file.
 * The names fixture (tools __proto__, constructor, 1st-tool; a prompt; a resource template, so the server
 * offers resources without resources/list, which the snapshot records as absent) is generated, served by its
 * toolsServer() and captured in memory; the capture is generated, served and captured again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { captureOver } from '../../src/snapshot/capture.js';
import { clientProtocol } from '../../src/snapshot/protocol.js';
import { parseSnapshot, renderSnapshot } from '../../src/load/snapshot-file.js';
import { ROOT, SCHEMA_DIR, tempDir } from '../helpers/generate.js';
import { buildWithTools } from './tools-build.js';

const NAMES = join(ROOT, 'test', 'fixtures', 'snapshots', 'names.snapshot.json');

/** The snapshot of the toolsServer generated from `file`, every handler a stub (listing calls none). */
async function servedSnapshot(file: string, prefix: string): Promise<string> {
  const gen = await (await buildWithTools(prefix, { tools: file })).load('index.js');
  const snapshot = parseSnapshot(readFileSync(file, 'utf8'), file);
  const stubs = (names: string[]) => {
    const out = {};
    for (const name of names)
      Object.defineProperty(out, name, { value: () => ({ content: [], messages: [] }), enumerable: true });
    return out;
  };
  const server = gen.createServer(
    gen.toolsServer({ tools: stubs(Object.keys(snapshot.tools)), prompts: stubs(Object.keys(snapshot.prompts ?? {})) }),
    { serverInfo: snapshot.server },
  );
  const [clientSide, serverSide] = gen.createInMemoryPair();
  await server.connect(serverSide);
  const protocol = await clientProtocol({ schemaDir: SCHEMA_DIR, offline: true });
  return renderSnapshot(await captureOver(clientSide, 'toolsServer', protocol, '0.0.0'));
}

it('snapshot → generate → serve → snapshot: identical; the surface is the one generated from', async () => {
  const first = await servedSnapshot(NAMES, 'roundtrip-1');
  const original = parseSnapshot(readFileSync(NAMES, 'utf8'), NAMES);
  const captured = parseSnapshot(first, 'first');
  expect(captured.tools).toEqual(original.tools);
  expect(Object.hasOwn(captured.tools, '__proto__')).toBe(true);
  expect(captured.prompts).toEqual(original.prompts);
  expect(captured.resourceTemplates).toEqual(original.resourceTemplates);
  // The server offers resources for its templates; it has no resources/list, so there is no resources list.
  expect(captured.capabilities).toHaveProperty('resources');
  expect(captured).not.toHaveProperty('resources');

  const file = join(tempDir('roundtrip'), 'captured.snapshot.json');
  writeFileSync(file, first);
  expect(await servedSnapshot(file, 'roundtrip-2')).toBe(first);
});
