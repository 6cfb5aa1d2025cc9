/**
 * Protocol features, detected from what the messages carry — never from definition names, so a
 * renamed definition (`RequestMetaObject`, `InputRequiredResult`, …) changes no feature.
 */
import { isObject, type LoadedSchema } from '../load/schema.js';
import type { JsonSchema } from '../load/schema-types.js';
import { paramsRefText, type MethodInfo, type ProtocolFeatures } from './types.js';
import { decodeFragmentToken } from '../load/pointer.js';
import { methodConst } from './unions.js';
import { compareStrings } from '../load/order.js';

/** Each feature's definition: where the feature is carried (what a diff fact about it points at). */
export type FeatureDefinitions = Partial<Record<keyof ProtocolFeatures, string>>;

/**
 * The features and, for each one present, the definition that carries it. A feature counts only where
 * the protocol uses it: per-request `_meta` when the client's requests carry its capabilities there, input
 * requests when a request's result holds requests to answer — a property name alone is no feature.
 */
export function locateFeatures(
  schema: LoadedSchema,
  methods: MethodInfo[],
): { features: ProtocolFeatures; definitions: FeatureDefinitions } {
  const s = new Structure(schema);
  // In name order: the carrier found must not depend on the order the file lists definitions in.
  const entries = Object.entries(schema.definitions).sort(([a], [b]) => compareStrings(a, b));
  const find = (test: (def: JsonSchema) => boolean) => entries.find(([, d]) => test(d))?.[0];
  const definitions: FeatureDefinitions = {};
  const note = (key: keyof ProtocolFeatures, name: string | undefined): boolean => {
    if (name !== undefined) definitions[key] = name;
    return name !== undefined;
  };
  // A batch: an array whose items are JSON-RPC messages (objects carrying `jsonrpc`).
  // The array itself carries it, before a union that lists the array among its members (JSONRPCMessage).
  const batchArray = (m: JsonSchema) => m.type === 'array' && m.items !== undefined && s.isJsonRpcArray(m);
  const batches = note(
    'batches',
    find((d) => batchArray(s.deref(d) ?? d)) ?? find((d) => s.members(d).some(batchArray)),
  );
  const handshake = methods.find((m) => m.method === 'initialize');
  const initialize = note('initialize', handshake?.definition);
  const perRequestMeta = note('perRequestMeta', s.clientCapabilitiesMeta(methods));
  const inputRequests = note('inputRequests', s.resultAskingForInput(methods));
  // A capabilities object (every version's has `experimental`) with an `extensions` map.
  const capabilityExtensions = note(
    'capabilityExtensions',
    find((d) => s.hasProp(d, 'experimental') && s.hasProp(d, 'extensions')),
  );
  return {
    features: { batches, initialize, perRequestMeta, inputRequests, capabilityExtensions },
    definitions,
  };
}

/** Just enough schema reading for feature detection: `$ref`s, properties, union members. */
class Structure {
  private readonly resolved = new Map<string, JsonSchema | undefined>();
  private readonly memberCache = new WeakMap<object, JsonSchema[]>();
  private readonly propCache = new WeakMap<object, Record<string, unknown>>();
  constructor(readonly schema: LoadedSchema) {}

  /** A definition name or `#/...` pointer (as MethodInfo.params holds) → the schema there. */
  resolve(refOrName: string): JsonSchema | undefined {
    if (!this.resolved.has(refOrName)) this.resolved.set(refOrName, this.resolveUncached(refOrName));
    return this.resolved.get(refOrName);
  }

  private resolveUncached(refOrName: string): JsonSchema | undefined {
    if (!refOrName.startsWith('#/')) return this.schema.definitions[refOrName];
    let node: unknown = { [this.schema.defsKeyword]: this.schema.definitions };
    for (const raw of refOrName.slice(2).split('/')) {
      const token = decodeFragmentToken(raw);
      node = Array.isArray(node)
        ? node[Number(token)]
        : isObject(node) && Object.hasOwn(node, token)
          ? node[token]
          : undefined;
    }
    return isObject(node) ? node : undefined;
  }

  deref(node: unknown, depth = 0): JsonSchema | undefined {
    if (!isObject(node)) return undefined;
    if (typeof node.$ref === 'string' && depth < 32) return this.deref(this.resolve(node.$ref), depth + 1);
    return node;
  }

  /** The node and, for a union or allOf, its members (flattened). */
  members(node: unknown, depth = 0): JsonSchema[] {
    const n = this.deref(node);
    if (!n || depth > 32) return [];
    const hit = this.memberCache.get(n);
    if (hit) return hit;
    const parts = [n.anyOf, n.oneOf, n.allOf].flatMap((a) => (Array.isArray(a) ? a : []));
    const out = [n, ...parts.flatMap((p) => this.members(p, depth + 1))];
    this.memberCache.set(n, out);
    return out;
  }

  props(node: unknown): Record<string, unknown> {
    const n = this.deref(node);
    if (!n) return {};
    const hit = this.propCache.get(n);
    if (hit) return hit;
    const out: Record<string, unknown> = {};
    for (const m of this.members(n)) if (isObject(m.properties)) Object.assign(out, m.properties);
    this.propCache.set(n, out);
    return out;
  }

  /** Whether the node (or a member) declares the property; builds nothing, unlike props(). */
  hasProp(node: unknown, name: string): boolean {
    return this.members(node).some((m) => isObject(m.properties) && Object.hasOwn(m.properties, name));
  }

  prop(node: unknown, name: string): unknown {
    return this.props(node)[name];
  }

  /**
   * Client info and capabilities in each request's `_meta`: most requests the client sends carry a
   * `_meta` declaring a capabilities object (every version's has `experimental`). Returns the
   * definition of that `_meta` (or of the first such request), else undefined.
   */
  clientCapabilitiesMeta(methods: MethodInfo[]): string | undefined {
    const sent = methods.filter((m) => m.kind === 'request' && m.directions.includes('client->server'));
    let carrying = 0;
    let where: string | undefined;
    for (const m of sent) {
      if (m.params === null) continue;
      const meta = this.prop(this.resolve(paramsRefText(m.params)), '_meta');
      const declares = Object.values(this.props(meta)).some((p) => this.hasProp(p, 'experimental'));
      if (!declares) continue;
      carrying++;
      where ??= (isObject(meta) ? this.refName(meta.$ref) : undefined) ?? m.definition;
    }
    return carrying * 2 > sent.length ? where : undefined;
  }

  /**
   * A result that asks for input: some request's result has a property whose values are requests
   * (messages with a method), embedded for the caller to answer. Returns that result's definition.
   */
  resultAskingForInput(methods: MethodInfo[]): string | undefined {
    const results = new Set(methods.flatMap((m) => (m.kind === 'request' && !m.resultUnknown ? (m.result ?? []) : [])));
    for (const name of [...results].sort()) {
      const carries = Object.values(this.props(this.schema.definitions[name])).some((p) => this.holdsRequests(p));
      if (carries) return name;
    }
    return undefined;
  }

  /** A value schema (directly, as map values or array items) whose members are messages with a method. */
  private holdsRequests(node: unknown): boolean {
    const isMessage = (v: unknown) => this.members(v).some((m) => methodConst(m) !== undefined);
    return this.members(node).some(
      (m) => methodConst(m) !== undefined || [m.additionalProperties, m.items].some((v) => isObject(v) && isMessage(v)),
    );
  }

  /** `#/<defs>/X` → X. */
  private refName(ref: unknown): string | undefined {
    const prefix = `#/${this.schema.defsKeyword}/`;
    if (typeof ref !== 'string' || !ref.startsWith(prefix) || ref.slice(prefix.length).includes('/')) return undefined;
    return decodeFragmentToken(ref.slice(prefix.length));
  }

  isJsonRpcArray(node: JsonSchema): boolean {
    const items = this.members(node.items);
    return items.some((m) => this.hasProp(m, 'jsonrpc'));
  }
}
