/**
 * Request → result pairing. The schema never states which result answers which request, so the model
 * pairs them, first match wins:
 *   1. the user's pairing file (`--pairing <file>` / config `pairing`), so users never edit the package;
 *   2. `<X>ResultResponse.properties.result` (2026-07-28 on);
 *   3. `<X>Request` → `<X>Result`;
 *   4. the package's table (schema/result-pairing.json), e.g. ping → EmptyResult.
 * Then structure (pair-structure.ts): response definitions widen a result to all they list, and a result
 * union's one unclaimed member pairs its side's one unpaired request.
 * A valid request none of these pairs is not an error: its result is the generic `Result` (anything a
 * result may be), marked `resultUnknown`, and the model carries a warning saying how to pair it.
 */
import { readFile } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { definitionPointer, escapePointerToken } from '../load/pointer.js';
import { resultPairingTable } from '../load/manifest.js';
import { isObject, type LoadedSchema } from '../load/schema.js';
import type { JsonSchema } from '../load/schema-types.js';
import type { MethodInfo } from './types.js';

/** Pairings the user supplies: method → result definition name. */
export interface UserPairing {
  /** The file they came from (named in warnings). */
  file: string;
  pairs: Record<string, string>;
}

/** The generic result an unpaired request gets when the schema has no `Result` definition. */
export const GENERIC_RESULT: JsonSchema = {
  type: 'object',
  description: 'Any result: a request whose result the pairing rules could not find.',
};

export interface Pairing {
  result: string[];
  unknown: boolean;
  /** Warnings for the user: an unpaired request, a user pairing naming a missing definition. */
  warnings: string[];
}

/** Pair one request; `refName` resolves a `$ref` of this schema to a definition name. */
export function pairResult(
  schema: LoadedSchema,
  info: MethodInfo,
  refName: (ref: unknown) => string | undefined,
  user: UserPairing | undefined,
): Pairing {
  const defs = schema.definitions;
  const wanted = user && Object.hasOwn(user.pairs, info.method) ? user.pairs[info.method] : undefined;
  if (wanted !== undefined && isObject(defs[wanted])) return { result: [wanted], unknown: false, warnings: [] };
  const base = info.definition.endsWith('Request') ? info.definition.slice(0, -'Request'.length) : info.definition;
  const resultSchema = responseResult(defs[`${base}ResultResponse`]);
  if (resultSchema) {
    const names = refsOf(resultSchema, refName);
    if (names.length > 0) return { result: names, unknown: false, warnings: [] };
  }
  if (isObject(defs[`${base}Result`])) return { result: [`${base}Result`], unknown: false, warnings: [] };
  const table = resultPairingTable();
  const paired = Object.hasOwn(table, info.method) ? table[info.method] : undefined;
  if (paired && isObject(defs[paired])) return { result: [paired], unknown: false, warnings: [] };
  // A user pairing naming a definition this schema lacks matters only here: one pairing file serves
  // both sides of a diff, and the other side may pair the request by name.
  const missed =
    wanted !== undefined && user !== undefined
      ? ` (${user.file}#/pairs/${escapePointerToken(info.method)} names "${wanted}", which this schema lacks)`
      : '';
  const where = `${schema.file}#${definitionPointer(schema.defsKeyword, info.definition)}`;
  const warning =
    `${where}: request "${info.method}" has no result the pairing rules find (no ${base}ResultResponse, no ${base}Result, no pairing entry${missed}); ` +
    `its result is the generic Result. Pair it in a file given with --pairing (or the config's "pairing"): { "pairs": { "${info.method}": "<ResultDefinition>" } }`;
  return { result: ['Result'], unknown: true, warnings: [warning] };
}

/** The `result` property of a response definition, also when the definition is split into an allOf. */
export function responseResult(response: unknown): JsonSchema | undefined {
  if (!isObject(response)) return undefined;
  if (isObject(response.properties) && isObject(response.properties.result)) return response.properties.result;
  // Split into an allOf, or wrapped in a one-member anyOf/oneOf.
  const single = (a: unknown) => (Array.isArray(a) && a.length === 1 ? a : []);
  const parts = [
    ...(Array.isArray(response.allOf) ? response.allOf : []),
    ...single(response.anyOf),
    ...single(response.oneOf),
  ];
  for (const part of parts) {
    const found = responseResult(part);
    if (found) return found;
  }
  return undefined;
}

/** Definition names a result schema points to: one `$ref`, or an anyOf/oneOf of them. */
export function refsOf(node: JsonSchema, refName: (ref: unknown) => string | undefined): string[] {
  const direct = refName(node.$ref);
  if (direct) return [direct];
  if (Array.isArray(node.allOf) && node.allOf.length === 1 && isObject(node.allOf[0]))
    return refsOf(node.allOf[0], refName);
  const alternatives = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : [];
  return alternatives.map((alt) => (isObject(alt) ? refName(alt.$ref) : undefined)).filter((n): n is string => !!n);
}

/**
 * Read a user pairing file: `{ "pairs": { "<method>": "<ResultDefinition>" } }` (the package's own
 * schema/result-pairing.json has the same shape). Malformed input is an InputError with the pointer.
 */
export async function readPairingFile(file: string): Promise<UserPairing & { text: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      file,
      undefined,
      code === 'ENOENT' ? 'pairing file not found' : `cannot read pairing file (${code ?? String(error)})`,
    );
  }
  return { ...parsePairing(text, file), text };
}

export function parsePairing(text: string, file: string): UserPairing {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError(file, '', `not valid JSON (${(error as Error).message})`);
  }
  const shape = 'a pairing file is { "pairs": { "<method>": "<ResultDefinition>" } }';
  if (!isObject(data)) throw new InputError(file, '', shape);
  for (const key of Object.keys(data)) {
    if (key !== 'pairs' && key !== '$comment') throw new InputError(file, `/${escapePointerToken(key)}`, shape);
  }
  if (!isObject(data.pairs)) throw new InputError(file, '/pairs', shape);
  const pairs: Record<string, string> = {};
  for (const [method, name] of Object.entries(data.pairs)) {
    if (typeof name !== 'string' || name === '')
      throw new InputError(file, `/pairs/${escapePointerToken(method)}`, 'must be a result definition name');
    pairs[method] = name;
  }
  return { file, pairs };
}
