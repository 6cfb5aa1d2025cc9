/**
 * Every version's output compiles with zero errors under the strictest settings users build with
 * (tsconfig.strictest.json: exactOptionalPropertyTypes, noUncheckedIndexedAccess,
 * noPropertyAccessFromIndexSignature, noUnused*, erasableSyntaxOnly, isolatedDeclarations,
 * verbatimModuleSyntax…), with TypeScript 5.9, 6.0 and the 7.x native compiler, in two programs:
 *
 * - a Node project: client and server with the starter extension, server only, and the vendored runtime
 *   (`runtime: copy`, for the first and last version: see COPY_VERSIONS). TypeScript 5.9 gets
 *   `types: ["node"]`; 6.0 and 7.x keep their default (`types: []`), so the Node parts (the runtime's `/node`
 *   subpath and the vendored Node transports) must reference Node's types themselves;
 * - a browser project (`types: []`, DOM lib, no Node types at all): client only, from the package (and vendored,
 *   for the first and last version).
 *
 * Each program is generated once and compiled by the three compilers side by side, both programs in one
 * `tsc -b` per compiler (each test checks that build: its own program and the other compile cleanly).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GenerateOptions } from '../../src/generate.js';
import { starterExtension } from '../../src/cli/init-command.js';
import { ROOT, TMP, VERSIONS, generated, run, tempDir, writeFiles } from '../helpers/generate.js';
import { LINUX_X64, TSC, requireTool } from './tools.js';

const strictest = JSON.parse(readFileSync(join(ROOT, 'tsconfig.strictest.json'), 'utf8')) as {
  compilerOptions: Record<string, unknown>;
};

type Compiler = keyof typeof TSC;
// TypeScript 6 and 7 come from tools/ (linux-x64 binaries); elsewhere only 5.9 runs.
const COMPILERS: Compiler[] = LINUX_X64 ? ['5.9', '6.0', '7.x'] : ['5.9'];

/**
 * The vendored runtime (`runtime: copy`) is the same code for every version (only its header names the
 * version), and each version's generated code is compiled in the variants that import the package: the
 * copies are compiled for the first and the last version (one of each era), not five times over. Measured:
 * the five copies were two thirds of the lines both programs compile (116k of 175k).
 */
const COPY_VERSIONS: readonly string[] = VERSIONS.filter((_, i) => i === 0 || i === VERSIONS.length - 1);

async function generateProject(dir: string, variants: Record<string, Partial<GenerateOptions>>): Promise<string> {
  mkdirSync(dir, { recursive: true });
  for (const version of VERSIONS) {
    for (const [name, options] of Object.entries(variants)) {
      if (options.runtime === 'copy' && !COPY_VERSIONS.includes(version)) continue;
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

const builds = new Map<Compiler, Promise<{ output: string; code: number | null }>>();

/**
 * Both projects under one compiler in a single `tsc -b` (forced: nothing is skipped as up to date), one
 * process: the libraries, Node's types and the runtime's declarations are read once, not once per project.
 */
function compileBoth(compiler: Compiler): Promise<{ output: string; code: number | null }> {
  let build = builds.get(compiler);
  if (!build) {
    const tsc = requireTool(
      TSC[compiler],
      'run `node scripts/install-tools.mjs` (the test setup runs it; it installs tools/typescript)',
    );
    // TypeScript 5.9 gets Node's types in the Node project; 6.0 and 7.x keep their default (`types: []`).
    const node = writeTsconfig(nodeProject, compiler, compiler === '5.9' ? ['node'] : undefined, ['ES2022']);
    const browser = writeTsconfig(browserProject, compiler, [], ['ES2022', 'DOM', 'DOM.Iterable']);
    build = run(process.execPath, [tsc, '-b', '--force', node, browser, '--pretty', 'false'], { cwd: TMP }).then(
      (result) => ({ output: result.stdout + result.stderr, code: result.code }),
    );
    builds.set(compiler, build);
  }
  return build;
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
  it('every version: client+server with an extension, server only (and the vendored copy), in a Node project', async () => {
    expect(await compileBoth(compiler)).toEqual({ output: '', code: 0 });
  }, 300_000);

  it('every version: client only, from the package (and vendored), with "types": [] and the DOM lib', async () => {
    expect(await compileBoth(compiler)).toEqual({ output: '', code: 0 });
  }, 300_000);
});
