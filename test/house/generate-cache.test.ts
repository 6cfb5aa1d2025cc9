/**
 * The suite's shared generate() results (test/helpers/generate-cache.ts) are never stale: an entry is filed
 * under the fingerprint of the generator's sources and named by the options and the inputs' contents, so an
 * edited input is generated afresh, and what a hit returns is what generate() returns for the same call.
 */
import { copyFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { generate, type GenerateOptions } from '../../src/generate.js';
import { entryFile, sharedGenerate } from '../helpers/generate-cache.js';
import { ROOT, tempDir } from '../helpers/generate.js';

const script = (await import(pathToFileURL(join(ROOT, 'scripts', 'build.mjs')).href)) as {
  BUILDS: { tool: { inputs: string[] } };
  fingerprint(root: string, inputs: string[]): string;
};

it('a hit returns what generate() returns; an edited input is a new entry, under the sources fingerprint', async () => {
  const dir = tempDir('generate-cache');
  const schema = join(dir, 'schema.json');
  copyFileSync(join(ROOT, 'test', 'fixtures', 'golden', 'schema.json'), schema);
  const options: GenerateOptions = { schema, cwd: dir, outDir: join(dir, 'out'), artifacts: ['types', 'maps'] };

  const entry = (await entryFile(options)) ?? '';
  const sources = script.fingerprint(ROOT, [...script.BUILDS.tool.inputs, 'schema', 'package-lock.json']);
  expect(basename(dirname(entry))).toBe(sources);
  expect(existsSync(entry)).toBe(false);
  const first = await sharedGenerate(options);
  const written = statSync(entry).mtimeMs;
  const again = await sharedGenerate(options);
  expect(statSync(entry).mtimeMs).toBe(written);
  expect(again).toEqual(first);
  expect(again.files).toEqual((await generate(options)).files);

  const edited = JSON.parse(readFileSync(schema, 'utf8')) as { definitions: Record<string, object> };
  edited.definitions['CacheProbe'] = { type: 'object', properties: { probe: { type: 'string' } } };
  writeFileSync(schema, JSON.stringify(edited));
  expect(await entryFile(options)).not.toBe(entry);
  const fresh = await sharedGenerate(options);
  expect(fresh.files.find((f) => f.path === 'types.ts')?.contents).toContain('CacheProbe');
  expect(fresh.files).toEqual((await generate(options)).files);
});
