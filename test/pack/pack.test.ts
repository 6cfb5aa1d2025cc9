/**
 * As a user installs it: `npm pack` the built tool, install the tarball into a fresh npm project, run
 * `mcp-typegen generate` from a prebuild script and compile client and server usage with `tsc --strict`.
 * One install (≈30–60 s from the npm cache).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT, SCHEMA_DIR, tempDir } from '../cli/helpers.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

it('installs from the packed tarball, generates in prebuild and compiles with tsc --strict', async () => {
  if (!existsSync(join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js')))
    execFileSync(npm, ['run', 'build'], { cwd: REPO_ROOT, stdio: 'pipe' });
  const dir = tempDir('pack');
  const packDir = join(dir, 'pack');
  mkdirSync(packDir);
  execFileSync(npm, ['pack', '--ignore-scripts', '--pack-destination', packDir], { cwd: REPO_ROOT, stdio: 'pipe' });
  // The generated code imports the runtime package: the app installs it too, as init tells users to.
  execFileSync(npm, ['pack', '-w', '@mcp-typegen/runtime', '--ignore-scripts', '--pack-destination', packDir], {
    cwd: REPO_ROOT,
    stdio: 'pipe',
  });
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
          prebuild: `mcp-typegen generate --spec 2025-11-25 --schema-dir ${JSON.stringify(SCHEMA_DIR)} --out src/mcp`,
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
    ],
    {
      cwd: app,
      stdio: 'pipe',
      timeout: 240_000,
    },
  );
  let output: string;
  try {
    output = execFileSync(npm, ['run', 'build'], {
      cwd: app,
      stdio: 'pipe',
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; status?: number };
    throw new Error(`npm run build failed (exit ${e.status}):\n${e.stdout ?? ''}\n${e.stderr ?? ''}`, { cause: error });
  }
  expect(output).toMatch(/2025-11-25: \d+ methods → src\/mcp/);
  expect(existsSync(join(app, 'src', 'mcp', 'client.ts'))).toBe(true);
}, 420_000);
