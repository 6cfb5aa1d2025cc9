// Round trips, in-process, in a fresh child: our generated client + server over createInMemoryPair vs the
// SDK's Client + Server over its InMemoryTransport, `tools/call` of a trivial tool.
// Usage: node roundtrip.mjs <compiled generated JS dir> <json config>
// Config: { calls, inflight: [1, 64], runs, warmup, clone }. Prints one JSON line of per-run calls/s.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [jsDir, configText] = process.argv.slice(2);
const config = JSON.parse(configText);
const gen = (p) => import(pathToFileURL(join(jsDir, p)).href);
const { createClient } = await gen('client.js');
const { createServer } = await gen('server.js');
const { createInMemoryPair } = await gen('index.js');
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');

const info = { name: 'bench', version: '1.0.0' };
const PARAMS = { name: 'echo', arguments: { text: 'hello' } };
const echo = (params) => ({ content: [{ type: 'text', text: String(params.arguments?.text ?? '') }] });

async function ours() {
  const [clientSide, serverSide] = createInMemoryPair({ clone: config.clone });
  const server = createServer(
    { 'tools/list': () => ({ tools: [] }), 'tools/call': (params) => echo(params) },
    { serverInfo: info },
  );
  await server.connect(serverSide);
  const client = createClient(clientSide, { clientInfo: info });
  await client.connect();
  return { call: () => client.tools.call(PARAMS), close: () => client.close() };
}

async function sdk() {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = new Server(info, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
  server.setRequestHandler(CallToolRequestSchema, (request) => echo(request.params));
  await server.connect(serverSide);
  const client = new Client(info);
  await client.connect(clientSide);
  return { call: () => client.callTool(PARAMS), close: () => client.close() };
}

/** `calls` tools/call with at most `inflight` outstanding; returns calls per second. */
async function drive(side, calls, inflight) {
  let next = 0;
  const worker = async () => {
    while (next < calls) {
      next++;
      const result = await side.call();
      if (result.content?.[0]?.text !== 'hello') throw new Error(`unexpected result ${JSON.stringify(result)}`);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(inflight, calls) }, worker));
  return calls / ((performance.now() - started) / 1000);
}

const sides = { ours: await ours(), sdk: await sdk() };
const out = {};
for (const inflight of config.inflight) {
  const rows = { ours: [], sdk: [] };
  // Warm-up, then alternate the two so machine noise hits both alike.
  for (let i = 0; i < config.warmup; i++)
    for (const name of ['ours', 'sdk']) await drive(sides[name], config.calls, inflight);
  for (let i = 0; i < config.runs; i++) {
    for (const name of i % 2 ? ['sdk', 'ours'] : ['ours', 'sdk'])
      rows[name].push(await drive(sides[name], config.calls, inflight));
  }
  out[inflight] = rows;
}
for (const side of Object.values(sides)) await side.close();
process.stdout.write(JSON.stringify(out) + '\n');
