/**
 * `mcp-typegen snapshot` against a real server, @modelcontextprotocol/server-everything: over stdio, over
 * Streamable HTTP and over HTTP+SSE (the fallback), each HTTP server on loopback (a preload moves its
 * `listen` there) and stopped after. The same server gives the same bytes every time and over every
 * transport; `--check` passes on the committed file and fails, with the diff, on a stale one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSnapshot } from '../../src/load/snapshot-file.js';
import { EVERYTHING_BIN } from '../client/helpers/build.js';
import { REPO_ROOT, runCli, tempDir } from '../cli/helpers.js';
import { pythonWithMcp } from '../helpers/python.js';

const LOOPBACK = join(REPO_ROOT, 'test', 'snapshot', 'fixtures', 'loopback-listen.mjs');
const STDIO = ['--', process.execPath, EVERYTHING_BIN, 'stdio'];

/** server-everything in an HTTP mode, on 127.0.0.1 and a free port; resolves once it listens. */
function startHttp(mode: 'streamableHttp' | 'sse'): Promise<{ child: ChildProcess; port: number }> {
  return startListening(process.execPath, ['--import', LOOPBACK, EVERYTHING_BIN, mode]);
}

/** A server command that prints `loopback-port <n>` to stderr once it listens on 127.0.0.1. */
function startListening(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; port: number }> {
  const mode = args.join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let seen = '';
    child.stderr?.on('data', (d: Buffer) => {
      seen += d.toString();
      const port = /loopback-port (\d+)/.exec(seen)?.[1];
      if (port) resolve({ child, port: Number(port) });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${mode} exited (${code}): ${seen}`)));
  });
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });
}

describe('snapshot of server-everything', () => {
  const dir = tempDir('snapshot-live');
  const file = join(dir, 'everything.snapshot.json');
  let first = '';

  beforeAll(async () => {
    const run = await runCli(['snapshot', '--quiet', '--out', file, ...STDIO]);
    expect(run.stderr).not.toMatch(/error/);
    expect(run.code).toBe(0);
    first = readFileSync(file, 'utf8');
  });

  it('over stdio: valid in its own format, with the server, version and every list it offers', () => {
    const snapshot = parseSnapshot(first, file);
    expect(snapshot.server.name).toBe('mcp-servers/everything');
    expect(snapshot.protocolVersion).toBe('2025-11-25');
    expect(Object.keys(snapshot.tools)).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-structured-content']));
    expect(snapshot.tools.echo?.inputSchema).toMatchObject({ required: ['message'] });
    expect(Object.keys(snapshot.prompts ?? {})).toContain('args-prompt');
    expect(Object.keys(snapshot.resourceTemplates ?? {}).length).toBeGreaterThan(0);
    expect(Object.keys(snapshot.resources ?? {}).length).toBeGreaterThan(0);
    // Deterministic: sorted keys at every level, no timestamps.
    expect(first).toBe(`${JSON.stringify(JSON.parse(first), null, 2)}\n`);
    expect(Object.keys(JSON.parse(first) as object)).toEqual(Object.keys(JSON.parse(first) as object).sort());
  });

  it('over stdio twice: byte-identical (to stdout this time)', async () => {
    const run = await runCli(['snapshot', ...STDIO]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(first);
  });

  it('over Streamable HTTP, with a header: the same bytes as over stdio', async () => {
    const { child, port } = await startHttp('streamableHttp');
    try {
      const url = `http://127.0.0.1:${port}/mcp`;
      const run = await runCli(['snapshot', '--url', url, '--header', 'Authorization: Bearer test']);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(first);
    } finally {
      await stop(child);
    }
  });

  it('over HTTP+SSE (the URL answers POST with 404): falls back, the same bytes', async () => {
    const { child, port } = await startHttp('sse');
    try {
      const run = await runCli(['snapshot', '--url', `http://127.0.0.1:${port}/sse`]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(first);
    } finally {
      await stop(child);
    }
  });

  it('--check: exit 0 on the committed file; exit 1 with the diff when the server differs from it', async () => {
    const ok = await runCli(['snapshot', '--check', '--out', file, ...STDIO]);
    expect(ok.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(first);
    // The committed file re-indented (as a formatter might leave it) is still up to date.
    const compact = join(dir, 'compact.snapshot.json');
    writeFileSync(compact, JSON.stringify(JSON.parse(first)));
    expect((await runCli(['snapshot', '--check', '--out', compact, ...STDIO])).code).toBe(0);

    // The committed file as an older server would have had it: no get-sum, and echo's message optional.
    const stale = JSON.parse(first) as { tools: { echo: { inputSchema: { required?: string[] } } } };
    stale.tools.echo.inputSchema.required = [];
    delete (stale.tools as Record<string, unknown>)['get-sum'];
    const staleFile = join(dir, 'stale.snapshot.json');
    writeFileSync(staleFile, `${JSON.stringify(stale, null, 2)}\n`);
    const drift = await runCli(['snapshot', '--check', '--out', staleFile, ...STDIO]);
    expect(drift.code).toBe(1);
    expect(drift.stdout).toMatch(/tool echo[^\n]*\n[^\n]*request-param-required-added {2}params\.message/);
    expect(drift.stdout).toMatch(/tool get-sum[^\n]*\n[^\n]*method-added/);
    expect(drift.stderr).toContain(`differs from ${staleFile}`);
    // --check writes nothing.
    expect(readFileSync(staleFile, 'utf8')).toBe(`${JSON.stringify(stale, null, 2)}\n`);
  });
});

const MODULES = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol');
const py = pythonWithMcp();
if ('reason' in py) console.log(`snapshot of a Python MCP SDK server skipped: ${py.reason}`);

/** Other real servers over stdio: each snapshotted twice, the same bytes. */
const SERVERS: { name: string; command: string[]; server: string; tool: string; skip?: string }[] = [
  {
    name: 'server-filesystem (npm)',
    command: [process.execPath, join(MODULES, 'server-filesystem', 'dist', 'index.js'), REPO_ROOT],
    server: 'secure-filesystem-server',
    tool: 'read_text_file',
  },
  {
    name: 'server-memory (npm)',
    command: [process.execPath, join(MODULES, 'server-memory', 'dist', 'index.js')],
    server: 'memory-server',
    tool: 'create_entities',
  },
  {
    name: 'a Python MCP SDK server',
    command: [
      'python' in py ? py.python : 'python3',
      join(REPO_ROOT, 'test', 'snapshot', 'fixtures', 'python_server.py'),
    ],
    server: 'python-snapshot-fixture',
    tool: 'add',
    ...('reason' in py ? { skip: py.reason } : {}),
  },
];

describe.each(SERVERS)('snapshot of $name over stdio', ({ command, server, tool, skip }) => {
  it.skipIf(skip !== undefined)('twice: valid, the same bytes', async () => {
    const first = await runCli(['snapshot', '--', ...command]);
    expect(first.code, first.stderr).toBe(0);
    const snapshot = parseSnapshot(first.stdout, 'stdout');
    expect(snapshot.server.name).toBe(server);
    expect(Object.keys(snapshot.tools)).toContain(tool);
    const second = await runCli(['snapshot', '--', ...command]);
    expect(second.stdout).toBe(first.stdout);
  });
});

it('--env reaches the server command (which inherits only a default environment)', async () => {
  const server = ['--', process.execPath, join(REPO_ROOT, 'test', 'snapshot', 'fixtures', 'env-server.mjs')];
  const plain = await runCli(['snapshot', ...server], { env: { SNAPSHOT_FIXTURE_NAME: 'not passed on' } });
  expect(parseSnapshot(plain.stdout, 'stdout').server.name).toBe('unnamed');
  const named = await runCli(['snapshot', '--env', 'SNAPSHOT_FIXTURE_NAME=from --env', ...server]);
  expect(named.code, named.stderr).toBe(0);
  const snapshot = parseSnapshot(named.stdout, 'stdout');
  expect(snapshot.server.name).toBe('from --env');
  expect(snapshot.protocolVersion).toBe('2025-11-25');
  expect(snapshot.tools).toEqual({});
});

describe('snapshot: bad usage is one line, exit 2', () => {
  it.each([
    [['snapshot'], /no server given/],
    [['snapshot', '--url', 'not a url'], /is not a URL/],
    [['snapshot', '--url', 'http://127.0.0.1:1/mcp', '--header', 'no colon'], /is not "Name: value"/],
    [['snapshot', '--check', ...STDIO], /--check needs --out/],
    [['snapshot', '--env', 'NOEQUALS', ...STDIO], /is not NAME=value/],
    [['snapshot', '--env', 'A=1', '--url', 'http://127.0.0.1:1/mcp'], /--env applies to a server command only/],
  ])('%j', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  });
});

/**
 * Today's servers over Streamable HTTP, without `--spec`: the SDK v2 2.4 server as createMcpHandler serves it
 * (2026-07-28, and older clients statelessly) and as a 2025-era stateful deployment (no server/discover: the
 * client falls back to initialize), each with a bearer token it requires and without; the Python MCP SDK 2.x
 * server, stateful and stateless, in the modern era and (`--spec 2025-11-25`) the initialize era. Each gives
 * its tools and prompts as it declares them, the same whatever the era.
 */
const FIXTURES = join(REPO_ROOT, 'test', 'snapshot', 'fixtures');

describe.each([
  { mode: 'modern', version: '2026-07-28' },
  { mode: 'legacy', version: '2025-11-25' },
])('snapshot --url of an SDK v2 server ($mode)', ({ mode, version }) => {
  it.each([{ token: undefined }, { token: 'secret-token' }])(
    'bearer $token: the surface, in the version of its era',
    async ({ token }) => {
      const server = await startListening(
        process.execPath,
        [join(FIXTURES, 'sdk2-http-server.mjs'), mode],
        token === undefined ? {} : { SNAPSHOT_FIXTURE_TOKEN: token },
      );
      try {
        const url = `http://127.0.0.1:${server.port}/mcp`;
        const header = token === undefined ? [] : ['--header', `Authorization: Bearer ${token}`];
        const run = await runCli(['snapshot', '--url', url, ...header]);
        expect(run.code, run.stderr).toBe(0);
        const snapshot = parseSnapshot(run.stdout, 'stdout');
        expect(snapshot.protocolVersion).toBe(version);
        expect(snapshot.server).toEqual({ name: `sdk2-${mode}`, version: '2.4.0' });
        expect(snapshot.tools['add']).toMatchObject({
          inputSchema: { required: ['a', 'b'] },
          outputSchema: { required: ['sum'] },
        });
        expect(Object.keys(snapshot.prompts ?? {})).toEqual(['greet']);
        if (token !== undefined) {
          const refused = await runCli(['snapshot', '--url', url]);
          expect(refused.code).toBe(2);
          expect(refused.stderr).toMatch(/401/);
        }
      } finally {
        await stop(server.child);
      }
    },
  );
});

describe.each([{ stateless: false }, { stateless: true }])(
  'snapshot --url of a Python MCP SDK server (stateless: $stateless)',
  ({ stateless }) => {
    it.skipIf('reason' in py).each([
      { spec: [], version: '2026-07-28' },
      { spec: ['--spec', '2025-11-25'], version: '2025-11-25' },
    ])('negotiates $version, with a bearer header', async ({ spec, version }) => {
      const python = 'python' in py ? py.python : 'python3';
      const args = [join(FIXTURES, 'python_server.py'), 'http', ...(stateless ? ['stateless'] : [])];
      const server = await startListening(python, args);
      try {
        const url = `http://127.0.0.1:${server.port}/mcp`;
        const run = await runCli(['snapshot', '--url', url, '--header', 'Authorization: Bearer t', ...spec]);
        expect(run.code, run.stderr).toBe(0);
        const snapshot = parseSnapshot(run.stdout, 'stdout');
        expect(snapshot.protocolVersion).toBe(version);
        expect(snapshot.server.name).toBe('python-snapshot-fixture');
        expect(Object.keys(snapshot.tools)).toEqual(['add']);
        expect(Object.keys(snapshot.prompts ?? {})).toEqual(['greet']);
        expect(Object.keys(snapshot.resourceTemplates ?? {})).toEqual(['notes://{note_id}']);
      } finally {
        await stop(server.child);
      }
    });
  },
);
