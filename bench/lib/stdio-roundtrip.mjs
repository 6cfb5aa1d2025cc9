// Round trips over stdio, client in this process, server in a child (bench/lib/stdio-server.mjs): our
// generated client + server, the SDK's Client + Server, and a raw newline-JSON echo over the same kind of
// pipe. `tools/call` of a trivial tool.
// Usage: node stdio-roundtrip.mjs <compiled generated JS dir> <json config>
// Config: { calls, inflight: [1, 64], runs, warmup }. Prints one JSON line of per-run calls/s by side.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [jsDir, configText] = process.argv.slice(2);
const config = JSON.parse(configText);
const SERVER = join(dirname(fileURLToPath(import.meta.url)), 'stdio-server.mjs');
const info = { name: 'bench', version: '1.0.0' };
const PARAMS = { name: 'echo', arguments: { text: 'hello' } };

async function ours() {
  const gen = (p) => import(pathToFileURL(join(jsDir, p)).href);
  const { createClient } = await gen('client.js');
  const { StdioClientTransport } = await gen('runtime/stdio.js');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, 'ours', jsDir],
    inheritEnv: 'all',
  });
  const client = createClient(transport, { clientInfo: info });
  await client.connect();
  return { call: () => client.tools.call(PARAMS), close: () => client.close() };
}

async function sdk() {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client(info);
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [SERVER, 'sdk'], env: process.env }),
  );
  return { call: () => client.callTool(PARAMS), close: () => client.close() };
}

/** The floor: write one JSON line per call, read one back, match by id. */
async function echo() {
  const child = spawn(process.execPath, [SERVER, 'echo'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  let buffer = '';
  let nextId = 1;
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const message = JSON.parse(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      waiting.get(message.id)?.(message.result);
      waiting.delete(message.id);
    }
  });
  const call = () =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: PARAMS }) + '\n');
    });
  return {
    call,
    close: () => new Promise((resolve) => (child.once('close', resolve), child.stdin.end())),
  };
}

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

const sides = { ours: await ours(), sdk: await sdk(), echo: await echo() };
const out = {};
for (const inflight of config.inflight) {
  const rows = { ours: [], sdk: [], echo: [] };
  const names = Object.keys(rows);
  for (let i = 0; i < config.warmup; i++) for (const name of names) await drive(sides[name], config.calls, inflight);
  for (let i = 0; i < config.runs; i++) {
    for (const name of i % 2 ? [...names].reverse() : names)
      rows[name].push(await drive(sides[name], config.calls, inflight));
  }
  out[inflight] = rows;
}
for (const side of Object.values(sides)) await side.close();
process.stdout.write(JSON.stringify(out) + '\n');
