/**
 * The inputs hash (what `--check`'s fast path and "unchanged" compare) covers the generator's own build in a
 * checkout of this repository: a generator rebuilt from edited sources, still at the same version, must not
 * take output written by the previous build for its own. An installed package has no build stamp (null).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { targetInputs } from '../../src/inputs.js';
import { toolBuild, toolPackage } from '../../src/load/package-root.js';
import { ROOT, SCHEMA_DIR } from '../helpers/paths.js';

const options = {
  spec: '2025-11-25',
  schemaDir: SCHEMA_DIR,
  cwd: ROOT,
  outDir: join(ROOT, 'test', '.tmp', 'build-stamp'),
  artifacts: ['types' as const],
};

describe('the inputs hash and the generator build', () => {
  it('changes when the generator is rebuilt from other sources, and not otherwise', async () => {
    const { version } = toolPackage();
    const hash = async (build: string | null) => (await targetInputs(options, {}, { version, build })).hash;
    const a = await hash('build-a');
    expect(a).toBeDefined();
    expect(await hash('build-a')).toBe(a);
    const b = await hash('build-b');
    expect(b).not.toBe(a);
    expect(await hash(null)).not.toBe(b);
  });

  it('by default is that of the running tool: its version and the build this checkout stamped', async () => {
    expect(toolBuild()).toMatch(/^[0-9a-f]{64}$/);
    const stamped = await targetInputs(options, {}, { version: toolPackage().version, build: toolBuild() });
    expect((await targetInputs(options)).hash).toBe(stamped.hash);
  });
});
