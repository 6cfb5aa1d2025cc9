/**
 * Who sends what, found from structure so that renaming a definition changes nothing:
 * - a message union is a definition whose anyOf/oneOf leaves are all messages (definitions with a
 *   method const) — or, as 2026-07-28's ClientNotification, a message written out again in a
 *   definition nobody references, standing for the definition that declares the same method;
 * - its kind: notifications when every method is under `notifications/` (the wire's rule), requests
 *   when every message declares an `id`; else the spec's name, else requests when no method is under
 *   `notifications/`;
 * - its direction, from what it holds: a union embedded in another definition (carried inside a result)
 *   holds input requests; the request union holding the handshake (a request whose result requires
 *   `capabilities`: the client asks, the server declares) is the client's; a union of methods the spec's
 *   method tables know (who sends each method of the released versions: the manifest's `senders`) is
 *   sent by the side that sends most of them; a notification union otherwise by the side that serves
 *   the method families it announces (`notifications/tools/…` by whoever answers `tools/…`); and of two
 *   top-level unions of a kind, when one is told, the other is the other side's.
 * The spec's union names (ClientRequest, …) decide only what all of this leaves open (small hand-written
 * schemas of methods of their own, without a handshake), and keep naming malformed unions in errors.
 */
import { isObject, type LoadedSchema } from '../load/schema.js';
import type { JsonSchema } from '../load/schema-types.js';
import { pairResult, type UserPairing } from './pairing.js';
import { DIRECTIONS, type Direction, type MethodInfo, type MethodKind } from './types.js';
import { compareStrings } from '../load/order.js';
import { decodeFragmentToken, escapePointerToken } from '../load/pointer.js';
import { unwrapAllOf } from '../load/schema-keywords.js';
import { methodSenders } from '../load/manifest.js';

export interface UnionRole {
  definition: string;
  kind: MethodKind;
  direction: Direction;
}

/** The spec's names for the unions: consulted only where structure says nothing. */
const NAMED: Record<string, { kind: MethodKind; direction: Direction }> = {
  ClientRequest: { kind: 'request', direction: 'client->server' },
  ServerRequest: { kind: 'request', direction: 'server->client' },
  ClientNotification: { kind: 'notification', direction: 'client->server' },
  ServerNotification: { kind: 'notification', direction: 'server->client' },
  InputRequest: { kind: 'request', direction: 'input' },
};

/** A message definition's properties and required names, read through its top-level spelling. */
export interface MessageParts {
  /** Property name → its schema and pointer suffix from the definition (e.g. `/allOf/1/properties/params`). */
  properties: Map<string, { schema: unknown; at: string }>;
  required: Set<string>;
  /** `$ref`s among the top-level parts (not followed). */
  refs: unknown[];
}

/**
 * The top of a message definition read as the diff's view reads any schema: a single-member
 * anyOf/oneOf is its member, allOf parts add up. Only inline parts: a `$ref` part points into another
 * definition, which declares nothing of this message's own.
 */
export function messageParts(def: unknown): MessageParts {
  const parts: MessageParts = { properties: new Map(), required: new Set(), refs: [] };
  const visit = (node: unknown, at: string, depth: number): void => {
    if (!isObject(node) || depth > 16) return;
    if (node.$ref !== undefined) parts.refs.push(node.$ref);
    if (isObject(node.properties)) {
      for (const [name, schema] of Object.entries(node.properties))
        if (!parts.properties.has(name))
          parts.properties.set(name, { schema, at: `${at}/properties/${escapePointerToken(name)}` });
    }
    if (Array.isArray(node.required)) for (const r of node.required) if (typeof r === 'string') parts.required.add(r);
    if (Array.isArray(node.allOf)) node.allOf.forEach((part, i) => visit(part, `${at}/allOf/${i}`, depth + 1));
    for (const key of ['anyOf', 'oneOf'] as const) {
      const members = node[key];
      if (Array.isArray(members) && members.length === 1) visit(members[0], `${at}/${key}/0`, depth + 1);
    }
  };
  visit(def, '', 0);
  return parts;
}

/** The method a message schema declares: `properties.method.const` (or a one-value enum), at its top. */
export function methodConst(def: unknown): string | undefined {
  if (!isObject(def)) return undefined;
  // Most definitions spell it directly; the rest are read through their top-level combinators.
  const direct = isObject(def.properties) ? def.properties.method : undefined;
  if (direct !== undefined) return constString(direct);
  if (!Array.isArray(def.allOf) && !Array.isArray(def.anyOf) && !Array.isArray(def.oneOf)) return undefined;
  return constString(messageParts(def).properties.get('method')?.schema);
}

/** A string const (or one-value enum), also wrapped in single-member combinators. */
function constString(node: unknown, depth = 0): string | undefined {
  if (!isObject(node) || depth > 16) return undefined;
  if (typeof node.const === 'string') return node.const;
  if (Array.isArray(node.enum) && node.enum.length === 1 && typeof node.enum[0] === 'string') return node.enum[0];
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const members = node[key];
    if (Array.isArray(members) && members.length === 1) return constString(members[0], depth + 1);
  }
  return undefined;
}

interface Candidate {
  definition: string;
  /** Methods of the union's leaves. */
  methods: string[];
  /** Referenced by a definition that is not itself a message union. */
  embedded: boolean;
  kind: MethodKind | null;
  direction: Direction | null;
  /** No method under `notifications/`: requests, unless the spec's name says otherwise. */
  noneUnder: boolean;
}

/** The message unions of a schema with their kind and direction, requests before notifications. */
export function messageUnions(
  schema: LoadedSchema,
  refName: (ref: unknown) => string | undefined,
  pairing: UserPairing | undefined,
): UnionRole[] {
  const defs = schema.definitions;
  const declaring = new Map<string, string[]>();
  for (const [name, def] of Object.entries(defs)) {
    const method = methodConst(def);
    if (method !== undefined) declaring.set(method, [...(declaring.get(method) ?? []), name]);
  }
  const { found, referrers } = unionDefinitions(defs, refName, declaring);
  const candidates = topUnions(found, referrers);
  for (const c of candidates) c.kind ??= NAMED[c.definition]?.kind ?? (c.noneUnder ? 'request' : null);
  const senders = methodSenders();
  const knownSender = (method: string): Sender | undefined => {
    const known = senders.get(method);
    return known?.length === 1 ? known[0] : undefined;
  };
  directRequests(
    candidates.filter((c) => c.kind === 'request'),
    (method, definition) => handshake(schema, method, definition, refName, pairing),
    (m) => declaring.get(m),
    knownSender,
  );
  directNotifications(candidates, knownSender);
  const roles: UnionRole[] = [];
  for (const c of candidates) {
    const direction = c.direction ?? NAMED[c.definition]?.direction ?? null;
    if (c.kind !== null && direction !== null) roles.push({ definition: c.definition, kind: c.kind, direction });
  }
  // A named union structure could not read (a member that is no message) stays, so the error names it.
  for (const [name, role] of Object.entries(NAMED)) {
    if (isObject(defs[name]) && !found.has(name)) roles.push({ definition: name, ...role });
  }
  const order = (r: UnionRole) => (r.kind === 'request' ? 0 : 3) + DIRECTIONS.indexOf(r.direction);
  return roles.sort((a, b) => order(a) - order(b) || compareStrings(a.definition, b.definition));
}

/**
 * Definitions that are unions of messages, with their leaves, and the definitions referring to each. A
 * message restated in a definition nobody uses counts as a union of the one message it restates.
 */
function unionDefinitions(
  defs: LoadedSchema['definitions'],
  refName: (ref: unknown) => string | undefined,
  declaring: ReadonlyMap<string, string[]>,
): { found: Map<string, Leaves>; referrers: Map<string, Set<string>> } {
  const found = new Map<string, Leaves>();
  const restated: string[] = [];
  for (const [name, def] of Object.entries(defs)) {
    const method = methodConst(def);
    if (method !== undefined) {
      if ((declaring.get(method)?.length ?? 0) > 1) {
        found.set(name, { methods: [method], subUnions: new Set(), withId: hasId(def) });
        restated.push(name);
      }
    } else if (isUnion(def)) {
      const leaves = unionLeaves(defs, def, refName);
      if (leaves && leaves.methods.length > 0) found.set(name, leaves);
    }
  }
  const referrers = referencedBy(defs, new Set(found.keys()), refName);
  for (const name of restated) if (referrers.has(name)) found.delete(name);
  return { found, referrers };
}

/** The unions no other union passes through, with the kind their members show. */
function topUnions(found: ReadonlyMap<string, Leaves>, referrers: ReadonlyMap<string, Set<string>>): Candidate[] {
  const subUnions = new Set([...found.values()].flatMap((f) => [...f.subUnions]));
  const candidates: Candidate[] = [];
  for (const [name, f] of found) {
    if (subUnions.has(name)) continue;
    const notifications = f.methods.filter((m) => m.startsWith('notifications/')).length;
    const kind = notifications === f.methods.length ? 'notification' : f.withId ? 'request' : null;
    const embedded = [...(referrers.get(name) ?? [])].some((r) => !found.has(r));
    candidates.push({
      definition: name,
      methods: f.methods,
      embedded,
      kind,
      direction: null,
      noneUnder: notifications === 0,
    });
  }
  return candidates;
}

interface Leaves {
  methods: string[];
  /** Union definitions passed through on the way to the leaves. */
  subUnions: Set<string>;
  /** Every leaf message declares an `id` (2025-11-25 on, requests do; notifications never). */
  withId: boolean;
}

function hasId(def: unknown): boolean {
  if (isObject(def) && isObject(def.properties) && Object.hasOwn(def.properties, 'id')) return true;
  return messageParts(def).properties.has('id');
}

/** Leaves of a union: message definitions, through `$ref`s to other unions; null if one is no message. */
function unionLeaves(
  defs: Record<string, JsonSchema>,
  root: JsonSchema,
  refName: (ref: unknown) => string | undefined,
): Leaves | null {
  const methods: string[] = [];
  const subUnions = new Set<string>();
  let withId = true;
  const visit = (wrapped: unknown, depth: number): boolean => {
    const { node } = unwrapAllOf(wrapped);
    if (!isObject(node) || depth > 32) return false;
    const alternatives = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
    if (alternatives) return alternatives.every((alt) => visit(alt, depth + 1));
    const ref = refName(node.$ref);
    if (ref !== undefined) {
      const target = defs[ref];
      const method = methodConst(target);
      if (method !== undefined) {
        methods.push(method);
        withId &&= hasId(target);
        return true;
      }
      subUnions.add(ref);
      return visit(target, depth + 1);
    }
    const method = methodConst(node);
    if (method === undefined) return false;
    methods.push(method);
    withId &&= hasId(node);
    return true;
  };
  return visit(root, 0) ? { methods, subUnions, withId } : null;
}

/** For the names asked about: the definitions whose schema holds a `$ref` to them. */
function referencedBy(
  defs: Record<string, JsonSchema>,
  names: ReadonlySet<string>,
  refName: (ref: unknown) => string | undefined,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  // The walk visits every node of every definition: keep it to lookups.
  const targets = new Map<string, string | undefined>();
  const walk = (node: unknown, from: string): void => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const x: unknown = node[i];
        if (typeof x === 'object' && x !== null) walk(x, from);
      }
      return;
    }
    const record = node as Record<string, unknown>;
    for (const key in record) {
      const value = record[key];
      if (key === '$ref') {
        if (typeof value !== 'string') continue;
        let target = targets.get(value);
        if (target === undefined && !targets.has(value)) {
          const name = refName(value);
          target = name !== undefined && names.has(name) ? name : undefined;
          targets.set(value, target);
        }
        if (target !== undefined && target !== from) {
          let set = out.get(target);
          if (!set) out.set(target, (set = new Set()));
          set.add(from);
        }
      } else if (typeof value === 'object' && value !== null) walk(value, from);
    }
  };
  for (const name in defs) {
    const def = defs[name];
    if (typeof def === 'object' && def !== null) walk(def, name);
  }
  return out;
}

/** Whether a request's result requires `capabilities`: the handshake, where the answerer declares itself. */
function handshake(
  schema: LoadedSchema,
  method: string,
  definition: string,
  refName: (ref: unknown) => string | undefined,
  pairing: UserPairing | undefined,
): boolean {
  const info = {
    method,
    kind: 'request',
    directions: [],
    definition,
    params: null,
    paramsRequired: false,
    source: 'mcp',
  };
  // The caller declares itself in the params (initialize): structure alone, whatever the names.
  const params = messageParts(schema.definitions[definition]).properties.get('params')?.schema;
  if (requiresIn(schema.definitions, params, 'capabilities', refName)) return true;
  const paired = pairResult(schema, info as MethodInfo, refName, pairing);
  return !paired.unknown && paired.result.some((r) => requires(schema.definitions, r, 'capabilities', refName));
}

/** Whether a schema (inline, or a `$ref` to a definition) requires the property. */
function requiresIn(
  defs: Record<string, JsonSchema>,
  node: unknown,
  property: string,
  refName: (ref: unknown) => string | undefined,
): boolean {
  if (!isObject(node)) return false;
  const target = refName(node.$ref);
  if (target !== undefined) return requires(defs, target, property, refName);
  const parts = messageParts(node);
  if (parts.properties.has(property) && parts.required.has(property)) return true;
  return parts.refs.some((ref) => {
    const name = refName(ref);
    return name !== undefined && requires(defs, name, property, refName, 1);
  });
}

function requires(
  defs: Record<string, JsonSchema>,
  name: string,
  property: string,
  refName: (ref: unknown) => string | undefined,
  depth = 0,
): boolean {
  if (depth > 16) return false;
  const parts = messageParts(defs[name]);
  if (parts.properties.has(property) && parts.required.has(property)) return true;
  return parts.refs.some((ref) => {
    const target = refName(ref);
    return target !== undefined && requires(defs, target, property, refName, depth + 1);
  });
}

type Sender = 'client' | 'server';

/** The side a message union's methods say sends it: most of those whose sender is known, or null (a tie). */
function vote(methods: readonly string[], senderOf: (method: string) => Sender | undefined): Direction | null {
  let client = 0;
  let server = 0;
  for (const m of methods) {
    const sender = senderOf(m);
    if (sender === 'client') client++;
    else if (sender === 'server') server++;
  }
  return client === server ? null : client > server ? 'client->server' : 'server->client';
}

const opposite = (d: Direction): Direction => (d === 'client->server' ? 'server->client' : 'client->server');

/**
 * Requests: a union carried inside another definition holds input requests; the union holding the
 * handshake is the client's; a union whose methods the spec's method tables know is sent by the side
 * that sends most of them; of two top-level unions, one told, the other is the other side's.
 */
function directRequests(
  requests: Candidate[],
  isHandshake: (method: string, definition: string) => boolean,
  declaring: (method: string) => string[] | undefined,
  knownSender: (method: string) => Sender | undefined,
): void {
  const top: Candidate[] = [];
  for (const c of requests) {
    if (c.embedded) c.direction = 'input';
    else top.push(c);
  }
  const withHandshake = top.filter((c) =>
    c.methods.some((m) => (declaring(m) ?? []).some((definition) => isHandshake(m, definition))),
  );
  const [handshake] = withHandshake;
  if (withHandshake.length === 1 && handshake !== undefined) handshake.direction = 'client->server';
  for (const c of top) c.direction ??= vote(c.methods, knownSender);
  const [a, b] = top;
  if (top.length !== 2 || a === undefined || b === undefined) return;
  if (a.direction && !b.direction) b.direction = opposite(a.direction);
  else if (b.direction && !a.direction) a.direction = opposite(b.direction);
}

/**
 * Notifications: sent by the side the spec's method tables say sends them, else by the side that serves
 * the method family they announce (`notifications/tools/…` by whoever answers `tools/…`); of two
 * notification unions, when one is told, the other is the other side's.
 */
function directNotifications(candidates: Candidate[], knownSender: (method: string) => Sender | undefined): void {
  // Method family (`tools`) → the sides that answer its requests.
  const answerers = new Map<string, Set<Sender>>();
  for (const c of candidates) {
    const direction = c.direction ?? NAMED[c.definition]?.direction;
    if (c.kind !== 'request' || !direction) continue;
    for (const m of c.methods) {
      const slash = m.indexOf('/');
      if (slash <= 0) continue;
      const family = m.slice(0, slash);
      let set = answerers.get(family);
      if (!set) answerers.set(family, (set = new Set()));
      set.add(direction === 'client->server' ? 'server' : 'client');
    }
  }
  const byFamily = (m: string): Sender | undefined => {
    const [, namespace, ...rest] = m.split('/');
    if (namespace === undefined || rest.length === 0) return undefined;
    const sides = answerers.get(namespace);
    return sides?.size === 1 ? [...sides][0] : undefined;
  };
  const top = candidates.filter((c) => c.kind === 'notification' && !c.embedded);
  for (const c of top) c.direction = vote(c.methods, (m) => knownSender(m) ?? byFamily(m));
  const [a, b] = top;
  if (top.length !== 2 || a === undefined || b === undefined) return;
  if (a.direction && !b.direction) b.direction = opposite(a.direction);
  else if (b.direction && !a.direction) a.direction = opposite(b.direction);
  else if (a.direction && a.direction === b.direction) a.direction = b.direction = null;
}

/** `#/definitions/X` or `#/$defs/X` (a whole definition of `definitions`) → X. */
export function definitionRefReader(
  definitions: Record<string, JsonSchema>,
  defsKeyword: string,
): (ref: unknown) => string | undefined {
  const prefix = `#/${defsKeyword}/`;
  return (ref) => {
    if (typeof ref !== 'string' || !ref.startsWith(prefix)) return undefined;
    const raw = ref.slice(prefix.length);
    if (raw.includes('/')) return undefined;
    const name = decodeFragmentToken(raw);
    return Object.hasOwn(definitions, name) ? name : undefined;
  };
}

/** An anyOf/oneOf, also inside single-member `allOf` wrappers. */
export function isUnion(def: unknown): boolean {
  const { node } = unwrapAllOf(def);
  return isObject(node) && (Array.isArray(node.anyOf) || Array.isArray(node.oneOf));
}
