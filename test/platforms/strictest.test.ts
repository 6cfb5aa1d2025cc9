/**
 * Every version's output compiles with zero errors under the strictest settings users build with
 * (tsconfig.strictest.json: exactOptionalPropertyTypes, noUncheckedIndexedAccess,
 * noPropertyAccessFromIndexSignature, noUnused*, erasableSyntaxOnly, isolatedDeclarations,
 * verbatimModuleSyntax…), in two programs:
 *
 * - a Node project (`types: ["node"]`): client and server with the starter extension, server only, and the
 *   vendored runtime (`runtime: copy`);
 * - a browser project (`types: []`, DOM lib, no Node types at all): client only, from the package and vendored.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { GenerateOptions } from '../../src/generate.js';
import { starterExtension } from '../../src/cli/init-command.js';
import { ROOT, TSC, VERSIONS, generated, run, tempDir, writeFiles } from '../helpers/generate.js';

const strictest = JSON.parse(readFileSync(join(ROOT, 'tsconfig.strictest.json'), 'utf8')) as {
  compilerOptions: Record<string, unknown>;
};

async function project(
  dir: string,
  variants: Record<string, Partial<GenerateOptions>>,
  types: string[],
  lib: string[],
) {
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
  const compilerOptions = {
    ...strictest.compilerOptions,
    types,
    lib,
    typeRoots: [join(ROOT, 'node_modules', '@types')],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['**/*.ts'] }, null, 2));
  return run(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], { cwd: dir });
}

it('every version: client+server with an extension, server only and the vendored copy, in a Node project', async () => {
  const result = await project(
    tempDir('strictest-node'),
    {
      both: { extensions: ['(starter)'] },
      server: { artifacts: ['server'] },
      copy: { runtime: 'copy' },
    },
    ['node'],
    ['ES2022'],
  );
  expect(result.stdout + result.stderr).toBe('');
  expect(result.code).toBe(0);
}, 300_000);

it('every version: client only, from the package and vendored, with "types": [] and the DOM lib', async () => {
  const result = await project(
    tempDir('strictest-browser'),
    { client: { artifacts: ['client'] }, 'client-copy': { artifacts: ['client'], runtime: 'copy' } },
    [],
    ['ES2022', 'DOM', 'DOM.Iterable'],
  );
  expect(result.stdout + result.stderr).toBe('');
  expect(result.code).toBe(0);
}, 300_000);
