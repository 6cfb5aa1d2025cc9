/**
 * Protocol features, detected from what the messages carry — never from definition names, so a
 * renamed definition (`RequestMetaObject`, `InputRequiredResult`, …) changes no feature.
 */
import { isObject, type LoadedSchema } from '../load/schema.js';
import type { JsonSchema } from '../load/schema-types.js';
import { paramsRefText, type MethodInfo, type ProtocolFeatures } from './types.js';
import { decodeFragmentToken } from '../load/pointer.js';

export function detectFeatures(schema: LoadedSchema, methods: MethodInfo[]): ProtocolFeatures {
  const s = new Structure(schema);
  const defs = Object.values(schema.definitions);
  const requestMeta = methods.flatMap((m) =>
    m.kind === 'request' && m.params !== null ? [s.prop(s.resolve(paramsRefText(m.params)), '_meta')] : [],
  );
  return {
    // A batch: an array whose items are JSON-RPC messages (objects carrying `jsonrpc`).
    batches: defs.some((d) =>
      s.members(d).some((m) => m.type === 'array' && m.items !== undefined && s.isJsonRpcArray(m)),
    ),
    initialize: methods.some((m) => m.method === 'initialize'),
    // Client info/capabilities in each request's `_meta`, under the protocol's reserved key prefix.
    perRequestMeta: requestMeta.some((meta) =>
      Object.keys(s.props(meta)).some((k) => k.startsWith('io.modelcontextprotocol/')),
    ),
    // A result that can ask for input: some object carries `inputRequests`.
    inputRequests: defs.some((d) => s.members(d).some((m) => s.hasProp(m, 'inputRequests'))),
    // A capabilities object (every version's has `experimental`) with an `extensions` map.
    capabilityExtensions: defs.some((d) => s.hasProp(d, 'experimental') && s.hasProp(d, 'extensions')),
  };
}

/** Just enough schema reading for feature detection: `$ref`s, properties, union members. */
class Structure {
  private readonly resolved = new Map<string, JsonSchema | undefined>();
  private readonly memberCache = new WeakMap<object, JsonSchema[]>();
  private readonly propCache = new WeakMap<object, Record<string, unknown>>();
  constructor(private readonly schema: LoadedSchema) {}

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

  isJsonRpcArray(node: JsonSchema): boolean {
    const items = this.members(node.items);
    return items.some((m) => this.hasProp(m, 'jsonrpc'));
  }
}
