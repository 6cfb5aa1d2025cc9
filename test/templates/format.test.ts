/**
 * generate copies runtime/ from templates/ without a prettier pass when no user prettier config applies:
 * that is only right while the templates are formatted exactly as prettier would format them.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';

it('templates/ are formatted with the options generate formats with (npm run format:templates)', async () => {
  const script = pathToFileURL(join(import.meta.dirname, '../../scripts/format-templates.mjs')).href;
  const { unformattedTemplates } = (await import(script)) as {
    unformattedTemplates: (write?: boolean) => Promise<string[]>;
  };
  expect(await unformattedTemplates(false)).toEqual([]);
});

it('the script formats with the same options as src/emit/shared/format.ts', async () => {
  const script = pathToFileURL(join(import.meta.dirname, '../../scripts/format-templates.mjs')).href;
  const { TEMPLATE_FORMAT } = (await import(script)) as { TEMPLATE_FORMAT: Record<string, unknown> };
  const { DEFAULTS } = await import('../../src/emit/shared/format.js');
  expect(TEMPLATE_FORMAT).toEqual({ ...DEFAULTS, parser: 'babel-ts' });
});

it("the repository's own .prettierrc.json is the emitter's DEFAULTS (one style for src, templates and output)", async () => {
  const { readFileSync } = await import('node:fs');
  const own = JSON.parse(readFileSync(join(import.meta.dirname, '../../.prettierrc.json'), 'utf8')) as unknown;
  const { DEFAULTS } = await import('../../src/emit/shared/format.js');
  expect(own).toEqual(DEFAULTS);
});
