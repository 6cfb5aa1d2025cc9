/**
 * The inputs hash (what `--check`'s fast path and "unchanged" compare) covers the generator's own build in a
 * checkout of this repository: a generator rebuilt from edited sources, still at the same version, must not
 * take output written by the previous build for its own. An installed package has no build stamp (null).
 */
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { targetInputs } from '../../src/inputs.js';
import type * as packageRoot from '../../src/load/package-root.js';
import { toolBuild } from '../../src/load/package-root.js';
import { ROOT, SCHEMA_DIR } from '../helpers/paths.js';

const stamp = vi.hoisted(() => ({ value: 'build-a' as string | null }));
vi.mock('../../src/load/package-root.js', async (original) => ({
  ...(await original<typeof packageRoot>()),
  toolBuild: () => stamp.value,
}));

const options = {
  spec: '2025-11-25',
  schemaDir: SCHEMA_DIR,
  cwd: ROOT,
  outDir: join(ROOT, 'test', '.tmp', 'build-stamp'),
  artifacts: ['types' as const],
};

describe('the inputs hash and the generator build', () => {
  it('changes when the generator is rebuilt from other sources, and not otherwise', async () => {
    stamp.value = 'build-a';
    const a = (await targetInputs(options)).hash;
    expect((await targetInputs(options)).hash).toBe(a);
    stamp.value = 'build-b';
    const b = (await targetInputs(options)).hash;
    expect(b).toBeDefined();
    expect(b).not.toBe(a);
    stamp.value = null;
    expect((await targetInputs(options)).hash).not.toBe(b);
  });
});

describe('the build stamp itself', () => {
  it('is the fingerprint `npm run build` wrote for the tool in this checkout', async () => {
    const { toolBuild: real } = await vi.importActual<typeof packageRoot>('../../src/load/package-root.js');
    expect(real()).toMatch(/^[0-9a-f]{64}$/);
    expect(toolBuild).not.toBe(real);
  });
});
