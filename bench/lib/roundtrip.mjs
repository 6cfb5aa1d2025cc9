// Round trips in a fresh child: `tools/call` of a trivial tool, our generated client + server against the
// official SDK's Client + Server and against a raw newline-JSON echo (stdio only: the floor), over stdio (a
// spawned server process per side: the headline) or in memory
// (ours with `clone: true`, a JSON-equivalent copy of every message; the SDK's InMemoryTransport copies
// nothing — for information only), or (ours only) over Streamable HTTP on loopback, the generated server in
// this same process (so the process's CPU is both sides').
// Usage: node roundtrip.mjs <compiled generated JS dir> <json config>
// Config: { transport: 'stdio' | 'memory', sides: string[], calls, inflight: number[], runs, warmup } (each
// warm-up is at most 5,000 calls).
// Prints one JSON line: { rate: { side: calls/s[] }, cpuUs: { side: µs per call[] }, serverRssMb, byInflight }
// (rate and cpuUs of the first inflight value; byInflight has all), where
// CPU per call is this process's CPU time plus (over stdio) the server process's, divided by the calls.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [jsDir, configText] = process.argv.slice(2);
const config = JSON.parse(configText);
const SERVER = join(dirname(fileURLToPath(import.meta.url)), 'stdio-server.mjs');
const gen = (p) => import(pathToFileURL(join(jsDir, p)).href);
const info = { name: 'bench', version: '1.0.0' };
const PARAMS = { name: 'echo', arguments: { text: 'hello' } };
const text = (result) => result.content?.[0]?.text;

/** Each side: `call()` one echo, `serverUsage()` the server's CPU µs and peak RSS so far (0 in memory), `close()`. */
const NONE = { cpuUs: 0, rssMb: 0 };
const SIDES = {
  async ours() {
    const { createClient } = await gen('client.js');
    let transport;
    let stopHttp = async () => {};
    if (config.transport === 'http') {
      const { createServer } = await gen('server.js');
      const { createStreamableHttpServer } = await import('@mcp-typegen/runtime/node');
      const { StreamableHttpClientTransport } = await import('@mcp-typegen/runtime');
      const http = await import('node:http');
      const server = createServer(
        {
          'tools/list': () => ({ tools: [] }),
          'tools/call': (p) => ({ content: [{ type: 'text', text: String(p.arguments?.text) }] }),
        },
        { serverInfo: info },
      );
      const listener = http.createServer(createStreamableHttpServer({ server }));
      await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
      transport = new StreamableHttpClientTransport(`http://127.0.0.1:${listener.address().port}/mcp`);
      stopHttp = () => new Promise((resolve) => listener.close(resolve));
    } else if (config.transport === 'stdio') {
      const { StdioClientTransport } = await import('@mcp-typegen/runtime/node');
      transport = new StdioClientTransport({
        command: process.execPath,
        args: [SERVER, 'ours', jsDir],
        stderr: 'inherit',
      });
    } else {
      const { createServer } = await gen('server.js');
      const { createInMemoryPair } = await import('@mcp-typegen/runtime');
      const [clientSide, serverSide] = createInMemoryPair({ clone: true });
      const server = createServer(
        {
          'tools/list': () => ({ tools: [] }),
          'tools/call': (p) => ({ content: [{ type: 'text', text: String(p.arguments?.text) }] }),
        },
        { serverInfo: info },
      );
      await server.connect(serverSide);
      transport = clientSide;
    }
    const client = createClient(transport, { clientInfo: info });
    await client.connect();
    return {
      call: () => client.tools.call(PARAMS),
      serverUsage: async () =>
        config.transport === 'stdio' ? JSON.parse(text(await client.tools.call({ name: 'usage' }))) : NONE,
      close: async () => {
        await client.close();
        await stopHttp();
      },
    };
  },
  async sdk() {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const client = new Client(info);
    if (config.transport === 'stdio') {
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [SERVER, 'sdk', jsDir], stderr: 'inherit' }),
      );
    } else {
      const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
      const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
      const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const server = new Server(info, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
      server.setRequestHandler(CallToolRequestSchema, (r) => ({
        content: [{ type: 'text', text: String(r.params.arguments?.text) }],
      }));
      await server.connect(serverSide);
      await client.connect(clientSide);
    }
    return {
      call: () => client.callTool(PARAMS),
      serverUsage: async () =>
        config.transport === 'stdio' ? JSON.parse(text(await client.callTool({ name: 'usage' }))) : NONE,
      close: () => client.close(),
    };
  },
  /**
   * The floor any stdio stack pays: a raw newline-JSON echo over the same kind of pipe, no MCP and no
   * engine — one JSON line written per call, one read back and matched by id, lines split by hand on both
   * ends (the server side parses each line and answers it: stdio-server.mjs `echo`).
   */
  echo: () => echoClient('echo'),
  /** The same echo with a server that splits lines with node:readline: not the floor, shown beside it. */
  'echo-readline': () => echoClient('echo-readline'),
  async sdk2() {
    const { Client } = await import('@modelcontextprotocol/client');
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    if (config.transport !== 'stdio') throw new Error('sdk2 is measured over stdio only');
    const client = new Client(info);
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [SERVER, 'sdk2', jsDir], stderr: 'inherit' }),
    );
    return {
      call: () => client.callTool(PARAMS),
      serverUsage: async () => JSON.parse(text(await client.callTool({ name: 'usage' }))),
      close: () => client.close(),
    };
  },
};

/** A client of the echo servers: one JSON line per call, answers matched by id, lines split by hand. */
async function echoClient(side) {
  if (config.transport !== 'stdio') throw new Error('echo is measured over stdio only');
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [SERVER, side], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  let buffer = '';
  let nextId = 1;
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    let start = 0;
    let newline;
    while ((newline = buffer.indexOf('\n', start)) !== -1) {
      const message = JSON.parse(buffer.slice(start, newline));
      start = newline + 1;
      const resolve = waiting.get(message.id);
      waiting.delete(message.id);
      resolve?.(message.result);
    }
    buffer = buffer.slice(start);
  });
  const request = (params) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params })}\n`);
    });
  return {
    call: () => request(PARAMS),
    serverUsage: async () => JSON.parse(text(await request({ name: 'usage' }))),
    close: () => new Promise((resolve) => (child.once('close', resolve), child.stdin.end())),
  };
}

/** `calls` tools/call with at most `inflight` outstanding: calls per second and CPU µs per call. */
async function drive(side, calls, inflight) {
  let next = 0;
  const worker = async () => {
    while (next < calls) {
      next++;
      const result = await side.call();
      if (text(result) !== 'hello') throw new Error(`unexpected result ${JSON.stringify(result)}`);
    }
  };
  const server0 = await side.serverUsage();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(inflight, calls) }, worker));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const server = await side.serverUsage();
  side.serverRssMb = server.rssMb;
  return { rate: calls / seconds, cpuUs: (cpu.user + cpu.system + server.cpuUs - server0.cpuUs) / calls };
}

const sides = {};
for (const name of config.sides) sides[name] = await SIDES[name]();
const out = {};
for (const inflight of config.inflight) {
  const row = { rate: {}, cpuUs: {} };
  for (const name of config.sides) {
    row.rate[name] = [];
    row.cpuUs[name] = [];
  }
  // Warm-up, then the sides in turn (order alternating) so machine noise hits all alike.
  for (let i = 0; i < config.warmup; i++)
    for (const name of config.sides) await drive(sides[name], Math.min(config.calls, 5_000), inflight);
  for (let i = 0; i < config.runs; i++) {
    for (const name of i % 2 ? [...config.sides].reverse() : config.sides) {
      const r = await drive(sides[name], config.calls, inflight);
      row.rate[name].push(r.rate);
      row.cpuUs[name].push(r.cpuUs);
    }
  }
  out[inflight] = row;
}
for (const side of Object.values(sides)) await side.close();
const serverRssMb = Object.fromEntries(Object.entries(sides).map(([name, side]) => [name, side.serverRssMb ?? 0]));
process.stdout.write(JSON.stringify({ ...out[config.inflight[0]], byInflight: out, serverRssMb }) + '\n');
