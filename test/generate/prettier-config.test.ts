/**
 * Output is formatted with the prettier config that applies to the output directory, so it matches what
 * the user's own prettier would write — including the runtime files, which are otherwise copied as is.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/generate.js';
import { SCHEMA_DIR, tempDir } from '../helpers/generate.js';

describe('a prettier config in the output directory', () => {
  it('is honoured by every formatted file, runtime included; without one the defaults apply', async () => {
    const withConfig = tempDir('prettier-config');
    writeFileSync(
      join(withConfig, '.prettierrc.json'),
      JSON.stringify({ semi: false, useTabs: true, singleQuote: false }),
    );
    const styled = await generate({
      spec: '2024-11-05',
      schemaDir: SCHEMA_DIR,
      outDir: withConfig,
      artifacts: ['client'],
      runtime: 'copy',
    });
    const plain = await generate({
      spec: '2024-11-05',
      schemaDir: SCHEMA_DIR,
      outDir: tempDir('prettier-default'),
      artifacts: ['client'],
      runtime: 'copy',
    });
    const file = (result: typeof styled, path: string) => result.files.find((f) => f.path === path)!.contents;

    for (const path of ['maps.ts', 'client.ts', 'types.ts', 'runtime/core/peer.ts']) {
      const text = file(styled, path);
      expect(text, path).toMatch(/^\t\S/m);
      expect(text, path).not.toMatch(/^ {2}\S/m);
      expect(text, path).toMatch(path === 'types.ts' ? /jsonrpc: "2\.0"/ : /from "\.\.?\//);
      expect(text, path).not.toMatch(/;\n/);
      const defaults = file(plain, path);
      expect(defaults, path).toMatch(/^ {2}\S/m);
      expect(defaults, path).toMatch(/;\n/);
    }
  }, 120_000);
});
