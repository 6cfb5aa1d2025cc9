/**
 * The `generate --check` row of the bench measures the hash fast path: it only exists if the hash
 * `generate()` records equals the one `--check` recomputes from disk. They once differed (the facts were
 * spread in different key orders into JSON.stringify), so every --check regenerated everything.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/generate.js';
import { targetInputs } from '../../src/inputs.js';
import { ROOT, SCHEMA_DIR } from '../helpers/paths.js';

const outDir = join(ROOT, 'test', '.tmp', 'fast-path');
const base = { spec: '2025-11-25', schemaDir: SCHEMA_DIR, cwd: ROOT, outDir };

describe('inputs hash', () => {
  it('does not depend on the key order of the options', async () => {
    const a = await targetInputs({ ...base, artifacts: ['types'], importExtension: '.js', format: true });
    const b = await targetInputs({ format: true, importExtension: '.js', artifacts: ['types'], ...base });
    expect(a.hash).toBeDefined();
    expect(b.hash).toBe(a.hash);
  });

  it('from disk equals the hash generate() records', async () => {
    const options = { ...base, artifacts: ['types' as const] };
    expect((await generate(options)).inputsHash).toBe((await targetInputs(options)).hash);
  });
});
