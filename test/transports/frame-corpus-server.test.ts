/**
 * The generated server's frame corpus (frame-corpus-server.ts) over every transport it runs on: a generated
 * server of each version behind in-memory, stdio (a child process), Streamable HTTP, WebSocket, HTTP+SSE (the
 * versions before 2026-07-28) and postMessage (a MessageChannel). Each case gets a connection of its own (a
 * session, over HTTP), opened with `initialize` where the case says; its answers (code, id, batch, HTTP status)
 * are asserted, and a request after it must still be answered.
 */
import { spawn } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { built, importBuilt, type Built } from '../client/helpers/build.js';
import { eventually } from '../helpers/eventually.js';
import { createSseLegacyServer } from '../../templates/transports/sse/server.js';
import { PostMessageTransport } from '../../templates/transports/post-message/post-message.js';
import type { Answer, Expected } from './frame-corpus.js';
import { SERVER_CORPUS, type ServerCase, type ServerTransport, type ServerVersion } from './frame-corpus-server.js';
import { listen, parseSse, rawRequest } from './helpers/http.js';
import { fixturesDir } from './helpers/runtime.js';
import { listenWebSocket, rawSocket } from './helpers/websocket.js';

type Json = Record<string, any>;
interface Received {
  frames: unknown[];
  status?: number;
}
/** One connection to a generated server: a frame in, every answer to it out (undefined: not applicable). */
interface Channel {
  exchange(text: string): Promise<Received | undefined>;
}

const VERSIONS: readonly ServerVersion[] = ['2025-03-26', '2025-11-25', '2026-07-28'];
const TRANSPORTS: readonly ServerTransport[] = ['memory', 'stdio', 'http', 'websocket', 'sse', 'post-message'];
const builds: Partial<Record<ServerVersion, Built>> = {};
const gens: Partial<Record<ServerVersion, Json>> = {};
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  for (const version of VERSIONS) {
    builds[version] = await built(version);
    gens[version] = await importBuilt(builds[version]!, 'index.js');
  }
}, 120_000);
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const serverOf = (version: ServerVersion) =>
  gens[version]!.createServer(
    {
      'tools/list': () => ({ tools: [{ name: 't', inputSchema: { type: 'object' } }] }),
      'tools/call': () => ({ content: [] }),
    },
    { serverInfo: { name: 'corpus', version: '1' } },
  );

/** The version a legacy `initialize` asks for on a server of `version`. */
const legacyOf = (version: ServerVersion) => (version === '2026-07-28' ? '2025-11-25' : version);
const initialize = (version: ServerVersion) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 'open',
    method: 'initialize',
    params: { protocolVersion: legacyOf(version), capabilities: {}, clientInfo: { name: 'corpus', version: '1' } },
  });
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

let sentinels = 0;
/**
 * A channel over a stream transport: after the frame a `ping` follows, and every frame received before its
 * answer is the frame's (the ping is answered on every era: {} or -32601).
 */
function streamChannel(send: (text: string) => void | Promise<void>, received: unknown[]): Channel {
  return {
    async exchange(text) {
      const sentinel = `next-${++sentinels}`;
      const from = received.length;
      await send(text);
      await send(JSON.stringify({ jsonrpc: '2.0', id: sentinel, method: 'ping' }));
      const isSentinel = (frame: unknown) => (frame as Json)?.id === sentinel;
      await eventually(() => received.slice(from).some(isSentinel), 10_000);
      return { frames: received.slice(from).filter((frame) => !isSentinel(frame)) };
    },
  };
}

async function memoryChannel(version: ServerVersion): Promise<Channel> {
  const [client, server] = gens[version]!.createInMemoryPair();
  await serverOf(version).connect(server);
  const received: unknown[] = [];
  client.onmessage = (frame: unknown) => void received.push(frame);
  await client.start();
  cleanups.push(() => client.close());
  return streamChannel((text) => client.sendText(text), received);
}

async function stdioChannel(version: ServerVersion): Promise<Channel> {
  const script = join(fixturesDir, 'corpus-generated-stdio-server.mjs');
  const child = spawn(process.execPath, [script, builds[version]!.jsDir], { stdio: ['pipe', 'pipe', 'inherit'] });
  cleanups.push(() => {
    child.stdin.end();
    return new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('close', () => resolve())));
  });
  const received: unknown[] = [];
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (buffer + chunk).split('\n');
    buffer = lines.pop()!;
    for (const line of lines) received.push(JSON.parse(line));
  });
  return streamChannel((text) => void child.stdin.write(`${text}\n`), received);
}

async function webSocketChannel(version: ServerVersion): Promise<Channel> {
  const server = serverOf(version);
  const endpoint = await listenWebSocket({ onSession: (transport) => server.connect(transport) });
  cleanups.push(() => endpoint.close());
  const { socket, frames } = await rawSocket(`${endpoint.url}/mcp`);
  cleanups.push(() => socket.close());
  const received: unknown[] = [];
  let seen = 0;
  const drain = () => {
    for (; seen < frames.length; seen++) received.push(JSON.parse(frames[seen]!));
  };
  const channel = streamChannel((text) => socket.send(text), received);
  return {
    exchange: async (text) => {
      const poll = setInterval(drain, 1);
      try {
        return await channel.exchange(text);
      } finally {
        clearInterval(poll);
      }
    },
  };
}

async function sseChannel(version: ServerVersion): Promise<Channel> {
  const server = serverOf(version);
  const handler = createSseLegacyServer({ keepAliveMs: 0, onSession: (transport) => server.connect(transport) });
  const http = await listen(handler);
  cleanups.push(async () => {
    await handler.close();
    await http.close();
  });
  const received: unknown[] = [];
  let endpoint: string | undefined;
  let buffer = '';
  const stream = httpGet(`${http.url}/sse`, { headers: { accept: 'text/event-stream' } }, (res) => {
    res.setEncoding('utf8').on('data', (chunk: string) => {
      const blocks = (buffer + chunk).split('\n\n');
      buffer = blocks.pop()!;
      for (const event of parseSse(blocks.map((b) => `${b}\n\n`).join(''))) {
        if (event.event === 'endpoint') endpoint = event.data;
        else received.push(JSON.parse(event.data));
      }
    });
  });
  cleanups.push(() => void stream.destroy());
  await eventually(() => endpoint !== undefined);
  const post = async (text: string) => {
    const res = await rawRequest(`${http.url}${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    expect(res.status).toBe(202);
  };
  return streamChannel(post, received);
}

async function postMessageChannel(version: ServerVersion): Promise<Channel> {
  const { port1, port2 } = new MessageChannel();
  await serverOf(version).connect(new PostMessageTransport(port1));
  const received: unknown[] = [];
  port2.on('message', (data: unknown) => void received.push(data));
  cleanups.push(() => port2.close());
  const channel = streamChannel((text) => port2.postMessage(JSON.parse(text)), received);
  return {
    exchange: async (text) => {
      try {
        JSON.parse(text);
      } catch {
        return undefined; // postMessage carries objects: a text that is no JSON cannot be sent
      }
      return channel.exchange(text);
    },
  };
}

/** Streamable HTTP: a legacy session once `initialize` opened one, else the 2026-07-28 wire (its headers). */
async function httpChannel(version: ServerVersion): Promise<Channel> {
  const handler = gens[version]!.createStreamableHttpServer({
    server: serverOf(version),
    enableJsonResponse: true,
    keepAliveMs: 0,
  });
  const http = await listen(handler);
  cleanups.push(async () => {
    await handler.close();
    await http.close();
  });
  let session: { id: string; version: string } | undefined;
  return {
    async exchange(text) {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      let body: Json | undefined;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      if (session !== undefined)
        Object.assign(headers, { 'mcp-session-id': session.id, 'mcp-protocol-version': session.version });
      else if (version === '2026-07-28' && text !== initialize(version)) Object.assign(headers, modernHeaders(body));
      const res = await rawRequest(`${http.url}/mcp`, { method: 'POST', headers, body: text });
      const answer = res.body === '' ? undefined : JSON.parse(res.body);
      if (session === undefined && res.headers['mcp-session-id'] !== undefined) {
        session = { id: String(res.headers['mcp-session-id']), version: answer.result.protocolVersion };
      }
      return { frames: answer === undefined ? [] : [answer], status: res.status };
    },
  };
}

/** The 2026-07-28 request headers a client derives from the body. */
function modernHeaders(body: Json | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': '2026-07-28' };
  if (typeof body?.['method'] === 'string') headers['mcp-method'] = body['method'];
  if (body?.['method'] === 'tools/call' && typeof body['params']?.['name'] === 'string')
    headers['mcp-name'] = body['params']['name'];
  return headers;
}

const CHANNELS: Record<ServerTransport, (version: ServerVersion) => Promise<Channel>> = {
  memory: memoryChannel,
  stdio: stdioChannel,
  http: httpChannel,
  websocket: webSocketChannel,
  sse: sseChannel,
  'post-message': postMessageChannel,
};

/** (code, id) of every answer, flattened; `batch` when an answer was an array. */
function answersOf(frames: unknown[]): { answers: Answer[]; batch: boolean } {
  const answers: Answer[] = [];
  let batch = false;
  for (const frame of frames) {
    const items = Array.isArray(frame) ? ((batch = true), frame) : [frame];
    for (const item of items as Json[]) answers.push({ code: item['error']?.code ?? 0, id: item['id'] ?? null });
  }
  return { answers, batch };
}
const sorted = (answers: Answer[]) => [...answers].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

async function run(version: ServerVersion, transport: ServerTransport, entry: ServerCase, expected: Expected) {
  const channel = await CHANNELS[transport](version);
  if (entry.opening === 'initialized') {
    const opened = await channel.exchange(initialize(version));
    expect(answersOf(opened!.frames).answers, 'initialize').toEqual([{ code: 0, id: 'open' }]);
    await channel.exchange(INITIALIZED);
  }
  const got = await channel.exchange(entry.text);
  const { answers, batch } = answersOf(got!.frames);
  expect(sorted(answers), entry.name).toEqual(sorted(expected.answers));
  expect(batch, `${entry.name}: batch`).toBe(expected.batch ?? false);
  if (transport === 'http') expect(got!.status, `${entry.name}: status`).toBe(expected.status);
}

for (const transport of TRANSPORTS) {
  describe(`${transport}`, () => {
    for (const version of VERSIONS) {
      if (transport === 'sse' && version === '2026-07-28') continue; // HTTP+SSE is of the handshake era
      const cases = SERVER_CORPUS.filter((c) => c.versions.includes(version));
      for (const entry of cases) {
        const expected = entry.expect(version, transport);
        if (expected === undefined) continue;
        it(`${version}: ${entry.name}`, () => run(version, transport, entry, expected));
      }
    }
  });
}
