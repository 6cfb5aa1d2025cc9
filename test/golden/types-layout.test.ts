/**
 * types.ts is printed in prettier's layout for the emitter's defaults without running prettier
 * (src/emit/types-layout.ts). So that the two layouts never drift apart: for every schema version, the
 * official extensions, the extension fixtures, the hostile fixture and adversarial definitions, the
 * layout is taken (no fallback to prettier), and formatting its output with prettier changes nothing.
 * One in-process prettier call per case.
 */
import { join } from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/emit/format.js';
import { emitTypesFile, emitUnformattedTypes } from '../../src/emit/types.js';
import { loadSchema } from '../../src/load/schema.js';
import { buildModel } from '../../src/model/build.js';
import { applyExtensions, loadExtensionsFor } from '../../src/model/extensions.js';
import { FIXTURE_SCHEMAS, ROOT, VERSIONS, officialSchemaPath, type Version } from '../helpers/generate.js';
import { ADVERSARIAL, randomDefinitions } from './types-layout-fixture.js';

const prettierFormat = (text: string) => prettier.format(text, { ...DEFAULTS, parser: 'babel-ts' });

async function laidOut(schema: { file: string } | { text: string }, extensions: string[] = []) {
  const loaded = await loadSchema(
    'text' in schema ? { text: schema.text, cwd: ROOT } : { schema: schema.file, cwd: ROOT },
  );
  const model = applyExtensions(buildModel(loaded, {}), await loadExtensionsFor(extensions, ROOT));
  return { model, file: loaded.file, ...(await emitTypesFile(model, loaded.file)) };
}

async function expectStable(schema: { file: string } | { text: string }, extensions: string[] = []) {
  const { contents, laidOut: taken } = await laidOut(schema, extensions);
  expect(taken).toBe(true);
  expect(contents.length).toBeGreaterThan(0);
  expect(await prettierFormat(contents)).toBe(contents);
}

const ext = (...path: string[]) => join(ROOT, ...path);

describe('types.ts laid out without prettier is what prettier prints', () => {
  const augment = (name: string) => ext('test', 'fixtures', 'extensions', 'augment', `${name}.extension.json`);
  /** Two versions also carry extensions (their definitions are a superset): one run each, not two. */
  const EXTENDED: Partial<Record<Version, string[]>> = {
    '2025-11-25': [
      ext('schema', 'examples', 'acme-jobs.extension.json'),
      augment('uses-a'),
      augment('uses-b'),
      augment('params-required'),
    ],
    '2026-07-28': [
      ext('schema', 'extensions', 'apps.extension.json'),
      ext('schema', 'extensions', 'tasks.extension.json'),
    ],
  };

  for (const version of VERSIONS)
    it(`${version}${EXTENDED[version] ? ' with extensions' : ''}`, async () => {
      await expectStable({ file: officialSchemaPath(version) }, EXTENDED[version]);
    });

  it('the golden fixture with its extension', async () => {
    await expectStable({ file: ext('test', 'fixtures', 'golden', 'schema.json') }, [
      ext('test', 'fixtures', 'golden', 'golden.extension.json'),
    ]);
  });

  it('the hostile schema (comment closers, template text, odd names)', async () => {
    await expectStable({ file: join(FIXTURE_SCHEMAS, 'hostile.schema.json') });
  });

  it('adversarial definitions: quotes, escapes, comments, long unions and intersections, tuples, keys', async () => {
    const text = JSON.stringify(ADVERSARIAL);
    await expectStable({ text });
    // And the same bytes as prettier over json-schema-to-typescript's own text (the layout before this one).
    const { model, file, contents } = await laidOut({ text });
    expect(contents).toBe(await prettierFormat(await emitUnformattedTypes(model, file)));
  });

  it('random definitions from a fixed seed, the same bytes as prettier over json-schema-to-typescript', async () => {
    const schema = structuredClone(ADVERSARIAL);
    Object.assign(schema.$defs, randomDefinitions(7, 40));
    const { model, file, contents, laidOut: taken } = await laidOut({ text: JSON.stringify(schema) });
    expect(taken).toBe(true);
    expect(contents).toBe(await prettierFormat(await emitUnformattedTypes(model, file)));
  });

  it('what the layout does not know goes to prettier, and says why', async () => {
    // A carriage return in a description: prettier changes line ends before it reads comments.
    const schema = structuredClone(ADVERSARIAL);
    schema.$defs.Odd = { type: 'string', description: 'one\rtwo' };
    const { model, file, contents, laidOut: taken } = await laidOut({ text: JSON.stringify(schema) });
    expect(taken).toEqual({ unsupported: expect.stringContaining('carriage return') });
    expect(contents).toBe(await prettierFormat(await emitUnformattedTypes(model, file)));
  });
});
