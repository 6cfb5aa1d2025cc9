/**
 * The `generate --check` row of the bench measures the hash fast path: it only exists if the hash
 * `generate()` records equals the one `--check` recomputes from disk. They once differed (the facts were
 * spread in different key orders into JSON.stringify), so every --check regenerated everything.
 */
import { describe, expect, it } from 'vitest';
import { resolveArtifacts } from '../../src/generate-artifacts.js';
import { inputsHash, inputsHashFromDisk, sha256 } from '../../src/inputs.js';
import { loadSchema } from '../../src/load/schema.js';
import { ROOT, SCHEMA_DIR } from '../helpers/generate.js';

describe('inputs hash', () => {
  it('does not depend on the key order of the facts', () => {
    const facts = {
      schemaSha256: sha256('x'),
      extensions: [['a.json', sha256('a')]] as [string, string][],
      artifacts: ['types'],
      importExtension: '.js',
      format: true,
    };
    const reordered = {
      format: true,
      importExtension: '.js',
      artifacts: ['types'],
      extensions: facts.extensions,
      schemaSha256: facts.schemaSha256,
    };
    expect(inputsHash(reordered)).toBe(inputsHash(facts));
  });

  it('from disk equals the hash generate() records (as generate builds its facts)', async () => {
    const options = { spec: '2025-11-25', schemaDir: SCHEMA_DIR, cwd: ROOT };
    const artifacts = resolveArtifacts(undefined);
    const loaded = await loadSchema(options);
    const recorded = inputsHash({
      schemaSha256: loaded.sha256,
      extensions: [],
      artifacts,
      importExtension: '.js',
      format: true,
    });
    expect(await inputsHashFromDisk(options, { artifacts, importExtension: '.js', format: true })).toBe(recorded);
  });
});
