/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector` with `--cli`, which needs Node ≥ 22.19: run with
 * tools/node22) against a generated 2026-07-28 server, over stdio (the Inspector starts the server) and over
 * Streamable HTTP (a loopback server in this process, stopped afterwards): tools/list and tools/call, each
 * an Inspector process of its own. The Inspector's client opens with initialize, so the dual-era server
 * serves it as a 2025-11-25 session.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, TMP, built, compileFixture, importBuilt } from '../client/helpers/build.js';
import { NODE22, requireTool } from '../platforms/tools.js';
import { listen } from '../transports/helpers/http.js';

const run = promisify(execFile);
const INSPECTOR = join(
  ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  'clients',
  'launcher',
  'build',
  'index.js',
);
const TOOLS = [
  {
    name: 'echo',
    description: 'Echoes its text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
];

let home: string;
let stdioServer: string;
let http: Awaited<ReturnType<typeof listen>> | undefined;
let endpoint: { close(): Promise<void> } | undefined;

beforeAll(async () => {
  requireTool(NODE22, 'run `node scripts/install-tools.mjs` (the test setup runs it; it installs tools/node22)');
  // The Inspector keeps a server catalog under HOME: give it one of its own.
  home = mkdtempSync(join(TMP, 'inspector-home-'));
  stdioServer = await compileFixture('2026-07-28', join(import.meta.dirname, 'fixtures', 'inspector-server.ts'));
  const gen = await importBuilt(await built('2026-07-28'), 'index.js');
  const server = gen.createServer(
    {
      'tools/list': () => ({ tools: TOOLS }),
      'tools/call': (params: any, ctx: any) => ({
        content: [{ type: 'text', text: `echo:${params.arguments?.text}|${ctx.session.protocolVersion}` }],
      }),
    },
    { serverInfo: { name: 'inspected', version: '1.0.0' } },
  );
  endpoint = gen.createStreamableHttpServer({ server, keepAliveMs: 0 });
  http = await listen(endpoint as never);
});

afterAll(async () => {
  await endpoint?.close();
  await http?.close();
  rmSync(home, { recursive: true, force: true });
});

/** One Inspector CLI run: its JSON answer (stdout). */
async function inspect(args: string[], target: string[]): Promise<any> {
  const { stdout } = await run(NODE22, [INSPECTOR, '--cli', ...args, ...target], {
    env: { PATH: process.env['PATH'] ?? '', HOME: home, MCP_CATALOG_PATH: join(home, 'catalog.json') },
    timeout: 60_000,
  });
  return JSON.parse(stdout);
}

const CALL = ['--tool-arg', 'text=hi', '--method', 'tools/call', '--tool-name', 'echo'];

it(
  'Inspector CLI → generated 2026-07-28 server: tools/list and tools/call over stdio and Streamable HTTP',
  { timeout: 120_000 },
  async () => {
    const targets = { stdio: [process.execPath, stdioServer], http: [`${http!.url}/mcp`] };
    const answers = await Promise.all(
      Object.values(targets).flatMap((target) => [inspect(['--method', 'tools/list'], target), inspect(CALL, target)]),
    );
    const [stdioList, stdioCall, httpList, httpCall] = answers;
    for (const list of [stdioList, httpList]) expect(list).toEqual({ tools: TOOLS });
    for (const call of [stdioCall, httpCall]) {
      expect(call).toEqual({ content: [{ type: 'text', text: 'echo:hi|2025-11-25' }] });
    }
  },
);
