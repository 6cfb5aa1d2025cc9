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
  /** What paired it: the user's file, or a definition name (the `<X>Request` convention, the package table). */
  by?: PairedBy;
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
  if (wanted !== undefined && isObject(defs[wanted]))
    return { result: [wanted], unknown: false, by: 'pairing-file', warnings: [] };
  const byName = (result: string[]): Pairing => ({ result, unknown: false, by: 'name', warnings: [] });
  // `<X>Request` → `<X>Result`, also where every name carries the same affix (`<X>RequestDef` → `<X>ResultDef`).
  const { base, suffix } = requestStem(info.definition);
  const resultSchema = responseResult(defs[`${base}ResultResponse${suffix}`]);
  if (resultSchema) {
    const names = refsOf(resultSchema, refName);
    if (names.length > 0) return byName(names);
  }
  if (isObject(defs[`${base}Result${suffix}`])) return byName([`${base}Result${suffix}`]);
  // Requests named otherwise (`CallToolCall`): the name without its last word (`CallTool` → `CallToolResult`).
  const stem = /^(.*[a-z0-9])[A-Z][a-z0-9]*$/.exec(info.definition)?.[1];
  if (suffix === '' && stem !== undefined) {
    const response = responseResult(defs[`${stem}ResultResponse`]);
    const names = response ? refsOf(response, refName) : [];
    if (names.length > 0) return byName(names);
    if (isObject(defs[`${stem}Result`])) return byName([`${stem}Result`]);
  }
  const table = resultPairingTable();
  const paired = Object.hasOwn(table, info.method) ? table[info.method] : undefined;
  if (paired !== undefined) {
    const found = [paired, `${paired}${suffix}`].find((name) => isObject(defs[name]));
    if (found !== undefined) return byName([found]);
  }
  // A user pairing naming a definition this schema lacks matters only here: one pairing file serves
  // both sides of a diff, and the other side may pair the request by name.
  const missed =
    wanted !== undefined && user !== undefined
      ? ` (${user.file}#/pairs/${escapePointerToken(info.method)} names "${wanted}", which this schema lacks)`
      : '';
  const where = `${schema.file}#${definitionPointer(schema.defsKeyword, info.definition)}`;
  const warning =
    `${where}: request "${info.method}" has no result the pairing rules find (no ${base}ResultResponse${suffix}, no ${base}Result${suffix}, no pairing entry${missed}); ` +
    `its result is the generic Result. Pair it in a file given with --pairing (or the config's "pairing"): { "pairs": { "${info.method}": "<ResultDefinition>" } }`;
  return { result: ['Result'], unknown: true, warnings: [warning] };
}

/** How a request's result was found: the user's pairing file, a definition name, or structure. */
export type PairedBy = NonNullable<MethodInfo['pairedBy']>;

/** `CallToolRequest` → `CallTool` + ``; `CallToolRequestDef` → `CallTool` + `Def`; no `Request`: the whole name. */
function requestStem(definition: string): { base: string; suffix: string } {
  const at = definition.lastIndexOf('Request');
  if (at <= 0) return { base: definition, suffix: '' };
  return { base: definition.slice(0, at), suffix: definition.slice(at + 'Request'.length) };
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
