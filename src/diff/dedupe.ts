/**
 * One fact per (rule, old pointer, new pointer): a change to a definition embedded in many messages is
 * reported once, with every method it affects, the union of their directions and, per side, the worst
 * verdict. Facts without both pointers (synthesized schema nodes) are kept as they are.
 */
import { DIRECTIONS } from '../model/types.js';
import { worse } from './rules.js';
import type { Fact } from './types.js';

export function dedupeFacts(facts: Fact[]): Fact[] {
  const out: Fact[] = [];
  const byKey = new Map<string, Fact>();
  for (const fact of facts) {
    const { oldPointer, newPointer } = fact.location;
    if (oldPointer === null || newPointer === null) {
      out.push(fact);
      continue;
    }
    const key = `${fact.rule}\u0000${oldPointer}\u0000${newPointer}`;
    const first = byKey.get(key);
    if (!first) {
      byKey.set(key, fact);
      out.push(fact);
      continue;
    }
    const l = first.location;
    if (!l.methods.includes(fact.location.method)) l.methods.push(fact.location.method);
    l.directions = DIRECTIONS.filter((d) => l.directions.includes(d) || fact.location.directions.includes(d));
    first.verdicts = {
      client: worse(first.verdicts.client, fact.verdicts.client),
      server: worse(first.verdicts.server, fact.verdicts.server),
    };
  }
  for (const f of out) f.location.methods.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return out;
}
