/**
 * Every version's output compiles with zero errors under the strictest settings users build with
 * (tsconfig.strictest.json: exactOptionalPropertyTypes, noUncheckedIndexedAccess,
 * noPropertyAccessFromIndexSignature, noUnused*, erasableSyntaxOnly, isolatedDeclarations,
 * verbatimModuleSyntax…), with TypeScript 5.9, 6.0 and the 7.x native compiler, in two programs:
 *
 * - a Node project: client and server with the starter extension, server only, and the vendored runtime
 *   (`runtime: copy`). TypeScript 5.9 gets `types: ["node"]`; 6.0 and 7.x keep their default (`types: []`),
 *   so the Node parts (the runtime's `/node` subpath and the vendored Node transports) must reference
 *   Node's types themselves;
 * - a browser project (`types: []`, DOM lib, no Node types at all): client only, from the package and vendored.
 *
 * Each program is generated once and compiled by the three compilers side by side.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GenerateOptions } from '../../src/generate.js';
import { starterExtension } from '../../src/cli/init-command.js';
import { ROOT, VERSIONS, generated, run, tempDir, writeFiles } from '../helpers/generate.js';
import { LINUX_X64, TSC, requireTool } from './tools.js';

const strictest = JSON.parse(readFileSync(join(ROOT, 'tsconfig.strictest.json'), 'utf8')) as {
  compilerOptions: Record<string, unknown>;
};

type Compiler = keyof typeof TSC;
// TypeScript 6 and 7 come from tools/ (linux-x64 binaries); elsewhere only 5.9 runs.
const COMPILERS: Compiler[] = LINUX_X64 ? ['5.9', '6.0', '7.x'] : ['5.9'];

async function generateProject(dir: string, variants: Record<string, Partial<GenerateOptions>>): Promise<string> {
  mkdirSync(dir, { recursive: true });
  for (const version of VERSIONS) {
    for (const [name, options] of Object.entries(variants)) {
      let extra = options;
      if (options.extensions) {
        const file = join(dir, `${version}.extension.json`);
        writeFileSync(file, starterExtension(version));
        extra = { ...options, extensions: [file] };
      }
      writeFiles(join(dir, version, name), (await generated(version, { ...extra, format: false })).files);
    }
  }
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  return dir;
}

/** A tsconfig per compiler; `types` undefined leaves the compiler's default. */
function writeTsconfig(dir: string, compiler: Compiler, types: string[] | undefined, lib: string[]): string {
  const compilerOptions = {
    ...strictest.compilerOptions,
    ...(types ? { types } : {}),
    lib,
    typeRoots: [join(ROOT, 'node_modules', '@types')],
  };
  const file = join(dir, `tsconfig.${compiler}.json`);
  writeFileSync(file, JSON.stringify({ compilerOptions, include: ['**/*.ts'] }, null, 2));
  return file;
}

async function compile(compiler: Compiler, tsconfig: string, cwd: string) {
  const tsc = requireTool(
    TSC[compiler],
    'run `node scripts/install-tools.mjs` (the test setup runs it; it installs tools/typescript)',
  );
  const result = await run(process.execPath, [tsc, '-p', tsconfig, '--pretty', 'false'], { cwd });
  return { output: result.stdout + result.stderr, code: result.code };
}

let nodeProject: string;
let browserProject: string;
beforeAll(async () => {
  nodeProject = await generateProject(tempDir('strictest-node'), {
    both: { extensions: ['(starter)'] },
    server: { artifacts: ['server'] },
    copy: { runtime: 'copy' },
  });
  browserProject = await generateProject(tempDir('strictest-browser'), {
    client: { artifacts: ['client'] },
    'client-copy': { artifacts: ['client'], runtime: 'copy' },
  });
}, 300_000);

describe.concurrent.each(COMPILERS)('TypeScript %s', (compiler) => {
  it('every version: client+server with an extension, server only and the vendored copy, in a Node project', async () => {
    const types = compiler === '5.9' ? ['node'] : undefined;
    const tsconfig = writeTsconfig(nodeProject, compiler, types, ['ES2022']);
    expect(await compile(compiler, tsconfig, nodeProject)).toEqual({ output: '', code: 0 });
  }, 300_000);

  it('every version: client only, from the package and vendored, with "types": [] and the DOM lib', async () => {
    const tsconfig = writeTsconfig(browserProject, compiler, [], ['ES2022', 'DOM', 'DOM.Iterable']);
    expect(await compile(compiler, tsconfig, browserProject)).toEqual({ output: '', code: 0 });
  }, 300_000);
});
