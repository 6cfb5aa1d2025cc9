/** Building facts: a location and a rule in, a Fact with the rule's verdicts out. */
import type { JsonValue } from '../load/schema-types.js';
import type { Direction, MethodKind } from '../model/types.js';
import type { RawChange } from './compare.js';
import { partRuleId, verdictsFor } from './rules.js';
import { ruleById } from './rule-table.js';
import type { Fact, MessagePart } from './types.js';

/** Where a fact is and what it says; `add` turns it into a Fact with its rule's verdicts. */
export interface FactInput {
  rule: string;
  method: string;
  kind: MethodKind | null;
  directions: Direction[];
  part: MessagePart;
  path: string;
  oldPointer: string | null;
  newPointer: string | null;
  message: string;
  details?: { [key: string]: JsonValue };
}
export type AddFn = (fact: FactInput) => void;

export function toFact(i: FactInput): Fact {
  const def = ruleById(i.rule);
  if (!def) throw new Error(`internal: unknown rule ${i.rule}`);
  return {
    rule: i.rule,
    location: {
      method: i.method,
      methods: [i.method],
      kind: i.kind,
      directions: [...i.directions],
      part: i.part,
      path: i.path,
      key: locationKey(i.method, i.part, i.path),
      oldPointer: i.oldPointer,
      newPointer: i.newPointer,
      side: sideOf(i.rule, i.oldPointer, i.newPointer),
    },
    verdicts: verdictsFor(def, i.part, i.directions),
    message: i.message,
    details: sortKeys(i.details ?? {}),
  };
}

/**
 * Where a fact lives: a removal (`…-removed`, except a property made optional, which is still there)
 * on the old side, everything else on the new side; a side without a pointer cannot hold it.
 */
export function sideOf(rule: string, oldPointer: string | null, newPointer: string | null): 'old' | 'new' {
  if (newPointer === null && oldPointer !== null) return 'old';
  if (oldPointer === null) return 'new';
  return rule.endsWith('-removed') && !rule.endsWith('-required-removed') ? 'old' : 'new';
}

/** One structural change inside a message part, as a fact. */
export function addChange(
  add: AddFn,
  c: RawChange,
  at: {
    method: string;
    kind: MethodKind | null;
    directions: Direction[];
    part: 'params' | 'result' | 'payload' | 'envelope';
  },
  root: string,
): void {
  const rule = c.kind === 'description-changed' ? 'description-changed' : partRuleId(at.part, c.kind);
  const { message, details } = c;
  add({ rule, ...at, path: root + c.path, oldPointer: c.oldPtr, newPointer: c.newPtr, message, details });
}

/** `<method>/<part>/<path inside the part>`; protocol facts: `protocol/<feature>`; method facts: `<method>/method`. */
export function locationKey(method: string, part: MessagePart, path: string): string {
  if (part === 'protocol') return `protocol/${method}`;
  const inner = path.replace(/^(params|result|envelope)/, '').replace(/^\./, '');
  return `${method}/${part}${inner ? `/${inner}` : ''}`;
}

function sortKeys(o: { [key: string]: JsonValue }): { [key: string]: JsonValue } {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
