/**
 * The version matrix: a client generated for each of the five versions against a server generated for
 * each of them, in memory and over stdio (each server its own process), with default settings. Each pair must connect on the version the rules give —
 *
 *   both legacy (initialize):   the older of the two (the server answers the client's version or its own newest);
 *   legacy client, 2026 server: the client's version (the dual-era server answers initialize);
 *   2026 client, legacy server: the server's version (the server/discover probe fails, the client falls back);
 *   both 2026:                   2026-07-28, modern —
 *
 * then make a typed tools/call that the server answers knowing the version, with a notification from the
 * server inside the call and, where both versions have one, a notification from the client. Narrowed
 * `supportedProtocolVersions` must fail with the errors the runtime documents.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from '@mcp-typegen/runtime';
import { StdioClientTransport, createStreamableHttpServer } from '@mcp-typegen/runtime/node';
import { SCHEMA_DIR, built, compileFixture, importBuilt, type Version } from '../client/helpers/build.js';
import { listen } from '../transports/helpers/http.js';

type Json = Record<string, any>;
const HERE = dirname(fileURLToPath(import.meta.url));
const VERSIONS: Version[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
const MODERN = '2026-07-28';
const gen = new Map<Version, any>();

beforeAll(async () => {
  for (const v of VERSIONS) gen.set(v, await importBuilt(await built(v), 'index.js'));
});

/** What the rules above say the pair agrees on. */
function expected(client: Version, server: Version): { version: string; era: 'legacy' | 'modern' } {
  if (client === MODERN && server === MODERN) return { version: MODERN, era: 'modern' };
  if (client === MODERN) return { version: server, era: 'legacy' };
  if (server === MODERN) return { version: client, era: 'legacy' };
  return { version: client < server ? client : server, era: 'legacy' };
}

async function pair(client: Version, server: Version, clientOptions: Json = {}, serverOptions: Json = {}) {
  const s = gen.get(server);
  const c = gen.get(client);
  const seen: Json = { rootsChanged: 0 };
  const handlers: Json = {
    'tools/list': () => ({ tools: [], ...(server === MODERN ? { resultType: 'complete' } : {}) }),
    'tools/call': async (params: Json, ctx: Json) => {
      await ctx.notify('notifications/tools/list_changed');
      const meta = params._meta ?? {};
      return {
        content: [
          {
            type: 'text',
            text: `${ctx.session.protocolVersion}|${params.arguments.text}|${meta['io.modelcontextprotocol/protocolVersion'] ?? '-'}`,
          },
        ],
        ...(server === MODERN ? { resultType: 'complete' } : {}),
      };
    },
  };
  if (server !== MODERN) handlers['notifications/roots/list_changed'] = () => void seen.rootsChanged++;
  const [clientSide, serverSide] = c.createInMemoryPair();
  const srv = s.createServer(handlers, { serverInfo: { name: `server-${server}`, version: '1' }, ...serverOptions });
  await srv.connect(serverSide);
  const cli = c.createClient(clientSide, {
    clientInfo: { name: `client-${client}`, version: '1' },
    eraCache: new Map(),
    probeTimeout: 2000,
    ...clientOptions,
  });
  return { cli, srv, seen };
}

describe('every client version × every server version, defaults', () => {
  for (const client of VERSIONS) {
    for (const server of VERSIONS) {
      const want = expected(client, server);
      it(`client ${client} ↔ server ${server}: ${want.era} ${want.version}`, async () => {
        const { cli, seen } = await pair(client, server);
        const changed: unknown[] = [];
        cli.setNotificationHandler('notifications/tools/list_changed', (p: unknown) => void changed.push(p ?? {}));
        await cli.connect();
        expect(cli.protocolVersion).toBe(want.version);
        expect(cli.era).toBe(want.era);
        expect(cli.serverInfo).toEqual({ name: `server-${server}`, version: '1' });
        const result = await cli.tools.call({ name: 'echo', arguments: { text: 'hi' } });
        // The handler sees the agreed version on the session, and a modern server's handler sees the
        // per-request `_meta` version on every request, a legacy client's included (filled in from the session).
        const metaVersion = server === MODERN ? want.version : '-';
        expect(result.content).toEqual([{ type: 'text', text: `${want.version}|hi|${metaVersion}` }]);
        // A 2026-07-28 client's types promise resultType (and a list's cache fields): a legacy server's
        // results get them filled in.
        if (client === MODERN) expect(result.resultType).toBe('complete');
        else expect(result).not.toHaveProperty('resultType');
        if (client === MODERN && server !== MODERN) {
          expect(await cli.tools.list()).toEqual({
            tools: [],
            resultType: 'complete',
            cacheScope: 'private',
            ttlMs: 0,
          });
        }
        expect(changed).toHaveLength(1);
        if (server !== MODERN && client !== MODERN) {
          await cli.notify('notifications/roots/list_changed');
          await cli.ping();
          expect(seen.rootsChanged).toBe(1);
        }
        await cli.close();
      });
    }
  }
});

describe('methods follow the version agreed, not the version generated', () => {
  it('a 2025-11-25 client fails fast on tasks/get against a 2025-06-18 server', async () => {
    const { cli } = await pair('2025-11-25', '2025-06-18');
    await cli.connect();
    await expect(cli.tasks.get({ taskId: 't' })).rejects.toMatchObject({
      name: 'LocalError',
      code: -32601,
      message: 'tasks/get is not part of MCP 2025-06-18, the version agreed with this server (it is in 2025-11-25)',
    });
    await cli.close();
  });

  it('a 2026-07-28 client that fell back to 2025-11-25 fails fast on server/discover and sends no per-request _meta', async () => {
    const { cli } = await pair(MODERN, '2025-11-25');
    await cli.connect();
    await expect(cli.server.discover()).rejects.toMatchObject({ code: -32601 });
    await cli.close();
  });

  it('ping, logging/setLevel and unmapped methods for a legacy client on a dual-era server', async () => {
    const { cli } = await pair('2025-06-18', MODERN);
    await cli.connect();
    expect(cli.serverCapabilities).toMatchObject({ logging: {} });
    await expect(cli.ping()).resolves.toEqual({});
    await expect(cli.logging.setLevel({ level: 'warning' })).resolves.toEqual({});
    await expect(cli.resources.subscribe({ uri: 'file:///x' })).rejects.toMatchObject({ code: -32601 });
    await cli.close();
    // tasks/* exist in 2025-11-25, so such a client sends them; the 2026-07-28 server has no core tasks.
    const tasks = await pair('2025-11-25', MODERN);
    await tasks.cli.connect();
    await expect(tasks.cli.tasks.get({ taskId: 't' })).rejects.toMatchObject({ code: -32601 });
    await tasks.cli.close();
  });
});

describe('the dual-era mapping, row by row', () => {
  const ELICIT = {
    method: 'elicitation/create',
    params: { mode: 'form', message: 'Who?', requestedSchema: { type: 'object', properties: {} } },
  };

  async function dualEra(handler: (params: Json, ctx: Json) => unknown) {
    const s = gen.get(MODERN);
    const c = gen.get('2025-11-25');
    const [clientSide, serverSide] = c.createInMemoryPair();
    const srv = s.createServer({ 'tools/call': handler }, { serverInfo: { name: 'dual', version: '1' } });
    await srv.connect(serverSide);
    const cli = c.createClient(clientSide, { clientInfo: { name: 'legacy', version: '1' } });
    return cli;
  }

  it("a handler's input_required result reaches a legacy client as server→client requests within the call", async () => {
    const rounds: Json[] = [];
    const cli = await dualEra((params) => {
      rounds.push({ responses: params.inputResponses, state: params.requestState });
      if (params.inputResponses === undefined) {
        return { resultType: 'input_required', inputRequests: { who: ELICIT }, requestState: 'one' };
      }
      const name = params.inputResponses.who.content.name;
      return { resultType: 'complete', content: [{ type: 'text', text: `hello ${name}` }] };
    });
    const asked: Json[] = [];
    cli.setRequestHandler('elicitation/create', (params: Json) => {
      asked.push(params);
      return { action: 'accept', content: { name: 'ada' } };
    });
    await cli.connect();
    const result = await cli.tools.call({ name: 'greet', arguments: {} });
    expect(result).toEqual({ content: [{ type: 'text', text: 'hello ada' }] });
    expect(asked).toEqual([ELICIT.params]);
    expect(rounds).toEqual([
      { responses: undefined, state: undefined },
      { responses: { who: { action: 'accept', content: { name: 'ada' } } }, state: 'one' },
    ]);
    await cli.close();
  });

  it("logging/setLevel gates a handler's log notifications for a legacy client; none before it is set", async () => {
    const cli = await dualEra(async (_params, ctx) => {
      for (const level of ['debug', 'info', 'warning', 'error']) {
        await ctx.notify('notifications/message', { level, data: level });
      }
      return { resultType: 'complete', content: [] };
    });
    const logs: string[] = [];
    cli.setNotificationHandler('notifications/message', (p: Json) => void logs.push(p.level));
    await cli.connect();
    await cli.tools.call({ name: 'x', arguments: {} });
    expect(logs).toEqual([]);
    await cli.logging.setLevel({ level: 'warning' });
    await cli.tools.call({ name: 'x', arguments: {} });
    expect(logs).toEqual(['warning', 'error']);
    await cli.close();
  });

  it("a 2026-07-28 client answers a legacy server's requests with its input handlers", async () => {
    const s = gen.get('2025-11-25');
    const c = gen.get(MODERN);
    const [clientSide, serverSide] = c.createInMemoryPair();
    const srv = s.createServer(
      {
        'tools/call': async (_params: Json, ctx: Json) => {
          const answer = await ctx.request('elicitation/create', ELICIT.params);
          return { content: [{ type: 'text', text: `hello ${answer.content.name}` }] };
        },
      },
      { serverInfo: { name: 'legacy', version: '1' } },
    );
    await srv.connect(serverSide);
    const cli = c.createClient(clientSide, { clientInfo: { name: 'modern', version: '1' }, eraCache: new Map() });
    cli.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'grace' } }));
    await cli.connect();
    expect(cli.era).toBe('legacy');
    const result = await cli.tools.call({ name: 'greet', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'hello grace' }]);
    await cli.close();
  });
});

describe('capabilities follow the version agreed', () => {
  it('a 2025-11-25 server with a completion handler tells a 2024-11-05 client nothing of completions', async () => {
    const s = gen.get('2025-11-25');
    const handlers = {
      'completion/complete': () => ({ completion: { values: [] } }),
      'tools/list': () => ({ tools: [] }),
    };
    const capabilitiesFor = async (client: Version) => {
      const [clientSide, serverSide] = s.createInMemoryPair();
      await s.createServer(handlers, { serverInfo: { name: 's', version: '1' } }).connect(serverSide);
      const cli = gen.get(client).createClient(clientSide, { clientInfo: { name: 'c', version: '1' } });
      await cli.connect();
      const caps = cli.serverCapabilities;
      await cli.close();
      return caps;
    };
    expect(await capabilitiesFor('2025-06-18')).toEqual({ completions: {}, tools: {} });
    expect(await capabilitiesFor('2024-11-05')).toEqual({ tools: {} });
  });
});

describe('narrowed lists refuse what they leave out', () => {
  it('client narrowed to 2025-11-25 refuses a 2025-06-18 server', async () => {
    const { cli } = await pair('2025-11-25', '2025-06-18', { supportedProtocolVersions: ['2025-11-25'] });
    await expect(cli.connect()).rejects.toThrow(
      'Server answered with protocol version 2025-06-18; this client accepts 2025-11-25',
    );
  });

  it('server narrowed to 2025-11-25 answers a 2025-03-26 client with its own version, which the client refuses', async () => {
    const { cli } = await pair('2025-03-26', '2025-11-25', {}, { supportedProtocolVersions: ['2025-11-25'] });
    await expect(cli.connect()).rejects.toThrow(
      'Server answered with protocol version 2025-11-25; this client accepts 2025-03-26, 2024-11-05',
    );
  });

  it('a modern-only client refuses a legacy server with an actionable error', async () => {
    const { cli } = await pair(MODERN, '2025-11-25', { supportedProtocolVersions: [MODERN] });
    await expect(cli.connect()).rejects.toThrow(
      /Not a 2026-07-28 server \(server\/discover: .*\); this client accepts 2026-07-28; for older servers add an initialize-era version to supportedProtocolVersions/,
    );
  });

  it('a modern-only server refuses initialize, naming the versions it speaks', async () => {
    const { cli } = await pair('2025-11-25', MODERN, {}, { supportedProtocolVersions: [MODERN] });
    await expect(cli.connect()).rejects.toMatchObject({
      code: -32600,
      message: 'This server does not accept initialize; it speaks 2026-07-28',
    });
  });

  it('the era found is remembered per server: a second client skips the probe', async () => {
    const eraCache = new Map<string, string>();
    const first = await pair(MODERN, '2025-06-18', { eraCache });
    (first.cli.peer.transport as Json).serverKey = 'memory://one';
    await first.cli.connect();
    expect(eraCache.get('memory://one')).toBe('legacy');
    const second = await pair(MODERN, '2025-06-18', { eraCache });
    (second.cli.peer.transport as Json).serverKey = 'memory://one';
    const sent: string[] = [];
    const send = second.cli.peer.transport.send.bind(second.cli.peer.transport);
    second.cli.peer.transport.send = (m: Json, o: unknown) => {
      sent.push(m.method);
      return send(m, o);
    };
    await second.cli.connect();
    expect(sent[0]).toBe('initialize');
    expect(second.cli.protocolVersion).toBe('2025-06-18');
  });
});

describe('over Streamable HTTP: the probe, the fallback and both eras on one endpoint', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  async function httpServer(server: Version) {
    const s = gen.get(server);
    const handlers: Json = {
      'tools/call': (params: Json, ctx: Json) => ({
        content: [{ type: 'text', text: `${ctx.session.protocolVersion}|${params.arguments.text}` }],
        ...(server === MODERN ? { resultType: 'complete' } : {}),
      }),
    };
    const srv = s.createServer(handlers, { serverInfo: { name: `http-${server}`, version: '1' } });
    const handler = createStreamableHttpServer({ keepAliveMs: 0, server: srv });
    const http = await listen(handler);
    cleanups.push(async () => {
      await handler.close();
      await http.close();
    });
    return `${http.url}/mcp`;
  }

  for (const [client, server] of [
    [MODERN, '2025-11-25'],
    [MODERN, '2025-06-18'],
    ['2025-06-18', MODERN],
    [MODERN, MODERN],
  ] as [Version, Version][]) {
    const want = expected(client, server);
    it(`client ${client} → server ${server} over HTTP: ${want.era} ${want.version}`, async () => {
      const url = await httpServer(server);
      const eraCache = new Map();
      const c = gen.get(client);
      const cli = c.createClient(new StreamableHttpClientTransport(url), {
        clientInfo: { name: 'c', version: '1' },
        eraCache,
      });
      await cli.connect();
      expect([cli.era, cli.protocolVersion]).toEqual([want.era, want.version]);
      const result = await cli.tools.call({ name: 'echo', arguments: { text: 'hi' } });
      expect(result.content).toEqual([{ type: 'text', text: `${want.version}|hi` }]);
      await cli.close();
      if (client === MODERN) expect(eraCache.get(new URL(url).href)).toBe(want.era);
    });
  }
});

describe('over stdio: every client version × every server version, each server its own process', () => {
  const scripts = new Map<Version, Promise<string>>();
  const script = (server: Version) => {
    if (!scripts.has(server)) scripts.set(server, compileFixture(server, join(HERE, 'fixtures', 'stdio-server.ts')));
    return scripts.get(server)!;
  };
  for (const [client, server] of VERSIONS.flatMap((c) => VERSIONS.map((v) => [c, v] as [Version, Version]))) {
    const want = expected(client, server);
    it(`client ${client} → server ${server} over stdio: ${want.era} ${want.version}`, async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [await script(server)],
        stderr: 'inherit',
      });
      const eraCache = new Map();
      const cli = gen.get(client).createClient(transport, { clientInfo: { name: 'c', version: '1' }, eraCache });
      const changed: unknown[] = [];
      cli.setNotificationHandler('notifications/tools/list_changed', (p: unknown) => void changed.push(p ?? {}));
      await cli.connect();
      try {
        expect([cli.era, cli.protocolVersion]).toEqual([want.era, want.version]);
        // A notification from the client where both versions have one (2026-07-28 has no client one).
        const notifies = client !== MODERN && server !== MODERN;
        if (notifies) await cli.notify('notifications/roots/list_changed');
        const result = await cli.tools.call({ name: 'echo', arguments: { text: 'hi' } });
        expect(result.content).toEqual([{ type: 'text', text: `${want.version}|hi|${notifies ? 1 : 0}` }]);
        expect(changed).toHaveLength(1);
        if (client === MODERN) expect(eraCache.get(transport.serverKey)).toBe(want.era);
      } finally {
        await cli.close();
      }
    });
  }
});

describe('2026-07-28 result defaults', () => {
  it('a handler may leave out resultType and a list result its cache fields: the runtime fills them in', async () => {
    const s = gen.get(MODERN);
    const [clientSide, serverSide] = s.createInMemoryPair();
    const srv = s.createServer(
      {
        'tools/list': () => ({ tools: [] }),
        'prompts/list': () => ({ prompts: [], cacheScope: 'public', ttlMs: 5000, resultType: 'complete' }),
        'tools/call': () => ({ resultType: 'input_required', inputRequests: {} }),
      },
      { serverInfo: { name: 's', version: '1' }, validateResults: true },
    );
    await srv.connect(serverSide);
    const peer = new s.RpcPeer(clientSide, {});
    await peer.start();
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const withoutServerInfo = ({ _meta, ...rest }: Json) => rest;
    expect(withoutServerInfo(await peer.request('tools/list', { _meta: meta }))).toEqual({
      tools: [],
      resultType: 'complete',
      cacheScope: 'private',
      ttlMs: 0,
    });
    expect(withoutServerInfo(await peer.request('prompts/list', { _meta: meta }))).toEqual({
      prompts: [],
      cacheScope: 'public',
      ttlMs: 5000,
      resultType: 'complete',
    });
    // An input-required result keeps its own resultType: no default can say "complete" over it.
    expect(withoutServerInfo(await peer.request('tools/call', { name: 'x', arguments: {}, _meta: meta }))).toEqual({
      resultType: 'input_required',
      inputRequests: {},
    });
    expect(s.PROTOCOL.facts.resultDefaults['tools/list']).toEqual({
      cacheScope: 'private',
      resultType: 'complete',
      ttlMs: 0,
    });
  });
});

describe('what an older peer may leave out that the newer types require, the runtime fills in', () => {
  const defs = (version: Version) => {
    const json = JSON.parse(readFileSync(join(SCHEMA_DIR, version, 'schema.json'), 'utf8'));
    return (json.$defs ?? json.definitions) as Record<string, Json>;
  };
  /** Definitions of `newer` (messages, params, results) with required fields `older` has not required. */
  const tightened = (newer: Version, older: Version) => {
    const [n, o] = [defs(newer), defs(older)];
    const out: Record<string, string[]> = {};
    for (const [name, def] of Object.entries(n)) {
      if (!o[name]) continue;
      const before = new Set<string>(o[name].required ?? []);
      // jsonrpc and id became explicit in the message definitions: the engine checks them on every frame.
      const added = ((def.required ?? []) as string[]).filter((f) => !before.has(f) && f !== 'jsonrpc' && f !== 'id');
      if (added.length > 0) out[name] = added.sort();
    }
    return out;
  };

  it('between initialize-era versions: nothing', () => {
    const legacy = VERSIONS.filter((v) => v !== MODERN);
    for (const newer of legacy)
      for (const older of legacy.filter((v) => v < newer)) {
        expect(tightened(newer, older)).toEqual({});
      }
  });

  it('2026-07-28 over every older version: only what the runtime fills (results) or sends (_meta, params)', () => {
    const filled = new Set(['resultType', 'cacheScope', 'ttlMs']);
    for (const older of VERSIONS.filter((v) => v !== MODERN)) {
      for (const [name, fields] of Object.entries(tightened(MODERN, older))) {
        const what = name.endsWith('Result')
          ? fields.every((f) => filled.has(f))
          : // Requests: the client sends _meta (and so params) itself, a dual-era server fills _meta in; a
            // cancellation without requestId is the engine's, which drops it (nothing to correlate).
            fields.every((f) => f === '_meta' || f === 'params' || f === 'requestId' || f === 'method');
        expect([name, what]).toEqual([name, true]);
      }
    }
  });
});

describe('batches follow the version agreed, not the version generated', () => {
  async function batchAfterInitialize(server: Version, clientVersion: string) {
    const s = gen.get(server);
    const [clientSide, serverSide] = s.createInMemoryPair();
    const srv = s.createServer(
      { 'tools/list': () => ({ tools: [] }) },
      { serverInfo: { name: 'batches', version: '1' } },
    );
    await srv.connect(serverSide);
    const answers: Json[] = [];
    clientSide.onmessage = (m: Json) => void answers.push(m);
    await clientSide.start();
    const send = async (frame: unknown) => {
      await clientSide.send(frame);
      await new Promise((r) => setTimeout(r, 20));
    };
    await send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: clientVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    answers.length = 0;
    await send([
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    await clientSide.close();
    return answers;
  }

  it('a 2025-03-26 server answers a batch from a 2025-03-26 client', async () => {
    const [answer] = await batchAfterInitialize('2025-03-26', '2025-03-26');
    // One array of answers, in the order they completed.
    expect(answer).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 1, result: { tools: [] } },
        { jsonrpc: '2.0', id: 2, result: {} },
      ]),
    );
    expect(answer).toHaveLength(2);
  });

  it('a 2025-03-26 server refuses a batch once 2024-11-05 was agreed', async () => {
    const [answer] = await batchAfterInitialize('2025-03-26', '2024-11-05');
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('a 2025-11-25 server answers a batch from a 2025-03-26 client (the version agreed has them)', async () => {
    const [answer] = await batchAfterInitialize('2025-11-25', '2025-03-26');
    expect(Array.isArray(answer)).toBe(true);
    expect(answer).toHaveLength(2);
  });
});
