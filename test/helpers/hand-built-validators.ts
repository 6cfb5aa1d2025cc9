/**
 * validators.js emitted for hand-built definitions and imported from disk, beside the reference it is checked
 * against: ajv compiling the same definitions at run time, with the options the emitter gives it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { emitValidators } from '../../src/emit/validators/validators.js';
import { tempDir } from './generate.js';
import { handBuiltModel } from './model.js';

export interface Validator {
  (data: unknown): boolean;
  errors?: { instancePath: string; keyword: string; params: Record<string, unknown>; message?: string }[] | null;
}

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020.js').default as new (options: object) => {
  compile(schema: object): Validator;
};

/** The emitted module's text and its validators, written under a temp dir named after `name` and imported. */
export async function handBuiltValidators(
  definitions: Record<string, unknown>,
  name: string,
): Promise<{ js: string; validators: Record<string, Validator> }> {
  const js = emitValidators(handBuiltModel(definitions), 'hand-built.schema.json');
  const dir = tempDir(name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'validators.js'), js);
  const validators = (await import(pathToFileURL(join(dir, 'validators.js')).href)) as Record<string, Validator>;
  return { js, validators };
}

/** ajv's own validator of definition `name` among `definitions`, compiled at run time. */
export function referenceValidator(definitions: Record<string, unknown>, name: string): Validator {
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: false, ownProperties: true });
  return ajv.compile({ $defs: definitions, $ref: `#/$defs/${name}` });
}
