/**
 * templates/ are formatted as the rest of the repository is (its own .prettierrc.json): `npm run format:check`
 * would say so too, but this says which file and how to fix it.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';

it('templates/ are formatted with the repository’s prettier config (npm run format:templates)', async () => {
  const script = pathToFileURL(join(import.meta.dirname, '../../scripts/format-templates.mjs')).href;
  const { unformattedTemplates } = (await import(script)) as {
    unformattedTemplates: (write?: boolean) => Promise<string[]>;
  };
  expect(await unformattedTemplates(false)).toEqual([]);
});
