/**
 * No ceiling on schema size in the validators emitter. ajv's own standaloneCode re-spread its whole
 * accumulated code for every export: quadratic, and at 6,000 definitions of this kind it overflowed the
 * call stack (RangeError, reported as an internal error). The emitter alone, on a schema just past that
 * point: it must finish and every export must work. (Full MCP-shaped schemas of 10,000 definitions and
 * 2,000 methods are timed in `npm run bench`.)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { emitValidators } from '../../src/emit/validators/validators.js';
import { handBuiltModel } from '../helpers/model.js';
import type { ProtocolModel } from '../../src/model/types.js';
import { run, tempDir } from '../helpers/generate.js';

const COUNT = 6_000;

it(`emits and runs validators for ${COUNT} definitions`, async () => {
  const definitions: ProtocolModel['definitions'] = {};
  for (let i = 0; i < COUNT; i++) {
    definitions[`Def${i}`] =
      i % 2
        ? { type: 'string', maxLength: 8 }
        : { type: 'object', properties: { next: { $ref: `#/$defs/Def${i + 1}` } } };
  }
  const code = emitValidators(handBuiltModel(definitions), 'synthetic.schema.json');
  const dir = tempDir('validators-scale');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'validators.mjs');
  // Imported by a plain node process (the test runner would transform a module this size first), as it is.
  writeFileSync(file, code);
  const check = `
    const v = await import(${JSON.stringify(pathToFileURL(file).href)});
    const missing = Array.from({ length: ${COUNT} }, (_, i) => 'Def' + i).filter((n) => typeof v[n] !== 'function');
    const last = v.Def${COUNT - 2};
    console.log(JSON.stringify({ missing, ok: last({ next: 'short' }), bad: last({ next: 'far too long' }), error: last.errors[0] }));`;
  const result = await run(process.execPath, ['--input-type=module', '-e', check]);
  expect(result.code, result.stderr).toBe(0);
  expect(JSON.parse(result.stdout)).toEqual({
    missing: [],
    ok: true,
    bad: false,
    error: {
      instancePath: '/next',
      keyword: 'maxLength',
      params: { limit: 8 },
      message: 'must NOT have more than 8 characters',
    },
  });
}, 120_000);
