/**
 * The rules of `mcp-typegen diff`: every fact has a stable rule id and, for each side, a verdict.
 * Every verdict is derived from the rule frame (frame.ts): a rule states what the change does to each
 * role (or, for data, its effect on the valid instances), and `verdictOf` turns that into a verdict.
 *
 * Roles map to sides by the direction of the message: the caller of a `client->server` message is the
 * client; of a `server->client` or `input` message (an input request embedded in a 2026-07-28+ result)
 * the server. A message sent both ways gets, for each side, the worst verdict over its directions.
 *
 * Adding a rule: push a `RuleSpec` onto PROTOCOL_RULES or METHOD_RULES (or a change kind onto
 * CHANGE_KINDS for data inside messages); the tests require a fixture and a table row for each rule.
 * rule-table.ts derives the rules from these declarations, when they are first asked for.
 */
import type { Direction } from '../model/types.js';
import { describeConsequence, type Consequence, type Effect } from './frame.js';
import { CHANGEABLE_GROUPS, KEYWORD_GROUPS, type KeywordGroup, type Tightness } from './keywords.js';
import { VERDICTS, type MessagePart, type Side, type Verdict } from './types.js';

export type RuleRoles =
  | { kind: 'sides'; client: Verdict; server: Verdict }
  | { kind: 'call'; caller: Verdict; implementer: Verdict }
  | { kind: 'data'; writer: Verdict; reader: Verdict };

/** The frame's consequences behind a rule's verdicts. */
export type RuleConsequences =
  | { kind: 'sides'; client: Consequence; server: Consequence }
  | { kind: 'call'; caller: Consequence; implementer: Consequence }
  | { kind: 'data'; writer: Consequence; reader: Consequence };

export interface RuleSpec {
  id: string;
  /** The message part the rule's facts are located in; `any` for `description-changed`. */
  part: MessagePart | 'any';
  /** One line: what changed and why it matters. */
  reason: string;
  consequences: RuleConsequences;
}

export interface Rule extends RuleSpec {
  /** The verdict per role, derived from `consequences` by the frame. */
  roles: RuleRoles;
  /** The verdict logic in words (`describeVerdictLogic`), for `diff --rules`. */
  verdictLogic: string;
}

const none: Consequence = {};
const rejected: Consequence = { rejected: 'yes' };
const absent: Consequence = { surprise: 'absence' };
const ignored: Consequence = { ignored: true };
const newValues: Consequence = { surprise: 'value' };
const newTypes: Consequence = { surprise: 'type' };
/** The other side no longer understands what this side declares, nor declares what it looks for. */
const lostPeer: Consequence = { ignored: true, surprise: 'absence' };

const sides = (client: Consequence, server: Consequence): RuleConsequences => ({ kind: 'sides', client, server });
const call = (caller: Consequence, implementer: Consequence): RuleConsequences => ({
  kind: 'call',
  caller,
  implementer,
});

/** Protocol features (facts with no method). */
export const PROTOCOL_RULES: RuleSpec[] = [
  {
    id: 'batching-removed',
    part: 'protocol',
    reason: 'JSON-RPC batches are no longer allowed: peers that send batches are rejected',
    consequences: sides(rejected, rejected),
  },
  {
    id: 'batching-added',
    part: 'protocol',
    reason: 'JSON-RPC batches are now allowed: old peers may receive a batch',
    consequences: sides(newValues, newValues),
  },
  {
    id: 'initialize-removed',
    part: 'protocol',
    reason:
      'the initialize handshake is gone: clients opening with it are rejected, servers waiting for it never get it',
    consequences: sides(rejected, absent),
  },
  {
    id: 'initialize-added',
    part: 'protocol',
    reason: 'an initialize handshake is now required: old clients skip it, old servers do not know it',
    consequences: sides(rejected, newTypes),
  },
  {
    id: 'per-request-meta-added',
    part: 'protocol',
    reason: 'client info and capabilities now travel in every request `_meta`: old clients do not send them',
    consequences: sides(rejected, newValues),
  },
  {
    id: 'per-request-meta-removed',
    part: 'protocol',
    reason: 'per-request client info/capabilities are gone: servers that read them there no longer get them',
    consequences: sides(ignored, absent),
  },
  {
    id: 'input-requests-added',
    part: 'protocol',
    reason: 'results may now ask for input (embedded input requests): clients must answer them and retry',
    consequences: sides(newTypes, none),
  },
  {
    id: 'input-requests-removed',
    part: 'protocol',
    reason: 'results can no longer ask for input: servers that ask that way are rejected',
    consequences: sides(none, rejected),
  },
  {
    id: 'capability-extensions-added',
    part: 'protocol',
    reason: 'the capabilities objects gained an `extensions` map (optional)',
    consequences: sides(none, none),
  },
  {
    id: 'capability-extensions-removed',
    part: 'protocol',
    reason: 'the capabilities `extensions` map is gone: settings declared there are ignored',
    consequences: sides(ignored, ignored),
  },
  {
    id: 'extension-id-changed',
    part: 'protocol',
    reason:
      'an extension took a new id (how SEP-2133 marks a breaking change): a peer on the other id neither understands what a side declares under its id nor declares what the side looks for',
    consequences: sides(lostPeer, lostPeer),
  },
];

/** Methods and notifications as a whole. */
export const METHOD_RULES: RuleSpec[] = [
  {
    id: 'method-added',
    part: 'method',
    reason:
      'a request method was added: callers only use it once the implementer announces it (a capability), so old code is unaffected',
    consequences: call(none, none),
  },
  {
    id: 'required-method-added',
    part: 'method',
    reason:
      'a request every implementer must answer was added (its result declares the implementer’s capabilities): old implementers do not know it',
    consequences: call(none, newTypes),
  },
  {
    id: 'method-removed',
    part: 'method',
    reason: 'a request method was removed: its callers are rejected; implementers just stop being called',
    consequences: call(rejected, none),
  },
  {
    id: 'method-direction-added',
    part: 'method',
    reason: 'a request can now be sent in another direction (announced like a new method)',
    consequences: call(none, none),
  },
  {
    id: 'method-direction-removed',
    part: 'method',
    reason: 'a request can no longer be sent in this direction: callers in that direction are rejected',
    consequences: call(rejected, none),
  },
  {
    id: 'notification-added',
    part: 'method',
    reason: 'a notification was added: receivers that do not know it ignore it',
    consequences: call(none, none),
  },
  {
    id: 'notification-removed',
    part: 'method',
    reason: 'a notification was removed: what senders send is ignored; receivers waiting for it never get it',
    consequences: call(ignored, absent),
  },
  {
    id: 'notification-direction-added',
    part: 'method',
    reason: 'a notification can now be sent in another direction: receivers that do not know it ignore it',
    consequences: call(none, none),
  },
  {
    id: 'notification-direction-removed',
    part: 'method',
    reason: 'a notification is no longer sent in this direction: senders are ignored, receivers never get it',
    consequences: call(ignored, absent),
  },
  {
    id: 'method-kind-changed',
    part: 'method',
    reason: 'a request became a notification or the other way round: neither side matches the other',
    consequences: call(rejected, newTypes),
  },
  {
    id: 'request-params-became-required',
    part: 'method',
    reason: 'a request now requires its params object: callers that omit it are rejected',
    consequences: call(rejected, none),
  },
  {
    id: 'request-params-became-optional',
    part: 'method',
    reason: 'a request params object became optional: implementers that read it unconditionally fail',
    consequences: call(none, absent),
  },
  {
    id: 'notification-params-became-required',
    part: 'method',
    reason: 'a notification now requires its params object: senders that omit it are rejected',
    consequences: call(rejected, none),
  },
  {
    id: 'notification-params-became-optional',
    part: 'method',
    reason: 'a notification params object became optional: receivers that read it unconditionally fail',
    consequences: call(none, absent),
  },
];

/** Structural changes found inside params, results and payloads; each becomes one rule per part. */
export type StructuralKind =
  | 'property-added'
  | 'property-removed'
  | 'required-property-removed'
  | 'required-added'
  | 'required-removed'
  | 'type-widened'
  | 'type-narrowed'
  | 'type-changed'
  | 'enum-value-added'
  | 'enum-value-removed'
  | 'enum-constraint-added'
  | 'enum-constraint-removed'
  | 'const-changed'
  | 'union-member-added'
  | 'union-member-removed'
  | 'additional-properties-widened'
  | 'additional-properties-narrowed'
  | 'result-became-unknown'
  | 'result-became-known';
export type KeywordKind = `${KeywordGroup}-${Tightness}`;
export type ChangeKind = StructuralKind | KeywordKind;

export interface ChangeKindSpec {
  reason: string;
  effect: Effect;
  /** Only in these parts (default all three). */
  parts?: readonly DataPart[];
}

export type DataPart = 'params' | 'result' | 'payload' | 'envelope';

const STRUCTURAL: Record<StructuralKind, ChangeKindSpec> = {
  'property-added': {
    reason: 'an optional property was added: old writers omit it, old readers ignore it',
    effect: {},
  },
  'property-removed': {
    reason: 'an optional property was removed: readers already handle its absence; a caller sending it is ignored',
    effect: { dropsMeaning: true },
  },
  'required-property-removed': {
    reason: 'a required property was removed: readers that rely on it no longer get it',
    effect: { dropsMeaning: true, dropsPresence: true },
  },
  'required-added': {
    reason: 'a property is now required (new or made required): writers that do not send it are rejected',
    effect: { narrows: 'yes' },
  },
  'required-removed': {
    reason: 'a required property became optional: readers that read it unconditionally fail',
    effect: { dropsPresence: true },
  },
  'type-widened': {
    reason:
      'the type accepts more (e.g. integer → number, a type added): readers get values of a type they do not handle',
    effect: { widens: 'type' },
  },
  'type-narrowed': {
    reason: 'the type accepts less (e.g. number → integer, a type removed): writers may send values now invalid',
    effect: { narrows: 'yes' },
  },
  'type-changed': {
    reason: 'the type changed incompatibly: neither writers nor readers of the old type work',
    effect: { narrows: 'yes', widens: 'type' },
  },
  'enum-value-added': {
    reason: 'an enum/const value was added: readers may get a value they do not know',
    effect: { widens: 'value' },
  },
  'enum-value-removed': {
    reason: 'an enum/const value was removed: writers that send it are rejected',
    effect: { narrows: 'yes' },
  },
  'enum-constraint-added': {
    reason: 'values are now restricted to an enum/const: writers of other values are rejected',
    effect: { narrows: 'yes' },
  },
  'enum-constraint-removed': {
    reason: 'the enum/const restriction was dropped: readers may get values they do not know',
    effect: { widens: 'value' },
  },
  'const-changed': {
    reason:
      'a single fixed value (const or one-value enum, e.g. a discriminator) became another: writers of the old value are rejected, readers get a value they have no branch for',
    effect: { narrows: 'yes', widens: 'type' },
  },
  'union-member-added': {
    reason: 'a union (anyOf/oneOf) gained a member: readers may get a variant they do not know',
    effect: { widens: 'value' },
  },
  'union-member-removed': {
    reason: 'a union (anyOf/oneOf) lost a member: writers of that variant are rejected',
    effect: { narrows: 'yes' },
  },
  'additional-properties-widened': {
    reason: 'additionalProperties accepts more: readers may get keys or values they do not expect',
    effect: { widens: 'value' },
  },
  'additional-properties-narrowed': {
    reason: 'additionalProperties accepts less: writers of extra keys or values are rejected',
    effect: { narrows: 'yes' },
  },
  'result-became-unknown': {
    reason:
      'no pairing rule finds the result any more (now the generic Result): readers lose what they were promised; pair it with --pairing',
    effect: { widens: 'value' },
    parts: ['result'],
  },
  'result-became-known': {
    reason: 'the result was unknown (the generic Result) and is now paired: writers might not match it',
    effect: { narrows: 'maybe' },
    parts: ['result'],
  },
};

const GROUP_LABEL: Record<KeywordGroup, string> = {
  'length-limit': 'a string length limit (minLength/maxLength)',
  'item-count-limit': 'an array size limit (minItems/maxItems)',
  'property-count-limit': 'an object size limit (minProperties/maxProperties)',
  'numeric-range': 'a numeric bound (minimum/maximum/exclusive*)',
  'multiple-of': 'multipleOf',
  pattern: 'a string pattern',
  format: 'a string format',
  'unique-items': 'uniqueItems',
  not: 'a `not` exclusion',
  'pattern-properties': 'patternProperties',
  'property-names': 'propertyNames',
};

function keywordKinds(): Record<KeywordKind, ChangeKindSpec> {
  const out = {} as Record<KeywordKind, ChangeKindSpec>;
  for (const group of KEYWORD_GROUPS) {
    const label = GROUP_LABEL[group];
    out[`${group}-tightened`] = {
      reason: `${label} accepts less: writers of values now outside it are rejected`,
      effect: { narrows: 'yes' },
    };
    out[`${group}-loosened`] = {
      reason: `${label} accepts more: readers may get values outside what they were promised`,
      effect: { widens: 'value' },
    };
    if (CHANGEABLE_GROUPS.has(group)) {
      out[`${group}-changed`] = {
        reason: `${label} changed to one neither tighter nor looser: writers might be rejected, readers might get new values`,
        effect: { narrows: 'maybe', widens: 'value' },
      };
    }
  }
  return out;
}

export const CHANGE_KINDS: Readonly<Record<string, ChangeKindSpec>> = { ...STRUCTURAL, ...keywordKinds() };

/** Rule id prefix of each data part. */
export const PART_PREFIX = {
  params: 'request-param',
  result: 'result',
  payload: 'notification-payload',
  envelope: 'envelope',
} as const;
export const PART_LABEL = {
  params: 'request params',
  result: 'result',
  payload: 'notification payload',
  envelope: 'JSON-RPC envelope (both sides write and read it)',
} as const;

/** The rule id of a structural change in a message part (result-became-* are ids of their own). */
export function partRuleId(part: DataPart, kind: ChangeKind): string {
  return kind.startsWith('result-became-') ? kind : `${PART_PREFIX[part]}-${kind}`;
}

export const DESCRIPTION_RULE: RuleSpec = {
  id: 'description-changed',
  part: 'any',
  reason: 'only a description changed (reported with includeDescriptions)',
  consequences: sides(none, none),
};

/** The more severe of two verdicts. */
export function worse(a: Verdict, b: Verdict): Verdict {
  return VERDICTS.indexOf(a) >= VERDICTS.indexOf(b) ? a : b;
}

/** Who is the caller (sender) of a message in a direction. */
export function callerOf(direction: Direction): Side {
  return direction === 'client->server' ? 'client' : 'server';
}

/**
 * A rule's verdicts for client and server, for a fact in the given message part and directions.
 * With no direction (protocol facts) only `sides` rules apply; role rules then give the worst role to both.
 */
export function verdictsFor(rule: Rule, part: MessagePart, directions: readonly Direction[]): Record<Side, Verdict> {
  const roles = rule.roles;
  if (roles.kind === 'sides') return { client: roles.client, server: roles.server };
  let client: Verdict = 'non-breaking';
  let server: Verdict = 'non-breaking';
  const dirs: readonly (Direction | null)[] = directions.length > 0 ? directions : [null];
  for (const direction of dirs) {
    // [caller / sender, implementer / receiver]: the caller writes params and payloads, reads results.
    const [first, second] =
      roles.kind === 'call'
        ? [roles.caller, roles.implementer]
        : part === 'result'
          ? [roles.reader, roles.writer]
          : [roles.writer, roles.reader];
    if (direction === null) {
      client = worse(client, worse(first, second));
      server = worse(server, worse(first, second));
      continue;
    }
    const callerIsClient = callerOf(direction) === 'client';
    client = worse(client, callerIsClient ? first : second);
    server = worse(server, callerIsClient ? second : first);
  }
  return { client, server };
}

/** The verdict logic in words, for `diff --rules`. */
export function describeVerdictLogic(rule: Pick<Rule, 'part' | 'roles' | 'consequences'>): string {
  const r = rule.roles;
  const c = rule.consequences;
  const say = (who: string, v: Verdict, what: Consequence) => `${who}: ${v} (${describeConsequence(what)})`;
  if (r.kind === 'sides' && c.kind === 'sides')
    return `${say('client', r.client, c.client)}; ${say('server', r.server, c.server)}`;
  if (r.kind === 'call' && c.kind === 'call') {
    return `${say('caller/sender', r.caller, c.caller)}; ${say('implementer/receiver', r.implementer, c.implementer)}`;
  }
  if (r.kind === 'data' && c.kind === 'data') {
    const writer = rule.part === 'result' ? 'implementer' : rule.part === 'envelope' ? 'each side' : 'caller/sender';
    const reader = rule.part === 'result' ? 'caller' : rule.part === 'envelope' ? 'each side' : 'implementer/receiver';
    return `${say(`writer (${writer})`, r.writer, c.writer)}; ${say(`reader (${reader})`, r.reader, c.reader)}`;
  }
  return 'inconsistent rule';
}
