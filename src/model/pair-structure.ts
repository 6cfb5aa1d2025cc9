/**
 * Pairing from structure, after the name rules (pairing.ts) so that a definition renamed alone pairs as
 * before. The schema's own statements used:
 * - a response definition (2026-07-28's `<X>ResultResponse`) whose `result` lists a request's result
 *   lists every result of that request (`InputRequiredResult` next to `CallToolResult`);
 * - a result union (ServerResult, …) holds every result its side writes: when exactly one request the
 *   side answers is unpaired and exactly one specific member is unclaimed, they belong together;
 * - the package table's shared empty result (ping → EmptyResult), where the schema names it otherwise:
 *   the definition that is only a `$ref` to the union's one unclaimed member (the generic result).
 * Returns the requests paired here (their "unpaired" warnings no longer apply).
 */
import { resultPairingTable } from '../load/manifest.js';
import { isObject, type LoadedSchema } from '../load/schema.js';
import type { JsonSchema } from '../load/schema-types.js';
import { refsOf, responseResult, type UserPairing } from './pairing.js';
import type { MethodInfo } from './types.js';
import { messageParts, methodConst } from './unions.js';
import { resultUnions } from './result-unions.js';

type RefName = (ref: unknown) => string | undefined;

/**
 * Pairs the requests no rule paired, from the result unions' structure; returns the ones it paired.
 *
 * Long because its two passes (the one member left per answering side, then the table's generic result
 * under another name) share what is claimed so far and the alias index; they read in order.
 */
export function pairByStructure(
  schema: LoadedSchema,
  methods: MethodInfo[],
  refName: RefName,
  user: UserPairing | undefined,
): MethodInfo[] {
  const defs = schema.definitions;
  const requests = methods.filter((m) => m.kind === 'request');
  const byUser = (m: MethodInfo) => user !== undefined && Object.hasOwn(user.pairs, m.method);
  const responses = responseIndex(defs, refName);
  const widen = (m: MethodInfo) => {
    const only = m.result?.length === 1 ? m.result[0] : undefined;
    const all = only !== undefined && !byUser(m) ? responses.get(only) : undefined;
    if (all && all.length > 1) m.result = [...all];
  };
  for (const m of requests) if (!m.resultUnknown) widen(m);
  if (!requests.some((m) => m.resultUnknown)) return [];

  const unions = resultUnions(defs, methods, refName);
  const aliasOf = new Map<string, string[]>();
  for (const name of Object.keys(defs)) {
    const target = refName(aliasRef(defs[name]));
    if (target !== undefined) aliasOf.set(target, [...(aliasOf.get(target) ?? []), name]);
  }
  // A task-augmented call's result (CreateTaskResult) is claimed too: it answers no request of its own.
  const claimed = () =>
    new Set(
      requests.flatMap((m) => [...(m.resultUnknown ? [] : (m.result ?? [])), ...(m.taskResult ? [m.taskResult] : [])]),
    );
  /** The sides that write a request's result: `server`, `client`, or `client+server` (sent both ways). */
  const writersOf = (m: MethodInfo) =>
    [...new Set(m.directions.map((d) => (d === 'client->server' ? 'server' : 'client')))].sort().join('+');
  const paired: MethodInfo[] = [];
  const pair = (m: MethodInfo, result: string) => {
    m.result = [result];
    delete m.resultUnknown;
    m.pairedBy = 'structure';
    widen(m);
    paired.push(m);
  };
  // One unpaired request and one specific member left over (in the union of each side that answers
  // it): they belong together.
  const open = requests.filter((m) => m.resultUnknown && !tableMethod(m, defs));
  for (const writers of new Set(open.map(writersOf))) {
    const group = open.filter((m) => writersOf(m) === writers);
    const sides = writers.split('+').map((w) => unions.find((u) => u.writer === w));
    const found = sides.filter((u) => u !== undefined);
    const [request] = group;
    if (group.length !== 1 || request === undefined || found.length !== sides.length) continue;
    const taken = claimed();
    const left = (found[0]?.members ?? []).filter(
      (r) =>
        found.every((u) => u.members.includes(r)) &&
        !taken.has(r) &&
        !aliasOf.has(r) &&
        methodConst(defs[r]) === undefined,
    );
    const [member] = left;
    if (left.length === 1 && member !== undefined) pair(request, member);
  }
  // The table's empty result under another name: the one alias of the one generic member left.
  for (const m of requests.filter((x) => x.resultUnknown && tableMethod(x, defs))) {
    // A request both sides send (ping) answers with either side's generic result: take the first.
    const writer = m.directions[0] === 'client->server' ? 'server' : 'client';
    const union = unions.find((u) => u.writer === writer);
    const taken = claimed();
    const left = union?.members.filter((r) => !taken.has(r)) ?? [];
    const [member] = left;
    if (left.length !== 1 || member === undefined) continue;
    const aliases = aliasOf.get(member) ?? [];
    pair(m, aliases.length === 1 ? (aliases[0] ?? member) : member);
  }
  return paired;
}

/** A request the package table pairs, whose table result this schema does not have by that name. */
function tableMethod(m: MethodInfo, defs: Record<string, JsonSchema>): boolean {
  const table = resultPairingTable();
  const paired = Object.hasOwn(table, m.method) ? table[m.method] : undefined;
  return paired !== undefined && !isObject(defs[paired]);
}

/** Result name → every result of the one response definition listing it (null: listed by several). */
function responseIndex(defs: Record<string, JsonSchema>, refName: RefName): Map<string, string[] | null> {
  const index = new Map<string, string[] | null>();
  for (const def of Object.values(defs)) {
    if (!isObject(def)) continue;
    // Most definitions say at once that they are no response; only the rest are read in full.
    const direct = isObject(def.properties) ? def.properties : undefined;
    const combined = Array.isArray(def.allOf) || Array.isArray(def.anyOf) || Array.isArray(def.oneOf);
    if (!combined && (direct?.result === undefined || direct.id === undefined)) continue;
    if (methodConst(def) !== undefined) continue;
    const parts = messageParts(def);
    if (!parts.properties.has('result') || !parts.properties.has('id')) continue;
    const result = responseResult(def);
    const names = result ? refsOf(result, refName) : [];
    for (const name of names) index.set(name, index.has(name) ? null : names);
  }
  return index;
}

const ANNOTATIONS = new Set(['description', 'title', '$comment']);

/** The `$ref` a definition is nothing but (through single-member combinators), if it is one. */
function aliasRef(node: unknown, depth = 0): unknown {
  if (!isObject(node) || depth > 8) return undefined;
  const keys = Object.keys(node).filter((k) => !ANNOTATIONS.has(k));
  if (keys.length !== 1) return undefined;
  const [key] = keys as [string];
  if (key === '$ref') return node.$ref;
  const members = node[key];
  const wrapper = key === 'allOf' || key === 'anyOf' || key === 'oneOf';
  return wrapper && Array.isArray(members) && members.length === 1 ? aliasRef(members[0], depth + 1) : undefined;
}
