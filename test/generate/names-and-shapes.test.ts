/**
 * Issue 36 item 6, case by case (mutants.test.ts is the property over random ones): each schema below
 * was written out with exit 0 and output that did not compile, or crashed. Now each is refused with one
 * InputError naming the file and the pointer of what to change; and a schema without RequestId compiles.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { generate } from '../../src/generate.js';
import { generatedNameProblem } from '../../src/load/type-names.js';
import { oneLine } from '../../src/run/console.js';
import { FIXTURE_SCHEMAS, tempDir } from '../helpers/generate.js';

type Defs = Record<string, Record<string, unknown>>;
const MINIMAL = readFileSync(join(FIXTURE_SCHEMAS, 'minimal.schema.json'), 'utf8');

/** minimal.schema.json with `change` applied to its $defs, as in-memory text. */
function schema(change: (defs: Defs) => void): string {
  const json = JSON.parse(MINIMAL) as { $defs: Defs };
  change(json.$defs);
  return JSON.stringify(json);
}

async function refusal(text: string): Promise<InputError> {
  const error = await generate({ schema: 'schema.json', text, artifacts: ['types', 'maps', 'validators'] }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  expect((error as InputError).file).toBe('schema.json');
  return error as InputError;
}

/** A definition of the fixture, which must be there. */
function def(defs: Defs, name: string): Defs[string] {
  const found = defs[name];
  if (found === undefined) throw new Error(`minimal.schema.json has no ${name}`);
  return found;
}

const refTo = (name: string) => ({ $ref: `#/$defs/${name}` });
const params = (defs: Defs) => (defs.HelloNotification?.properties as Defs).params as Defs[string];

describe('definition names: the key is the generated name, or the schema is refused', () => {
  for (const name of ['acmeJob', 'then', 'constructor', 'toString', 'eval', 'hasOwnProperty', 'tool', 'Tool2go']) {
    it(`"${name}" is refused at its definition, with the name to use`, async () => {
      const error = await refusal(
        schema((defs) => {
          defs[name] = { type: 'string' };
          (params(defs).properties as Defs).job = refTo(name);
        }),
      );
      expect(error.pointer).toBe(`/$defs/${name}`);
      expect(error.reason).toMatch(/not a PascalCase identifier.*rename it "[A-Z][A-Za-z0-9]*"/);
    });
  }

  it('own properties only: no name reads anything from Object.prototype', () => {
    expect(generatedNameProblem('HasOwnProperty')).toBeUndefined();
    expect(generatedNameProblem('hasOwnProperty')).toMatch(/rename it "HasOwnProperty"/);
    expect(generatedNameProblem('McpClient', new Set(['McpClient']))).toMatch(/generated code exports itself/);
  });
});

describe('shapes and structures json-schema-to-typescript or ajv crashed on', () => {
  const cases: [string, (defs: Defs) => void, string, RegExp][] = [
    [
      'a non-string description',
      (d) => void (def(d, 'EmptyResult').description = 5),
      '/$defs/EmptyResult/description',
      /must be a string/,
    ],
    ['non-array items', (d) => void (def(d, 'EmptyResult').items = 5), '/$defs/EmptyResult/items', /must be a schema/],
    ['an empty enum', (d) => void (def(d, 'EmptyResult').enum = []), '/$defs/EmptyResult/enum', /non-empty array/],
    [
      'a self-referencing anyOf (TS2456)',
      (d) => void (d.Loop = { anyOf: [refTo('Loop'), { type: 'string' }] }),
      '/$defs/Loop/anyOf/0/$ref',
      /its own alias/,
    ],
    [
      'an allOf/anyOf cycle through two definitions',
      (d) => {
        d.Loop = { allOf: [refTo('Knot')] };
        d.Knot = { anyOf: [refTo('Loop'), { type: 'string' }] };
      },
      '/$defs/Knot/anyOf/0/$ref',
      /its own alias/,
    ],
    [
      'a second request definition for one method',
      (d) => {
        d.PingAgain = structuredClone(def(d, 'PingRequest'));
        (def(d, 'ClientRequest').anyOf as unknown[]).push(refTo('PingAgain'));
      },
      '/$defs/PingAgain/properties/method',
      /method "ping" is declared again \(first by PingRequest\)/,
    ],
    [
      'two requests a client would call through one member (x/job.start and x/job/start)',
      (d) => {
        for (const [name, method] of [
          ['JobStartRequest', 'x/job.start'],
          ['JobStartAgainRequest', 'x/job/start'],
        ] as const) {
          const request = structuredClone(def(d, 'PingRequest'));
          (request.properties as Defs).method = { const: method, type: 'string' };
          d[name] = request;
          (def(d, 'ClientRequest').anyOf as unknown[]).push(refTo(name));
        }
      },
      '/$defs/JobStartAgainRequest/properties/method',
      /methods "x\/job\.start" and "x\/job\/start" would both be the client's x\.job\.start\(\)/,
    ],
    [
      'a newline in a method name',
      (d) => void ((def(d, 'PingRequest').properties as Defs).method = { const: 'pi\nng', type: 'string' }),
      '/$defs/PingRequest/properties/method',
      /control character or line break/,
    ],
    [
      'a NUL in a method name',
      (d) => void ((def(d, 'PingRequest').properties as Defs).method = { const: 'pi\u0000ng', type: 'string' }),
      '/$defs/PingRequest/properties/method',
      /control character or line break/,
    ],
  ];
  for (const [what, change, pointer, reason] of cases) {
    it(`${what}: one line at ${pointer}`, async () => {
      const error = await refusal(schema(change));
      expect(error.pointer).toBe(pointer);
      expect(error.reason).toMatch(reason);
      expect(oneLine(error.message)).not.toMatch(/\n/);
    });
  }

  it('params 20,000 deep: refused at the depth limit, no stack overflow', async () => {
    const deep = `${'{"type":"object","properties":{"a":'.repeat(20_000)}{}${'}}'.repeat(20_000)}`;
    const text = MINIMAL.replace('"params": {', `"params": ${deep}, "unused": {`);
    const error = await refusal(text);
    expect(error.pointer).toMatch(/^\/\$defs\/HelloNotification\/properties\/params(\/properties\/a)+$/);
    expect(error.reason).toBe('nested deeper than 200 levels');
  });

  it('an empty enum in an extension file: refused at its pointer there (ajv threw)', async () => {
    const file = join(tempDir('empty-enum'), 'acme.extension.json');
    const extension = {
      extension: 'acme/x',
      version: '1.0.0',
      description: 'x',
      methods: {
        'acme/x.go': { kind: 'notification', direction: 'client->server', params: { $ref: '#/definitions/AcmeJ' } },
      },
      definitions: { AcmeJ: { type: 'object', properties: { k: { enum: [] } } } },
    };
    writeFileSync(file, JSON.stringify(extension));
    const error = await generate({
      schema: 'schema.json',
      text: MINIMAL,
      extensions: [file],
      artifacts: ['types'],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).file).toBe(file);
    expect((error as InputError).pointer).toBe('/definitions/AcmeJ/properties/k/enum');
  });

  it('oneLine shows control characters escaped', () => {
    expect(oneLine('a\nb\u0000c\u2028d')).toBe('a\\nb\\u0000c\\u2028d');
  });

  it('a schema without RequestId gets JSON-RPC’s own in types.ts (maps.ts uses it)', async () => {
    const result = await generate({
      schema: 'schema.json',
      text: schema((d) => delete d.RequestId),
      artifacts: ['types'],
    });
    const types = result.files.find((f) => f.path === 'types.ts')?.contents ?? '';
    expect(types).toContain('export type RequestId = string | number;');
  });
});

describe('an extension definition named like a generated export', () => {
  it('is refused at its definition in the extension file (it would hide that export in index.ts)', async () => {
    const dir = tempDir('shadowed-export');
    const extension = join(dir, 'shadow.extension.json');
    for (const name of ['McpClient', 'ClientRequests']) {
      writeFileSync(
        extension,
        JSON.stringify({
          extension: 'com.example/shadow',
          description: 'A definition named like a generated export.',
          targets: ['2025-11-25'],
          definitions: { [name]: { type: 'object' } },
          methods: {
            'com.example/shadow.get': {
              kind: 'request',
              direction: 'client->server',
              result: { $ref: `#/definitions/${name}` },
            },
          },
        }),
      );
      const error = await generate({
        spec: '2025-11-25',
        extensions: [extension],
        artifacts: ['client', 'server'],
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect([(error as InputError).file, (error as InputError).pointer]).toEqual([extension, `/definitions/${name}`]);
      expect((error as InputError).reason).toMatch(/a name the generated code exports itself/);
    }
  });
});
