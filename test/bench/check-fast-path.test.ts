/**
 * The `generate --check` row of the bench measures the hash fast path: it only exists if the hash
 * `generate()` records equals the one `--check` recomputes from disk. They once differed (the facts were
 * spread in different key orders into JSON.stringify), so every --check regenerated everything.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputsHash, inputsHashFromDisk } from '../../src/inputs.js';
import { sha256 } from '../../src/load/hash.js';
import { loadSchema } from '../../src/load/schema.js';
import { ROOT, SCHEMA_DIR } from '../helpers/paths.js';

describe('inputs hash', () => {
  it('does not depend on the key order of the options', async () => {
    const base = { schemaSha256: sha256('x'), extensionShas: [sha256('a')], outDir: join(ROOT, 'test', '.tmp') };
    const a = await inputsHash({ ...base, options: { artifacts: ['types'], importExtension: '.js', format: true } });
    const b = await inputsHash({ ...base, options: { format: true, importExtension: '.js', artifacts: ['types'] } });
    expect(a).toBeDefined();
    expect(b).toBe(a);
  });

  it('from disk equals the hash generate() records (as generate builds its facts)', async () => {
    const options = { spec: '2025-11-25', schemaDir: SCHEMA_DIR, cwd: ROOT, outDir: join(ROOT, 'test', '.tmp', 'x') };
    const loaded = await loadSchema(options);
    const recorded = await inputsHash({
      schemaSha256: loaded.sha256,
      extensionShas: [],
      options,
      outDir: options.outDir,
    });
    expect(await inputsHashFromDisk(options)).toBe(recorded);
  });
});
