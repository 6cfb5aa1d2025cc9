/** Every valid schema diffs: unpaired requests get an unknown result, users pair them with a file. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { diffModels } from '../../src/diff/index.js';
import { InputError } from '../../src/errors.js';
import { generate } from '../../src/generate.js';
import { parseSchemaText } from '../../src/load/index.js';
import type { JsonSchema } from '../../src/load/schema-types.js';
import { buildModel } from '../../src/model/build.js';
import { parsePairing, type UserPairing } from '../../src/model/pairing.js';
import { cli, tempDir } from '../helpers/generate.js';
import { fixture, modelOf } from './helpers.js';

const result = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as JsonSchema;
/** foo/bar and two requests that keep their results: one unpaired request of three is a fact, not blindness. */
const paired = fixture({ requests: { 'foo/bar': { result }, 'foo/baz': { result }, 'foo/qux': { result } } });
/** The same schema with FooResult renamed: no rule pairs foo/bar any more. */
function unpaired(): JsonSchema {
  const doc = structuredClone(paired);
  const defs = doc.$defs as Record<string, JsonSchema>;
  defs.FooAnswer = defs.FooBarResult!;
  delete defs.FooBarResult;
  defs.Result = { type: 'object' };
  return doc;
}
const withPairing = (doc: JsonSchema, pairing: UserPairing) =>
  buildModel(parseSchemaText(JSON.stringify(doc), 'new.json', null), { pairing });

describe('an unpaired request in the diff', () => {
  test('loses its result: one result-became-unknown fact (readers: potentially breaking), nothing else', () => {
    const r = diffModels(modelOf(paired), modelOf(unpaired()));
    expect(r.facts.map((f) => [f.rule, f.location.method, f.verdicts.client, f.verdicts.server])).toEqual([
      ['result-became-unknown', 'foo/bar', 'potentially-breaking', 'non-breaking'],
    ]);
    expect(r.facts[0]!.details).toEqual({ result: ['FooBarResult'] });
    const back = diffModels(modelOf(unpaired()), modelOf(paired));
    expect(back.facts.map((f) => [f.rule, f.verdicts.client, f.verdicts.server])).toEqual([
      ['result-became-known', 'non-breaking', 'potentially-breaking'],
    ]);
  });

  test('both sides unknown: nothing to compare, no fact', () => {
    expect(diffModels(modelOf(unpaired()), modelOf(unpaired())).facts).toEqual([]);
  });

  test('a user pairing pairs it: the renamed result compares equal', () => {
    const model = withPairing(unpaired(), { file: 'p.json', pairs: { 'foo/bar': 'FooAnswer' } });
    expect(model.methods.find((m) => m.method === 'foo/bar')!.result).toEqual(['FooAnswer']);
    expect(model.warnings).toEqual([]);
    expect(diffModels(modelOf(paired), model).facts).toEqual([]);
  });

  test('a user pairing naming a missing definition: the name rules still apply; unpaired, the warning names it', () => {
    // One pairing file serves both sides of a diff; the other side may pair by name.
    const model = withPairing(paired, { file: 'p.json', pairs: { 'foo/bar': 'Nope' } });
    expect(model.methods.find((m) => m.method === 'foo/bar')!.result).toEqual(['FooBarResult']);
    expect(model.warnings).toEqual([]);
    const lost = withPairing(unpaired(), { file: 'p.json', pairs: { 'foo/bar': 'Nope' } });
    expect(lost.methods.find((m) => m.method === 'foo/bar')!.resultUnknown).toBe(true);
    expect(lost.warnings).toHaveLength(1);
    expect(lost.warnings![0]).toContain('p.json#/pairs/foo~1bar names "Nope", which this schema lacks');
  });
});

describe('pairing files', () => {
  test.each([
    ['[]', ''],
    ['{"pairs": []}', '/pairs'],
    ['{"pairs": {"a/b": 3}}', '/pairs/a~1b'],
    ['{"pair": {}}', '/pair'],
    ['{', ''],
  ])('%s is an input error at %j', (text, pointer) => {
    let error: unknown;
    try {
      parsePairing(text, 'p.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).file).toBe('p.json');
    expect((error as InputError).pointer).toBe(pointer);
  });

  test('the package table shape is accepted', () => {
    expect(parsePairing('{"$comment": "x", "pairs": {"ping": "EmptyResult"}}', 'p.json').pairs).toEqual({
      ping: 'EmptyResult',
    });
  });
});

describe('generate and diff with an unpaired request', () => {
  let dir: string;
  beforeAll(async () => {
    dir = tempDir('pairing');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'old.json'), JSON.stringify(paired));
    writeFileSync(join(dir, 'new.json'), JSON.stringify(unpaired()));
    writeFileSync(join(dir, 'pairing.json'), JSON.stringify({ pairs: { 'foo/bar': 'FooAnswer' } }));
  });

  test('generate: the result is typed as the generic Result, with the warning; a pairing file fixes it', async () => {
    const base = { schema: join(dir, 'new.json'), cwd: dir, artifacts: ['maps' as const], format: false };
    const loose = await generate(base);
    const pairingWarnings = (r: { warnings: string[] }) => r.warnings.filter((w) => w.includes('--pairing'));
    expect(pairingWarnings(loose)).toHaveLength(1);
    expect(pairingWarnings(loose)[0]).toContain('"foo/bar"');
    expect(loose.files.find((f) => f.path === 'maps.ts')!.contents).toMatch(/result: \[?["']Result["']/);
    const fixed = await generate({ ...base, pairing: 'pairing.json' });
    expect(pairingWarnings(fixed)).toEqual([]);
    expect(fixed.files.find((f) => f.path === 'maps.ts')!.contents).toMatch(/result: \[?["']FooAnswer["']/);
    // The pairing file is an input of the output: --check must see it change.
    expect(fixed.inputsHash).not.toBe(loose.inputsHash);
  });

  test('diff CLI: warns on stderr and still diffs (exit 0); --pairing makes it silent', async () => {
    const loose = await cli(['diff', 'old.json', 'new.json', '--format', 'json'], { cwd: dir });
    expect(loose.code).toBe(0);
    expect(loose.stderr).toMatch(/warning: .*new\.json#\/\$defs\/FooBarRequest: request "foo\/bar"/);
    const report = JSON.parse(loose.stdout) as { facts: { rule: string }[] };
    expect(report.facts.map((f) => f.rule)).toEqual(['result-became-unknown']);
    const fixed = await cli(['diff', 'old.json', 'new.json', '--pairing', 'pairing.json'], { cwd: dir });
    expect(fixed.stderr).toBe('');
    expect(fixed.stdout).toContain('No changes.');
    expect(fixed.code).toBe(0);
    const broken = await cli(['diff', 'old.json', 'new.json', '--pairing', 'missing.json'], { cwd: dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('missing.json');
    // A broken schema is still refused: exit 2, one error naming the file and the pointer.
    const dangling = unpaired();
    (dangling.$defs as Record<string, JsonSchema>).FooAnswer = { $ref: '#/$defs/Nope' };
    writeFileSync(join(dir, 'dangling.json'), JSON.stringify(dangling));
    const refused = await cli(['diff', 'old.json', 'dangling.json'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/dangling\.json#\/\$defs\/FooAnswer\/\$ref: dangling \$ref/);
  });
});
