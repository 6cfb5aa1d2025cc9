/**
 * Schema rewrites that keep every verdict (validators.ts): `propertyNames: { type: "string" }` (always true) is
 * left out, and an `anyOf`/`oneOf` of constants compiles as an `enum` (validators.ts, constAlternativesAsEnum): the same
 * values pass and fail as under ajv compiling the schema as written, the error names the same instance path,
 * and the code is smaller. Where the rewrite would change a verdict (a `oneOf` whose constant repeats: that value
 * matches twice and fails) or is not obviously the same (numbers, a branch with more than its `const` and
 * `type`), the schema is compiled as written.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { handBuiltValidators, referenceValidator, type Validator } from '../helpers/hand-built-validators.js';

const names = Array.from({ length: 40 }, (_, i) => `--name-${i}`);

const DEFINITIONS: Record<string, object> = {
  // MCP Apps' shape: CSS variable names as property names, each a typed const.
  Names: {
    type: 'object',
    propertyNames: { anyOf: names.map((n) => ({ type: 'string', const: n })) },
    additionalProperties: { type: 'string' },
  },
  Theme: { oneOf: [{ const: 'light' }, { const: 'dark' }, { const: null }, { const: true }] },
  // A repeated constant matches two branches of a oneOf: "a" fails, and must still fail.
  Repeated: { oneOf: [{ const: 'a' }, { const: 'a' }, { const: 'b' }] },
  // Numbers (1 is both an integer and a number) and branches with more than a const stay as written.
  Numbers: { anyOf: [{ type: 'integer', const: 1 }, { const: 2 }] },
  Wider: { anyOf: [{ type: 'string', const: 'a', minLength: 2 }, { const: 'bb' }] },
  // Every property name is a string: nothing to check.
  StringNames: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'string' } },
  // Any other name rule stays.
  ShortNames: { type: 'object', propertyNames: { type: 'string', maxLength: 3 } },
  // A const whose type the branch contradicts matches nothing: left to ajv.
  Contradiction: { anyOf: [{ type: 'number', const: 'a' }, { const: 'b' }] },
};

const VALUES: unknown[] = [
  'light',
  'dark',
  'a',
  'b',
  'bb',
  null,
  true,
  false,
  1,
  1.0,
  2,
  '2',
  '--name-3',
  '--other',
  {},
  { '--name-0': 'x', '--name-39': 'y' },
  { '--name-0': 'x', '--nope': 'y' },
  { '--name-1': 1 },
  { abc: 'x' },
  { abcd: 'x' },
  [],
];

let ours: Record<string, Validator>;
let js: string;

beforeAll(async () => {
  ({ js, validators: ours } = await handBuiltValidators(DEFINITIONS, 'validators-const-enum'));
});

describe('anyOf/oneOf of constants', () => {
  it.each(Object.keys(DEFINITIONS))('%s: every value gets the verdict ajv gives the schema as written', (name) => {
    const reference = referenceValidator(DEFINITIONS, name);
    for (const value of VALUES) {
      const verdict = reference(value);
      expect(ours[name]!(value), `${name} ${JSON.stringify(value)}`).toBe(verdict);
      if (!verdict) expect(ours[name]!.errors?.[0]?.instancePath).toBe(reference.errors?.[0]?.instancePath);
    }
  });

  it('compiles the constants as one enum check, not a branch each', () => {
    expect(js).not.toContain('"--name-0" !==');
    expect(js.match(/--name-0/g)?.length).toBeLessThanOrEqual(2);
  });

  it('checks no property name against type string, and keeps other name rules', () => {
    // ShortNames' name check only.
    expect(js.match(/message:"must be string",propertyName/g)).toHaveLength(1);
    expect(ours.ShortNames!({ abcd: 1 })).toBe(false);
    expect(ours.StringNames!({ abcd: 'x' })).toBe(true);
  });

  it('reports an enum error at the property name', () => {
    expect(ours.Names!({ '--nope': 'y' })).toBe(false);
    expect(ours.Names!.errors?.[0]).toMatchObject({ keyword: 'enum', instancePath: '' });
  });
});
