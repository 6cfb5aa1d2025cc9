/**
 * The rules of `mcp-typegen diff`: every fact has a stable rule id and, for each side, a verdict.
 *
 * Verdicts are given per role, then mapped to client/server by the direction of the message:
 * - method rules name the caller (the sender, for a notification) and the implementer (the receiver);
 * - message-part rules name the writer and the reader of the data: request params are written by the
 *   caller and read by the implementer, a result the other way round, a notification payload is
 *   written by the sender and read by the receiver;
 * - protocol rules name client and server directly.
 * The caller of a `client->server` message is the client; of a `server->client` or `input` message
 * (an input request embedded in a 2026-07-28+ result) the server. A message sent both ways gets, for
 * each side, the worst verdict over its directions.
 *
 * A verdict answers: "does code on this side, written against the old schema, keep working with a
 * counterpart written against the new schema?"
 */
import type { Direction } from '../model/types.js';
import { VERDICTS, type MessagePart, type Side, type Verdict } from './types.js';

export type RuleRoles =
  | { kind: 'sides'; client: Verdict; server: Verdict }
  | { kind: 'call'; caller: Verdict; implementer: Verdict }
  | { kind: 'data'; writer: Verdict; reader: Verdict };

export interface Rule {
  id: string;
  /** The message part the rule's facts are located in; `any` for `description-changed`. */
  part: MessagePart | 'any';
  /** One line: what changed and why it matters. */
  reason: string;
  roles: RuleRoles;
  /** The verdict logic in words (`describeVerdictLogic`), for `diff --rules`. */
  verdictLogic: string;
}

const B: Verdict = 'breaking';
const P: Verdict = 'potentially-breaking';
const N: Verdict = 'non-breaking';

/** Structural changes found inside params, results and payloads; each becomes one rule per part. */
export type ChangeKind =
  | 'property-added'
  | 'property-removed'
  | 'required-added'
  | 'required-removed'
  | 'type-widened'
  | 'type-narrowed'
  | 'type-changed'
  | 'enum-value-added'
  | 'enum-value-removed'
  | 'enum-constraint-added'
  | 'enum-constraint-removed'
  | 'union-member-added'
  | 'union-member-removed'
  | 'additional-properties-widened'
  | 'additional-properties-narrowed';

interface ChangeKindSpec {
  reason: string;
  writer: Verdict | ((part: 'params' | 'result' | 'payload') => Verdict);
  reader: Verdict;
}

export const CHANGE_KINDS: Record<ChangeKind, ChangeKindSpec> = {
  'property-added': {
    reason: 'an optional property was added: old writers omit it, old readers ignore it',
    writer: N,
    reader: N,
  },
  'property-removed': {
    reason:
      'a property was removed: readers that use it no longer get it; a caller sending it as a param loses its effect',
    writer: (part) => (part === 'params' ? P : N),
    reader: B,
  },
  'required-added': {
    reason: 'a property is now required (new or made required): writers that do not send it are rejected',
    writer: B,
    reader: N,
  },
  'required-removed': {
    reason: 'a required property became optional: readers that assumed it is always present may fail',
    writer: N,
    reader: P,
  },
  'type-widened': {
    reason: 'the type accepts more (e.g. integer → number, a type added): readers get values they do not handle',
    writer: N,
    reader: B,
  },
  'type-narrowed': {
    reason: 'the type accepts less (e.g. number → integer, a type removed): writers may send values now invalid',
    writer: B,
    reader: N,
  },
  'type-changed': {
    reason: 'the type changed incompatibly: neither writers nor readers of the old type work',
    writer: B,
    reader: B,
  },
  'enum-value-added': {
    reason: 'an enum/const value was added: strict readers may reject or mishandle it',
    writer: N,
    reader: P,
  },
  'enum-value-removed': {
    reason: 'an enum/const value was removed: writers that send it are rejected',
    writer: B,
    reader: N,
  },
  'enum-constraint-added': {
    reason: 'values are now restricted to an enum/const: writers of other values are rejected',
    writer: B,
    reader: N,
  },
  'enum-constraint-removed': {
    reason: 'the enum/const restriction was dropped: readers may get values they do not know',
    writer: N,
    reader: P,
  },
  'union-member-added': {
    reason: 'a union (anyOf/oneOf) gained a member: readers may get a shape they do not know',
    writer: N,
    reader: P,
  },
  'union-member-removed': {
    reason: 'a union (anyOf/oneOf) lost a member: writers of that shape are rejected',
    writer: B,
    reader: N,
  },
  'additional-properties-widened': {
    reason: 'additionalProperties accepts more: readers may get keys or values they do not expect',
    writer: N,
    reader: P,
  },
  'additional-properties-narrowed': {
    reason: 'additionalProperties accepts less: writers of extra keys or values are rejected',
    writer: B,
    reader: N,
  },
};

/** Rule id prefix of each data part. */
export const PART_PREFIX = { params: 'request-param', result: 'result', payload: 'notification-payload' } as const;
const PART_LABEL = { params: 'request params', result: 'result', payload: 'notification payload' } as const;

/** The rule id of a structural change in a message part. */
export function partRuleId(part: 'params' | 'result' | 'payload', kind: ChangeKind): string {
  return `${PART_PREFIX[part]}-${kind}`;
}

function buildRules(): Rule[] {
  const rules: Omit<Rule, 'verdictLogic'>[] = [
    // Protocol features.
    {
      id: 'batching-removed',
      part: 'protocol',
      reason:
        'JSON-RPC batches are no longer allowed: peers that send batches are rejected, peers that answer them must stop',
      roles: { kind: 'sides', client: B, server: B },
    },
    {
      id: 'batching-added',
      part: 'protocol',
      reason: 'JSON-RPC batches are now allowed: old peers cannot receive them',
      roles: { kind: 'sides', client: P, server: P },
    },
    {
      id: 'initialize-removed',
      part: 'protocol',
      reason:
        'the initialize handshake is gone: clients that open with it and servers that wait for it no longer interoperate',
      roles: { kind: 'sides', client: B, server: B },
    },
    {
      id: 'initialize-added',
      part: 'protocol',
      reason: 'an initialize handshake is now required: old clients do not perform it',
      roles: { kind: 'sides', client: B, server: P },
    },
    {
      id: 'per-request-meta-added',
      part: 'protocol',
      reason:
        'client info and capabilities now travel in every request `_meta`: clients must send them, servers must read them there',
      roles: { kind: 'sides', client: B, server: P },
    },
    {
      id: 'per-request-meta-removed',
      part: 'protocol',
      reason: 'per-request client info/capabilities are gone: servers that read them there no longer get them',
      roles: { kind: 'sides', client: P, server: B },
    },
    {
      id: 'input-requests-added',
      part: 'protocol',
      reason: 'results may now be InputRequiredResult with embedded input requests: clients must answer them and retry',
      roles: { kind: 'sides', client: B, server: N },
    },
    {
      id: 'input-requests-removed',
      part: 'protocol',
      reason: 'InputRequiredResult is gone: servers that ask for input that way must send requests instead',
      roles: { kind: 'sides', client: N, server: B },
    },
    {
      id: 'capability-extensions-added',
      part: 'protocol',
      reason: 'the capabilities objects gained an `extensions` map',
      roles: { kind: 'sides', client: N, server: N },
    },
    {
      id: 'capability-extensions-removed',
      part: 'protocol',
      reason: 'the capabilities `extensions` map is gone: vendor settings declared there are lost',
      roles: { kind: 'sides', client: P, server: P },
    },
    // Methods.
    {
      id: 'method-added',
      part: 'method',
      reason: 'a request method was added: nobody calls it yet, so old code is unaffected',
      roles: { kind: 'call', caller: N, implementer: N },
    },
    {
      id: 'method-removed',
      part: 'method',
      reason: 'a request method was removed: its callers get method-not-found; implementers just stop being called',
      roles: { kind: 'call', caller: B, implementer: N },
    },
    {
      id: 'method-direction-added',
      part: 'method',
      reason: 'a request can now be sent in another direction: old code is unaffected',
      roles: { kind: 'call', caller: N, implementer: N },
    },
    {
      id: 'method-direction-removed',
      part: 'method',
      reason: 'a request can no longer be sent in this direction: callers in that direction break',
      roles: { kind: 'call', caller: B, implementer: N },
    },
    {
      id: 'notification-added',
      part: 'method',
      reason: 'a notification was added: receivers that do not know it ignore it',
      roles: { kind: 'call', caller: N, implementer: N },
    },
    {
      id: 'notification-removed',
      part: 'method',
      reason: 'a notification was removed: receivers waiting for it never get it; what senders send is ignored',
      roles: { kind: 'call', caller: P, implementer: B },
    },
    {
      id: 'notification-direction-added',
      part: 'method',
      reason: 'a notification can now be sent in another direction',
      roles: { kind: 'call', caller: N, implementer: N },
    },
    {
      id: 'notification-direction-removed',
      part: 'method',
      reason: 'a notification is no longer sent in this direction: receivers waiting for it never get it',
      roles: { kind: 'call', caller: P, implementer: B },
    },
    {
      id: 'method-kind-changed',
      part: 'method',
      reason: 'a request became a notification or the other way round: neither side matches the other',
      roles: { kind: 'call', caller: B, implementer: B },
    },
    {
      id: 'request-params-became-required',
      part: 'method',
      reason: 'a request now requires its params object: callers that omit it are rejected',
      roles: { kind: 'call', caller: B, implementer: N },
    },
    {
      id: 'request-params-became-optional',
      part: 'method',
      reason: 'a request params object became optional: implementers that assumed it may fail',
      roles: { kind: 'call', caller: N, implementer: P },
    },
    {
      id: 'notification-params-became-required',
      part: 'method',
      reason: 'a notification now requires its params object: senders that omit it are rejected',
      roles: { kind: 'call', caller: B, implementer: N },
    },
    {
      id: 'notification-params-became-optional',
      part: 'method',
      reason: 'a notification params object became optional: receivers that assumed it may fail',
      roles: { kind: 'call', caller: N, implementer: P },
    },
  ];
  for (const part of ['params', 'result', 'payload'] as const) {
    for (const [kind, spec] of Object.entries(CHANGE_KINDS) as [ChangeKind, ChangeKindSpec][]) {
      rules.push({
        id: partRuleId(part, kind),
        part,
        reason: `${PART_LABEL[part]}: ${spec.reason}`,
        roles: {
          kind: 'data',
          writer: typeof spec.writer === 'function' ? spec.writer(part) : spec.writer,
          reader: spec.reader,
        },
      });
    }
  }
  rules.push(
    {
      id: 'result-became-unknown',
      part: 'result',
      reason:
        'no pairing rule finds the result any more (it is the generic Result): readers lose what they were promised; pair it with --pairing',
      roles: { kind: 'data', writer: N, reader: P },
    },
    {
      id: 'result-became-known',
      part: 'result',
      reason: 'the result was unknown (the generic Result) and is now paired: writers must now match it',
      roles: { kind: 'data', writer: P, reader: N },
    },
  );
  rules.push({
    id: 'description-changed',
    part: 'any',
    reason: 'only a description changed (reported with includeDescriptions)',
    roles: { kind: 'sides', client: N, server: N },
  });
  return rules.map((r) => ({ ...r, verdictLogic: describeVerdictLogic(r) }));
}

/** Every rule, in a stable order (protocol, method, params, result, payload, description). */
export const RULES: readonly Rule[] = buildRules();
const RULES_BY_ID = new Map(RULES.map((r) => [r.id, r]));

export function ruleById(id: string): Rule | undefined {
  return RULES_BY_ID.get(id);
}

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
  let client: Verdict = N;
  let server: Verdict = N;
  const dirs: readonly (Direction | null)[] = directions.length > 0 ? directions : [null];
  for (const direction of dirs) {
    let first: Verdict; // verdict of the caller / sender
    let second: Verdict; // verdict of the implementer / receiver
    if (roles.kind === 'call') {
      first = roles.caller;
      second = roles.implementer;
    } else if (part === 'result') {
      first = roles.reader; // the caller reads the result
      second = roles.writer;
    } else {
      first = roles.writer; // the caller writes params, the sender writes a payload
      second = roles.reader;
    }
    if (direction === null) {
      client = worse(client, worse(first, second));
      server = worse(server, worse(first, second));
      continue;
    }
    const caller = callerOf(direction);
    const c = caller === 'client' ? first : second;
    const s = caller === 'server' ? first : second;
    client = worse(client, c);
    server = worse(server, s);
  }
  return { client, server };
}

/** The verdict logic of a rule in words, for `diff --rules`. */
export function describeVerdictLogic(rule: Pick<Rule, 'part' | 'roles'>): string {
  const r = rule.roles;
  if (r.kind === 'sides') return `client: ${r.client}; server: ${r.server}`;
  if (r.kind === 'call') {
    return `caller/sender: ${r.caller}; implementer/receiver: ${r.implementer} (client->server: the client calls; server->client and input: the server calls)`;
  }
  const writer = rule.part === 'result' ? 'implementer' : 'caller/sender';
  const reader = rule.part === 'result' ? 'caller' : 'implementer/receiver';
  return `writer (${writer}): ${r.writer}; reader (${reader}): ${r.reader}`;
}
