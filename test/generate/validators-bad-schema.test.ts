/**
 * A schema whose keyword values break JSON Schema's rules cannot be compiled into validators. That is the
 * user's input error: one InputError naming the file and the JSON pointer of the bad keyword (what the CLI
 * prints as one line, exit 2), never an internal error — even though generation skips ajv's meta-schema
 * check to stay fast.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/generate.js';
import { InputError } from '../../src/errors.js';
import { FIXTURE_SCHEMAS, tempDir } from '../helpers/generate.js';

const TEXT = '/$defs/HelloNotification/properties/params/properties/text';

describe('a keyword value no validator can be compiled from', () => {
  for (const [name, keyword, value, pointer] of [
    ['a type that is no JSON type', 'type', 'strng', `${TEXT}/type`],
    ['a minLength that is no number', 'minLength', 'x', `${TEXT}/minLength`],
    ['a pattern that is no regular expression', 'pattern', '([', `${TEXT}/pattern`],
  ] as const) {
    it(`${name}: InputError at ${pointer}`, async () => {
      const schema = JSON.parse(readFileSync(join(FIXTURE_SCHEMAS, 'minimal.schema.json'), 'utf8'));
      schema.$defs.HelloNotification.properties.params.properties.text[keyword] = value;
      const file = join(tempDir('bad-keyword'), 'schema.json');
      writeFileSync(file, JSON.stringify(schema));
      const failure = await generate({ schema: file, artifacts: ['validators'] }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(InputError);
      expect(failure).toMatchObject({ file, pointer });
      // `type` is refused before ajv sees it, by the shape check every artifact shares (load/schema-shapes.ts).
      expect((failure as InputError).reason).toMatch(
        keyword === 'type' ? /^"type" must be a JSON type name/ : /^not a valid JSON Schema/,
      );
    });
  }
});
