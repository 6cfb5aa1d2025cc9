/**
 * A schema ajv cannot compile — a keyword's value that breaks JSON Schema's rules (`"type": "strng"`,
 * `"minLength": "x"`) or a `pattern` that is no regular expression — is a mistake in the user's input, not a
 * bug here: this finds where it is, so the error names the file and the JSON pointer. It runs only after a
 * failure, because the meta-schema check it uses is what generation skips to stay fast (validators.ts).
 */
import { InputError } from '../../errors.js';
import { escapePointerToken } from '../../load/pointer.js';
import type { ProtocolModel } from '../../model/types.js';
import { ajvClass } from './ajv-class.js';

/**
 * The input error for a failed compilation, or the error itself when the schema is valid after all (then
 * the failure is ours, and is reported as the internal error it is).
 */
export function schemaCompileError(error: unknown, model: ProtocolModel, file: string): unknown {
  const pointer = invalidPattern(model.definitions, `/${model.defsKeyword}`) ?? metaSchemaPointer(model);
  if (pointer === undefined) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new InputError(file, pointer, `not a valid JSON Schema, so no validator can be compiled from it: ${reason}`);
}

/** The first place JSON Schema's own meta-schema (of the schema's dialect) refuses, as a pointer into the file. */
function metaSchemaPointer(model: ProtocolModel): string | undefined {
  const AjvClass = ajvClass(model.dialect);
  const ajv = new AjvClass({ strict: false, validateFormats: false });
  if (ajv.validateSchema({ [model.defsKeyword]: model.definitions })) return undefined;
  return ajv.errors?.[0]?.instancePath;
}

/** The first `pattern` (or `patternProperties` key) that is no regular expression in ajv's `u` mode. */
function invalidPattern(node: unknown, at: string): string | undefined {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const found = invalidPattern(node[i], `${at}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof node !== 'object' || node === null) return undefined;
  for (const [key, value] of Object.entries(node)) {
    const here = `${at}/${escapePointerToken(key)}`;
    if (key === 'pattern' && typeof value === 'string' && !isRegExp(value)) return here;
    if (key === 'patternProperties' && typeof value === 'object' && value !== null) {
      const bad = Object.keys(value).find((p) => !isRegExp(p));
      if (bad !== undefined) return `${here}/${escapePointerToken(bad)}`;
    }
    const found = invalidPattern(value, here);
    if (found !== undefined) return found;
  }
  return undefined;
}

function isRegExp(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}
