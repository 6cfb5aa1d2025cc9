/**
 * As a user installs it: `npm pack` the built tool, install the tarball into a fresh npm project outside
 * this repository (no MCP_SCHEMA_DIR, no ../shared), run `mcp-typegen generate --spec` from a prebuild
 * script — the schema is downloaded (from a loopback server standing in for the download host, via
 * MCP_TYPEGEN_SCHEMA_BASE_URL), verified and cached — and compile client, server and token-verifier usage with
 * `tsc --strict`; the verifiers load from the installed dependencies as ES module and CommonJS. One install (≈30–60 s from the npm cache).
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli/helpers.js';
import { packInto } from '../helpers/pack.js';
import { startSchemaServer, type SchemaServer } from '../helpers/schema-server.js';

let server: SchemaServer | undefined;
let dir: string | undefined;
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const execFileAsync = promisify(execFile);

it('installs from the packed tarball, generates in prebuild and compiles with tsc --strict', async () => {
  if (!existsSync(join(REPO_ROOT, 'dist', 'cli', 'main.js')))
    execFileSync(npm, ['run', 'build'], { cwd: REPO_ROOT, stdio: 'pipe' });
  // Outside the repository: nothing of the development layout is reachable from the project.
  dir = mkdtempSync(join(tmpdir(), 'mcp-typegen-pack-'));
  server = await startSchemaServer();
  const packDir = join(dir, 'pack');
  // Both packed tarballs (test/helpers/pack.ts): the generated code imports the runtime package, and the app
  // installs it too, as init tells users to.
  await packInto(packDir);
  const tarballs = readdirSync(packDir).filter((f) => f.endsWith('.tgz'));
  expect(tarballs).toHaveLength(2);

  const app = join(dir, 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify(
      {
        name: 'mcp-typegen-pack-test',
        private: true,
        type: 'module',
        scripts: {
          prebuild: 'mcp-typegen generate --spec 2025-11-25 --out src/mcp',
          build: 'tsc -p tsconfig.json',
        },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      include: ['src'],
    }),
  );
  writeFileSync(
    join(app, 'src', 'client-usage.ts'),
    [
      "import { createClient, METHODS, type ClientRequests, type ParamsOf, type CallToolResult } from './mcp/index.js';",
      "export const params: ParamsOf<'tools/call'> = { name: 'echo', arguments: { text: 'hi' } };",
      "export type CallResult = ClientRequests['tools/call']['result'];",
      'export const sameResult: CallToolResult | undefined = undefined as CallResult | undefined;',
      'export const make: typeof createClient = createClient;',
      'export const methodCount: number = Object.keys(METHODS).length;',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(app, 'src', 'server-usage.ts'),
    [
      "import { createServer, type McpServerHandlers, type ListToolsResult } from './mcp/index.js';",
      'export const make: typeof createServer = createServer;',
      'export type Handlers = McpServerHandlers;',
      'export const empty: ListToolsResult = { tools: [] };',
      '',
    ].join('\n'),
  );

  // The token verifiers load their libraries (jose, fast-jwt) from the installed dependencies.
  writeFileSync(
    join(app, 'src', 'auth-usage.ts'),
    [
      "import { jwtVerifier } from '@mcp-typegen/runtime/auth/server';",
      "export const verifier = jwtVerifier({ issuer: 'https://auth.example.com', algorithms: ['ES256', 'RS256'] });",
      '',
    ].join('\n'),
  );

  execFileSync(
    npm,
    [
      'install',
      ...tarballs.map((t) => join(packDir, t)),
      'typescript@5.9.3',
      '@types/node@20.19.43',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      // No install-time script in either package: the strictest script policy installs them.
      '--strict-allow-scripts',
    ],
    {
      cwd: app,
      stdio: 'pipe',
      timeout: 240_000,
    },
  );
  // A user's environment: no schema root, network allowed, a cache of its own.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    MCP_TYPEGEN_OFFLINE: '0',
    MCP_TYPEGEN_CACHE: join(dir, 'cache'),
    MCP_TYPEGEN_SCHEMA_BASE_URL: server.base('ok'),
  };
  delete env.MCP_SCHEMA_DIR;
  // The published manifests have no install-time scripts (npm's install-script policy flags them).
  for (const name of ['mcp-typegen', '@mcp-typegen/runtime']) {
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare'];
    expect(
      Object.keys(manifest.scripts ?? {}).filter((s) => lifecycle.includes(s)),
      name,
    ).toEqual([]);
  }
  const version = execFileSync(npm, ['exec', '--', 'mcp-typegen', '--version'], { cwd: app, encoding: 'utf8', env });
  const ownVersion = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  expect(version.trim()).toBe(ownVersion);
  let output: string;
  try {
    // Asynchronously: the schema server lives in this process and must answer meanwhile.
    ({ stdout: output } = await execFileAsync(npm, ['run', 'build'], { cwd: app, encoding: 'utf8', env }));
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; status?: number };
    throw new Error(`npm run build failed (exit ${e.status}):\n${e.stdout ?? ''}\n${e.stderr ?? ''}`, { cause: error });
  }
  expect(output).toMatch(/2025-11-25: \d+ methods → src\/mcp/);
  expect(existsSync(join(app, 'src', 'mcp', 'client.ts'))).toBe(true);
  expect(server.hits).toEqual(['ok/2025-11-25']);
  // Both module systems find what /auth/server imports among the installed dependencies.
  const made = "typeof m.jwtVerifier({ issuer: 'https://auth.example.com' }).verify";
  for (const [type, script] of [
    ['module', `import('@mcp-typegen/runtime/auth/server').then((m) => console.log(${made}))`],
    ['commonjs', `const m = require('@mcp-typegen/runtime/auth/server'); console.log(${made})`],
  ] as const) {
    const loaded = execFileSync(process.execPath, [`--input-type=${type}`, '-e', script], {
      cwd: app,
      encoding: 'utf8',
    });
    expect(loaded.trim(), type).toBe('function');
  }
  expect(existsSync(join(dir, 'cache', 'schemas', '2025-11-25', 'schema.json'))).toBe(true);
}, 420_000);
