/**
 * Everything generate emits, for all five official versions, compiles under `tsc --strict` in one
 * program (one tsc run: type-checking the five outputs separately would cost five compiler start-ups).
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { VERSIONS, generated, tempDir, tscProject, writeFiles } from '../helpers/generate.js';

it('all artifacts of every version compile under tsc --strict --noEmit with zero errors', async () => {
  const dir = tempDir('compile');
  // Sequential on purpose: generation is CPU-bound and the other test files run beside this one.
  for (const version of VERSIONS) {
    const result = await generated(version);
    const paths = result.files.map((f) => f.path);
    for (const expected of [
      'index.ts',
      'types.ts',
      'maps.ts',
      'validators.js',
      'validators.d.ts',
      'client.ts',
      'server.ts',
    ]) {
      expect(paths, version).toContain(expected);
    }
    writeFiles(join(dir, version), result.files);
  }
  const { code, stdout, stderr } = await tscProject(dir);
  expect(stdout + stderr).toBe('');
  expect(code).toBe(0);
}, 180_000);
