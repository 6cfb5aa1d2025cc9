/**
 * `mcp-typegen init`: a starter mcp-typegen.config.json and a starter extension file. Never overwrites:
 * an existing file is an error (exit 2) naming it, and then nothing is written. Then the project's
 * package.json gets `@mcp-typegen/runtime` (what the generated code imports at run time) and
 * .prettierignore the output directory (Prettier has no comment that skips a file).
 */
import { existsSync } from 'node:fs';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { RUNTIME_PACKAGE, runtimeRange } from '../emit/shared/runtime.js';
import { CONFIG_NAME, findConfig } from '../config/load.js';
import { InputError } from '../errors.js';
import { specVersionProblem } from '../load/spec-source.js';
import { EXIT, type Out } from '../run/console.js';
import type { JsModuleShape } from '../emit/shared/context.js';
import { tsconfigDroppingJavaScript } from '../emit/shared/project-tsconfig.js';

export const STARTER_EXTENSION = 'mcp.extension.json';

const STARTER_OUT = 'src/mcp';

export function starterConfig(spec: string, jsModules: JsModuleShape = 'js'): string {
  const config = {
    $schema: './node_modules/mcp-typegen/schema/config.schema.json',
    targets: [
      {
        name: 'mcp',
        spec,
        out: STARTER_OUT,
        extensions: [STARTER_EXTENSION],
        artifacts: ['client', 'server'],
        importExtension: '.js',
        jsModules,
        singleFile: false,
      },
    ],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

export function starterExtension(spec: string): string {
  const ext = {
    $schema: './node_modules/mcp-typegen/schema/extension.schema.json',
    extension: 'example/hello',
    version: '0.1.0',
    description:
      'A starter vendor extension: one request the client sends to the server. Rename the vendor prefix and add your methods.',
    targets: [spec],
    methods: {
      'example/hello.greet': {
        kind: 'request',
        direction: 'client->server',
        description: 'Ask the server for a greeting.',
        params: {
          type: 'object',
          properties: { name: { type: 'string', description: 'Who to greet.' } },
          required: ['name'],
          additionalProperties: false,
        },
        result: {
          type: 'object',
          properties: { greeting: { type: 'string' } },
          required: ['greeting'],
        },
      },
    },
  };
  return `${JSON.stringify(ext, null, 2)}\n`;
}

export async function runInit(cwd: string, spec: string, out: Out): Promise<number> {
  // The starter config must name a version generate can find: refused here as generate --spec refuses it.
  const unknownSpec = specVersionProblem(spec, { cwd, otherSchema: '' });
  if (unknownSpec) throw unknownSpec;
  // In a subdirectory of a configured project, `generate` would find that config: a second one here
  // would silently shadow it, so point at the existing one instead.
  const existing = findConfig(cwd);
  if (existing && dirname(existing) !== resolve(cwd)) {
    throw new InputError(
      existing,
      undefined,
      `already configures ${resolve(cwd)} (found upward from it): init wrote nothing`,
      'add a target to that file, or run init in a directory outside that project',
    );
  }
  // A tsc build that emits without allowJs would leave validators.js behind: such a project gets validators.ts.
  const tsconfig = tsconfigDroppingJavaScript(cwd);
  const files = [
    { path: join(cwd, CONFIG_NAME), text: starterConfig(spec, tsconfig === null ? 'js' : 'ts') },
    { path: join(cwd, STARTER_EXTENSION), text: starterExtension(spec) },
  ];
  for (const f of files) {
    if (existsSync(f.path))
      throw new InputError(
        f.path,
        undefined,
        'already exists: init never overwrites a file',
        'move it away, or edit it instead of running init',
      );
  }
  for (const f of files) {
    await writeFile(f.path, f.text, { flag: 'wx' });
    out.info(`wrote ${f.path}`);
  }
  if (tsconfig !== null)
    out.info(
      `${tsconfig} emits with tsc without "allowJs": the validators are generated as TypeScript ("jsModules": "ts")`,
    );
  await addRuntimeDependency(cwd, out);
  await addPrettierIgnore(cwd, `${STARTER_OUT}/`, out);
  out.info('next: npm install && npx mcp-typegen generate');
  return EXIT.ok;
}

/** Adds the runtime to package.json's dependencies, unless it is there already (any range the user chose stays). */
async function addRuntimeDependency(cwd: string, out: Out): Promise<void> {
  const file = join(cwd, 'package.json');
  if (!existsSync(file)) {
    out.info(`no package.json here: add ${RUNTIME_PACKAGE}@"${runtimeRange()}" to your app's dependencies`);
    return;
  }
  const text = await readFile(file, 'utf8');
  let pkg: { type?: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  try {
    pkg = JSON.parse(text) as typeof pkg;
  } catch {
    throw new InputError(file, undefined, 'is not valid JSON', `fix it, then add ${RUNTIME_PACKAGE} to dependencies`);
  }
  if (pkg.type !== 'module')
    out.info(
      `${file} has no "type": "module", and the generated code is ES modules: run \`npm pkg set type=module\` (or compile to CommonJS with tsc, as "CommonJS projects" in mcp-typegen's docs/build.md says)`,
    );
  if (pkg.dependencies?.[RUNTIME_PACKAGE] !== undefined) return;
  pkg.dependencies = { ...pkg.dependencies, [RUNTIME_PACKAGE]: runtimeRange() };
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  await writeFile(file, `${JSON.stringify(pkg, null, indent)}\n`);
  out.info(`added ${RUNTIME_PACKAGE}@${runtimeRange()} to ${file} dependencies`);
}

async function addPrettierIgnore(cwd: string, entry: string, out: Out): Promise<void> {
  const file = join(cwd, '.prettierignore');
  const text = existsSync(file) ? await readFile(file, 'utf8') : '';
  if (text.split(/\r?\n/).some((line) => line.trim() === entry || line.trim() === entry.replace(/\/$/, ''))) return;
  await appendFile(file, `${text === '' || text.endsWith('\n') ? '' : '\n'}${entry}\n`);
  out.info(`added ${entry} to ${file}`);
}
