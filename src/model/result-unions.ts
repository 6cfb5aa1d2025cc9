/**
 * The result unions: what each side may answer with (ServerResult, ClientResult, InputResponse, … whatever
 * their names), found from the results the model paired with each side's requests.
 */
import { isObject } from '../load/schema.js';
import type { JsonSchema } from '../load/schema-types.js';
import { compareStrings } from '../load/order.js';
import { unwrapAllOf } from '../load/schema-keywords.js';
import type { MethodInfo } from './types.js';
import { isUnion } from './unions.js';

/** A union of results and the side that writes them (answers the requests they are paired with). */
export interface ResultUnion {
  definition: string;
  writer: 'client' | 'server';
  /** Definition names of its members (through nested unions). */
  members: string[];
}

/**
 * The result unions (ServerResult, ClientResult, InputResponse, … whatever their names): definitions whose
 * anyOf/oneOf members are `$ref`s, some of them results paired with requests. The writer is the side that
 * answers those requests (results answering requests of both directions decide nothing); per writer, the
 * union with the most such members.
 */
export function resultUnions(
  definitions: Record<string, JsonSchema>,
  methods: readonly MethodInfo[],
  refName: (ref: unknown) => string | undefined,
): ResultUnion[] {
  const writers = new Map<string, Set<'client' | 'server'>>();
  for (const m of methods) {
    if (m.kind !== 'request' || m.resultUnknown) continue;
    for (const r of m.result ?? []) {
      let set = writers.get(r);
      if (!set) writers.set(r, (set = new Set()));
      for (const d of m.directions) set.add(d === 'client->server' ? 'server' : 'client');
    }
  }
  const best = new Map<'client' | 'server', { union: ResultUnion; votes: number }>();
  for (const [name, def] of Object.entries(definitions)) {
    if (!isUnion(def)) continue;
    const members = refLeaves(definitions, def, refName);
    if (!members) continue;
    const votes = { client: 0, server: 0 };
    for (const member of members) {
      const w = writers.get(member);
      const [only] = w?.size === 1 ? w : [];
      if (only !== undefined) votes[only]++;
    }
    if (votes.client === votes.server) continue;
    const writer = votes.server > votes.client ? 'server' : 'client';
    const count = Math.max(votes.client, votes.server);
    const held = best.get(writer);
    // A tie goes to the first name, whatever order the file lists definitions in.
    const better =
      !held || count > held.votes || (count === held.votes && compareStrings(name, held.union.definition) < 0);
    if (better) best.set(writer, { union: { definition: name, writer, members }, votes: count });
  }
  return [...best.values()]
    .map((b) => b.union)
    .sort((a, b) => (a.writer < b.writer ? 1 : a.writer > b.writer ? -1 : 0));
}

/** Member definition names of a union of `$ref`s (nested unions flattened); null if a member is inline. */
function refLeaves(
  defs: Record<string, JsonSchema>,
  root: JsonSchema,
  refName: (ref: unknown) => string | undefined,
): string[] | null {
  const out: string[] = [];
  const visit = (wrapped: unknown, depth: number): boolean => {
    const { node } = unwrapAllOf(wrapped);
    if (!isObject(node) || depth > 32) return false;
    const alternatives = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
    if (alternatives) return alternatives.every((alt) => visit(alt, depth + 1));
    const ref = refName(node.$ref);
    if (ref === undefined) return false;
    const target = defs[ref];
    // A member that is itself a union of `$ref`s is flattened; any other member (a result, or one
    // wrapped in a single-member anyOf) is a leaf.
    if (isUnion(target)) {
      const before = out.length;
      if (visit(target, depth + 1)) return true;
      out.length = before;
    }
    out.push(ref);
    return true;
  };
  return visit(root, 0) ? out : null;
}
