/**
 * `jsModules: 'ts'`: the modules compiled at generation time (validators, tool validators, the SDK adapter)
 * as TypeScript, for a `tsc --outDir` build without `allowJs` — the strictest settings with
 * `isolatedDeclarations` and `declaration` on. The build emits them with the rest and node runs the result;
 * with `.ts` specifiers every importer names the .ts file. And with the default shape, generate warns when
 * the project's tsconfig would leave validators.js out of the build.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ARTIFACTS } from '../../src/emit/shared/context.js';
import { generate } from '../../src/generate.js';
import { ROOT, SCHEMA_DIR, tempDir, writeFiles } from '../helpers/generate.js';
import { tscBuild } from '../helpers/tsc-build.js';

const SNAPSHOT = join(ROOT, 'test', 'fixtures', 'snapshots', 'weather.snapshot.json');
const STRICTEST = join(ROOT, 'tsconfig.strictest.json');

const MAIN = `import * as V from './mcp/validators.js';
import { createServer } from './mcp/index.js';

const issues = V.Tool['~standard'].validate({ name: 1, inputSchema: { type: 'object' } });
console.log(JSON.stringify({ ok: V.Tool({ name: 'echo', inputSchema: { type: 'object' } }), issues, server: typeof createServer }));
`;

function project(dir: string, compilerOptions: object, exclude?: string[]): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  const types = { types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] };
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: STRICTEST,
      compilerOptions: { ...types, ...compilerOptions },
      include: ['src'],
      exclude,
    }),
  );
}

it('a tsc --outDir build under isolatedDeclarations emits the TypeScript-shaped validators, and node runs them', async () => {
  const parent = tempDir('js-modules');
  const emitting = join(parent, 'emitting');
  const tsExtensions = join(parent, 'ts-extensions');
  project(emitting, { noEmit: false, declaration: true, isolatedDeclarations: true, outDir: 'dist', rootDir: 'src' });
  project(tsExtensions, { noEmit: true, allowImportingTsExtensions: true });
  const options = { spec: '2025-11-25', schemaDir: SCHEMA_DIR, artifacts: [...ARTIFACTS], tools: SNAPSHOT };
  const [built, withTs] = await Promise.all([
    generate({ ...options, jsModules: 'ts', outDir: join(emitting, 'src', 'mcp') }),
    generate({ ...options, jsModules: 'ts', importExtension: '.ts', outDir: join(tsExtensions, 'src', 'mcp') }),
  ]);
  const paths = built.files.map((f) => f.path);
  expect(paths).toEqual(expect.arrayContaining(['validators.ts', 'tool-validators.ts', 'sdk.ts']));
  expect(paths.filter((p) => p.endsWith('.js') || p.endsWith('.d.ts'))).toEqual([]);
  expect(built.warnings).toEqual([]);
  writeFiles(join(emitting, 'src', 'mcp'), built.files);
  writeFileSync(join(emitting, 'src', 'main.ts'), MAIN);

  // Every importer of a module that is TypeScript now names its .ts file.
  for (const file of withTs.files.filter((f) => f.path.endsWith('.ts')))
    expect(file.contents, file.path).not.toMatch(/from ["']\.\/(validators|tool-validators|sdk)\.js["']/);
  expect(withTs.files.find((f) => f.path === 'server.ts')?.contents).toMatch(/from ["']\.\/validators\.ts["']/);
  writeFiles(join(tsExtensions, 'src', 'mcp'), withTs.files);

  const [emitted, checked] = await tscBuild([emitting, tsExtensions]);
  expect(emitted.stdout, 'the emitting build').toBe('');
  expect(checked.stdout, 'the .ts-specifier build').toBe('');
  expect(readFileSync(join(emitting, 'dist', 'mcp', 'validators.d.ts'), 'utf8')).toContain(
    'export declare const Tool: Validator<T.Tool>;',
  );
  const { stdout } = await promisify(execFile)(process.execPath, [join(emitting, 'dist', 'main.js')]);
  const printed = JSON.parse(stdout) as { ok: boolean; issues: { issues: { path: string[] }[] }; server: string };
  expect(printed.ok).toBe(true);
  expect(printed.issues.issues.map((i) => i.path)).toContainEqual(['name']);
  expect(printed.server).toBe('function');
}, 180_000);

it('warns, naming the tsconfig and the fix, when a tsc build would leave validators.js out', async () => {
  const dir = tempDir('js-modules-warn');
  project(dir, { noEmit: false, outDir: 'dist', rootDir: 'src' }, ['src/**/vendored']);
  const result = await generate({
    spec: '2025-11-25',
    schemaDir: SCHEMA_DIR,
    outDir: join(dir, 'src', 'mcp'),
    artifacts: ['server'],
  });
  expect(result.warnings).toEqual([
    `${join(dir, 'tsconfig.json')}: tsc emits without "allowJs", so its output would lack validators.js (ERR_MODULE_NOT_FOUND at run time): set "jsModules": "ts" for this target (--js-modules ts), or "allowJs": true`,
  ]);
  // Outside what the tsconfig compiles (not included, or excluded), nothing to say.
  for (const out of ['elsewhere', 'src/lib/vendored/mcp']) {
    const quiet = await generate({
      spec: '2025-11-25',
      schemaDir: SCHEMA_DIR,
      outDir: join(dir, out),
      artifacts: ['server'],
    });
    expect(quiet.warnings, out).toEqual([]);
  }
}, 120_000);
