/**
 * The rule table, built on first use: `rules()` every rule (`diff --rules`, an ignore file's check), and
 * `ruleById` the one rule a fact needs, derived from its id when first asked for (a diff derives the few
 * its facts use). The rules themselves are declared in rules.ts.
 */
import { dataConsequences, verdictOf } from './frame.js';
import {
  CHANGE_KINDS,
  DESCRIPTION_RULE,
  METHOD_RULES,
  PART_LABEL,
  PART_PREFIX,
  PROTOCOL_RULES,
  describeVerdictLogic,
  partRuleId,
  type ChangeKind,
  type ChangeKindSpec,
  type DataPart,
  type Rule,
  type RuleRoles,
  type RuleSpec,
} from './rules.js';

/** The rule of one change kind in one data part (its reason, and the writer's and reader's consequences). */
function dataRule(part: DataPart, kind: string, spec: ChangeKindSpec): RuleSpec {
  // Params are the only data a caller writes: only there does a dropped meaning hurt the writer.
  const { writer, reader } = dataConsequences(spec.effect, part === 'params');
  return {
    id: partRuleId(part, kind as ChangeKind),
    part,
    reason: spec.parts ? spec.reason : `${PART_LABEL[part]}: ${spec.reason}`,
    consequences: { kind: 'data', writer, reader },
  };
}

const DATA_PARTS = ['params', 'result', 'payload', 'envelope'] as const;

function dataRules(): RuleSpec[] {
  const rules: RuleSpec[] = [];
  for (const part of DATA_PARTS) {
    for (const [kind, spec] of Object.entries(CHANGE_KINDS))
      if (!spec.parts || spec.parts.includes(part)) rules.push(dataRule(part, kind, spec));
  }
  return rules;
}

function derive(spec: RuleSpec): Rule {
  const c = spec.consequences;
  const roles: RuleRoles =
    c.kind === 'sides'
      ? { kind: 'sides', client: verdictOf(c.client), server: verdictOf(c.server) }
      : c.kind === 'call'
        ? { kind: 'call', caller: verdictOf(c.caller), implementer: verdictOf(c.implementer) }
        : { kind: 'data', writer: verdictOf(c.writer), reader: verdictOf(c.reader) };
  return { ...spec, roles, verdictLogic: describeVerdictLogic({ part: spec.part, roles, consequences: c }) };
}

let all: readonly Rule[] | undefined;

/**
 * Every rule, in a stable order (protocol, method, params, result, payload, description): the table is
 * built on first use (`diff --rules`, an ignore file's check), not by every diff.
 */
export function rules(): readonly Rule[] {
  all ??= [...PROTOCOL_RULES, ...METHOD_RULES, ...dataRules(), DESCRIPTION_RULE].map(derive);
  return all;
}

/** The rules a diff used so far, and the protocol and method rules by id. */
const derived = new Map<string, Rule | undefined>();
let specs: Map<string, RuleSpec> | undefined;

/** One rule, derived when first asked for: a diff derives the few its facts use, not the whole table. */
export function ruleById(id: string): Rule | undefined {
  if (derived.has(id)) return derived.get(id);
  specs ??= new Map([...PROTOCOL_RULES, ...METHOD_RULES, DESCRIPTION_RULE].map((r) => [r.id, r]));
  let spec = specs.get(id);
  // A data rule's id is its part's prefix and its change kind (partRuleId), or the kind itself.
  for (const part of DATA_PARTS) {
    const prefix = `${PART_PREFIX[part]}-`;
    for (const kind of [id, ...(id.startsWith(prefix) ? [id.slice(prefix.length)] : [])]) {
      const change = Object.hasOwn(CHANGE_KINDS, kind) ? CHANGE_KINDS[kind] : undefined;
      const applies = change && (!change.parts || change.parts.includes(part));
      if (spec === undefined && change && applies && partRuleId(part, kind as ChangeKind) === id)
        spec = dataRule(part, kind, change);
    }
  }
  const rule = spec && derive(spec);
  derived.set(id, rule);
  return rule;
}
