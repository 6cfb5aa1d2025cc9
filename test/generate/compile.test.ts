/**
 * Everything generate emits, for all five official versions, compiles under `tsc --strict` in one
 * program (one tsc run: type-checking the five outputs separately would cost five compiler start-ups).
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ARTIFACTS, type GeneratedFile } from '../../src/emit/shared/context.js';
import { sdkSource } from '../../src/emit/sdk/sdk-files.js';
import { createTsFiles } from '../../src/emit/shared/ts-project.js';
import { ROOT, VERSIONS, generated, tempDir, tscProject, writeFiles } from '../helpers/generate.js';

const ACME = join(ROOT, 'schema', 'examples', 'acme-jobs.extension.json');

/** Every artifact, the opt-in SDK adapters included. */
const ALL = [...ARTIFACTS];

/**
 * The output plus the TypeScript sdk.js and sdk.d.ts are made from, as its own module (sdk-source.ts): users
 * get the adapter as JavaScript and declarations, so its bodies are type-checked here.
 */
const withSdkSource = ({ files, model }: Awaited<ReturnType<typeof generated>>): GeneratedFile[] => [
  ...files,
  { path: 'sdk-source.ts', contents: sdkSource(model, createTsFiles(), '.js') },
];

it('all artifacts of every version compile under tsc --strict --noEmit with zero errors', async () => {
  const dir = tempDir('compile');
  // Sequential on purpose: generation is CPU-bound and the other test files run beside this one.
  for (const version of VERSIONS) {
    const result = await generated(version, { artifacts: ALL });
    const paths = result.files.map((f) => f.path);
    for (const expected of [
      'index.ts',
      'types.ts',
      'maps.ts',
      'validators.js',
      'validators.d.ts',
      'client.ts',
      'server.ts',
      'sdk.js',
      'sdk.d.ts',
      'sdk-v1.ts',
    ]) {
      expect(paths, version).toContain(expected);
    }
    writeFiles(join(dir, version), withSdkSource(result));
  }
  // The SDK adapters of a vendor extension in the newest version (the 2025-11-25 one runs in test/interop).
  const acme = await generated('2026-07-28', { artifacts: ALL, extensions: [ACME] });
  writeFiles(join(dir, 'acme-2026-07-28'), withSdkSource(acme));
  const { code, stdout, stderr } = await tscProject(dir);
  expect(stdout + stderr).toBe('');
  expect(code).toBe(0);
}, 180_000);
