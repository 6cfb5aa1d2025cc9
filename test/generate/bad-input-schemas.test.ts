/**
 * Schemas the emitters' libraries cannot take as written, in process (bad-input.test.ts has the CLI's line):
 * - an `$id` that changes what a `$ref` means: ajv overflowed its stack; now one InputError at the schema
 *   holding the `$ref` — or, in draft-07, which ignores an `$id` beside a `$ref`, working types and validators;
 * - `$ref`s that lead round a loop and never reach a schema: ajv overflowed its stack; now one InputError;
 * - a keyword value json-schema-to-typescript's own rules refuse: it printed its messages with
 *   console.error and threw an empty error; now one InputError at the sub-schema, and nothing printed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { generate } from '../../src/generate.js';
import { InputError } from '../../src/errors.js';
import { FIXTURE_SCHEMAS, tempDir, writeFiles } from '../helpers/generate.js';

type Defs = Record<string, Record<string, unknown>>;

/** minimal.schema.json (made draft-07 on request) with `change` applied to its definitions. */
function schemaFile(change: (defs: Defs) => void, draft07 = false): string {
  let text = readFileSync(join(FIXTURE_SCHEMAS, 'minimal.schema.json'), 'utf8');
  if (draft07)
    text = text
      .replaceAll('$defs', 'definitions')
      .replace('https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft-07/schema#');
  const schema = JSON.parse(text);
  change(schema.$defs ?? schema.definitions);
  const file = join(tempDir('bad-schema'), 'schema.json');
  writeFileSync(file, JSON.stringify(schema));
  return file;
}

const textProperty = (defs: Defs) => ((defs.HelloNotification!.properties as Defs).params!.properties as Defs).text!;
const TEXT = '/$defs/HelloNotification/properties/params/properties/text';

async function failure(file: string): Promise<InputError> {
  const error = await generate({ schema: file, artifacts: ['types', 'validators'] }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

describe('an $id that changes what a $ref means (2020-12)', () => {
  it('beside the $ref, in a property: refused at that property', async () => {
    const file = schemaFile((defs) => {
      textProperty(defs).$id = 'https://example.com/text';
      textProperty(defs).$ref = '#/$defs/RequestId';
    });
    expect(await failure(file)).toMatchObject({
      file,
      pointer: TEXT,
      reason:
        'its "$ref" ("#/$defs/RequestId") resolves against the "$id" beside it ("https://example.com/text"), not against this file',
    });
  });

  it('above the $ref: refused at the $ref, naming where the $id is', async () => {
    const file = schemaFile((defs) => {
      defs.HelloNotification!.$id = 'hello.json';
      textProperty(defs).$ref = '#/$defs/RequestId';
    });
    expect(await failure(file)).toMatchObject({
      pointer: TEXT,
      reason: expect.stringContaining('the "$id" at #/$defs/HelloNotification ("hello.json")'),
    });
  });
});

describe('draft-07: an $id beside a $ref is ignored, as the draft says', () => {
  it('types and validators read the $ref as a pointer into the file', async () => {
    const file = schemaFile((defs) => {
      defs.Aliased = { $id: 'https://example.com/aliased', $ref: '#/definitions/RequestId' };
      // An $id over no $ref changes nothing either.
      defs.Named = { $id: 'https://example.com/named', type: 'string' };
      (defs.PingRequest!.properties as Defs).id = { $ref: '#/definitions/Aliased' };
      (defs.PingRequest!.properties as Defs).name = { $ref: '#/definitions/Named' };
    }, true);
    const result = await generate({ schema: file, artifacts: ['types', 'validators'] });
    const types = result.files.find((f) => f.path === 'types.ts')!.contents;
    expect(types).toContain('export type Aliased = RequestId;');
    const dir = tempDir('id-beside-ref');
    writeFiles(dir, result.files);
    const validators = (await import(pathToFileURL(join(dir, 'validators.js')).href)) as Record<
      string,
      (data: unknown) => boolean
    >;
    const ping = validators.PingRequest!;
    expect([{ id: 'a' }, { id: 2 }, { name: 'n' }].map((p) => ping({ method: 'ping', ...p }))).toEqual([
      true,
      true,
      true,
    ]);
    expect([{ id: 1.5 }, { id: null }, { name: 1 }].map((p) => ping({ method: 'ping', ...p }))).toEqual([
      false,
      false,
      false,
    ]);
  });
});

describe('$refs that never reach a schema', () => {
  it.each([
    [
      'two definitions naming each other',
      (defs: Defs) => {
        defs.A = { $ref: '#/$defs/B' };
        defs.B = { $ref: '#/$defs/A', description: 'annotations validate nothing' };
      },
      '/$defs/A',
      '"#/$defs/B" → "#/$defs/A" → "#/$defs/B"',
    ],
    [
      'a property reaching a definition that names itself',
      (defs: Defs) => {
        defs.Self = { $ref: '#/$defs/Self' };
        ((defs.HelloNotification!.properties as Defs).params!.properties as Defs).text = { $ref: '#/$defs/Self' };
      },
      TEXT,
      '"#/$defs/Self" → "#/$defs/Self"',
    ],
  ])('%s: InputError naming the loop', async (_, change, pointer, loop) => {
    const error = await failure(schemaFile(change));
    expect(error).toMatchObject({
      pointer,
      reason: `its "$ref" leads into a loop of $refs that never reaches a schema: ${loop}`,
    });
  });
});

describe("values json-schema-to-typescript's rules refuse", () => {
  it.each([
    [
      'minItems above maxItems, deep in an anyOf',
      (defs: Defs) => {
        textProperty(defs).anyOf = [{ type: 'string' }, { type: 'array', minItems: 2, maxItems: 1 }];
      },
      `${TEXT}/anyOf/1`,
      'When both maxItems and minItems are present, maxItems >= minItems',
    ],
    [
      'a negative maxItems on a definition',
      (defs: Defs) => {
        defs.EmptyResult!.maxItems = -1;
      },
      '/$defs/EmptyResult',
      'When maxItems exists, maxItems >= 0',
    ],
  ])('%s: InputError at the sub-schema, nothing printed', async (_, change, pointer, rule) => {
    const file = schemaFile(change);
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const error = await failure(file);
      expect(error).toMatchObject({ file, pointer, reason: `json-schema-to-typescript refuses this schema: ${rule}` });
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });
});
