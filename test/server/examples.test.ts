/**
 * Every example message shipped with the 2026-07-28 schema (examples/<Definition>/*.json) passes the
 * generated validator of its definition; a copy with a required field removed, and a copy with a field
 * of the wrong type, fail it, and the error points at that field. Table-driven over all example files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_DIR, built, importBuilt } from '../client/helpers/build.js';

type Json = Record<string, any>;
interface Validator {
  (data: unknown): boolean;
  errors?: { instancePath: string; keyword: string; params: Json; message?: string }[] | null;
}

const VERSION_DIR = join(SCHEMA_DIR, '2026-07-28');
const EXAMPLES = join(VERSION_DIR, 'examples');
const defs: Json = JSON.parse(readFileSync(join(VERSION_DIR, 'schema.json'), 'utf8')).$defs;

const cases = readdirSync(EXAMPLES)
  .sort()
  .flatMap((definition) =>
    readdirSync(join(EXAMPLES, definition))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((file) => ({
        definition,
        file,
        example: JSON.parse(readFileSync(join(EXAMPLES, definition, file), 'utf8')) as unknown,
      })),
  );

/** A definition's schema with `$ref`s followed. */
function resolve(schema: Json | undefined): Json | undefined {
  let s = schema;
  for (let i = 0; s && typeof s.$ref === 'string' && i < 10; i++) s = defs[s.$ref.replace('#/$defs/', '')];
  return s;
}

/** A required property the example has (removing it must fail), if the definition requires any. */
function requiredField(definition: string, example: unknown): string | undefined {
  const schema = resolve(defs[definition]);
  if (!schema || typeof example !== 'object' || example === null || Array.isArray(example)) return undefined;
  return (schema.required as string[] | undefined)?.find((name) => Object.hasOwn(example, name));
}

/** A property with a single JSON type, and a value of another type for it. */
function retypedField(definition: string, example: unknown): { field: string; value: unknown } | undefined {
  const schema = resolve(defs[definition]);
  if (!schema?.properties || typeof example !== 'object' || example === null || Array.isArray(example))
    return undefined;
  for (const field of Object.keys(example)) {
    const property = resolve(schema.properties[field]);
    const type = property?.type ?? (typeof property?.const === 'string' ? 'string' : undefined);
    if (typeof type !== 'string') continue;
    return {
      field,
      value: type === 'object' || type === 'array' ? 12345 : type === 'string' ? { wrong: true } : 'wrong type',
    };
  }
  return undefined;
}

function describeErrors(validate: Validator): string {
  return JSON.stringify(validate.errors?.map((e) => ({ path: e.instancePath, keyword: e.keyword, params: e.params })));
}

let validators: Record<string, Validator>;

beforeAll(async () => {
  validators = await importBuilt(await built('2026-07-28'), 'validators.js');
});

describe('2026-07-28 examples against the generated validators', () => {
  it('has more than 80 example files, each for a definition with a validator', () => {
    expect(cases.length).toBeGreaterThan(80);
    const missing = [...new Set(cases.map((c) => c.definition))].filter((d) => typeof validators[d] !== 'function');
    expect(missing).toEqual([]);
  });

  it.each(cases)('$definition/$file passes', ({ definition, example }) => {
    const validate = validators[definition]!;
    const ok = validate(example);
    expect(ok, describeErrors(validate)).toBe(true);
  });

  it.each(cases.filter((c) => requiredField(c.definition, c.example) !== undefined))(
    '$definition/$file without a required field fails, pointing at it',
    ({ definition, example }) => {
      const field = requiredField(definition, example)!;
      const mutated = { ...(example as Json) };
      delete mutated[field];
      const validate = validators[definition]!;
      expect(validate(mutated)).toBe(false);
      const pointsAtField = validate.errors!.some(
        (e) => (e.keyword === 'required' && e.params.missingProperty === field) || e.instancePath === `/${field}`,
      );
      expect(pointsAtField, `${field}: ${describeErrors(validate)}`).toBe(true);
    },
  );

  it.each(cases.filter((c) => retypedField(c.definition, c.example) !== undefined))(
    '$definition/$file with a wrongly typed field fails, pointing at it',
    ({ definition, example }) => {
      const { field, value } = retypedField(definition, example)!;
      const validate = validators[definition]!;
      expect(validate({ ...(example as Json), [field]: value })).toBe(false);
      const pointsAtField = validate.errors!.some(
        (e) => e.instancePath === `/${field}` || e.instancePath.startsWith(`/${field}/`),
      );
      expect(pointsAtField, `${field}: ${describeErrors(validate)}`).toBe(true);
    },
  );

  it('mutations cover most examples', () => {
    expect(cases.filter((c) => requiredField(c.definition, c.example)).length).toBeGreaterThan(60);
    expect(cases.filter((c) => retypedField(c.definition, c.example)).length).toBeGreaterThan(80);
  });
});
