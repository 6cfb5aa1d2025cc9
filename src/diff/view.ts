/**
 * One side of a comparison: schema nodes read through `$ref`s into normalised views, so equivalent
 * spellings look the same before anything is compared:
 * - `$ref` chains, `definitions` vs `$defs`, a definition inlined or named (or renamed);
 * - nested unions flattened, a single-member `anyOf`/`oneOf`/`allOf` is its member;
 * - `allOf` merged into one object view;
 * - a union of consts/enums is an enum (`enum: [a, b]` ≡ `anyOf: [{const: a}, {const: b}]`);
 * - a union of members of disjoint JSON types is one view with a type list
 *   (`type: [string, null]` ≡ `anyOf: [{type: string}, {type: null}]`), since each member's keywords
 *   apply to its own type only.
 */
import { escapePointerToken } from '../load/pointer.js';
import { isObject, type JsonSchema } from '../load/schema-types.js';
import { KEYWORDS } from './keywords.js';
import { stableJson } from './stable-json.js';
import { decodeFragmentToken } from '../load/pointer.js';

export interface SchemaSide {
  definitions: Record<string, JsonSchema>;
  defsKeyword: 'definitions' | '$defs';
}

/** A schema node and where it is (`#/...` pointer, null for nodes the diff synthesizes). */
export interface Cursor {
  node: unknown;
  ptr: string | null;
}

export interface View {
  ptr: string | null;
  /** The definition name when this node was reached through a `$ref` to a whole definition. */
  ref: string | null;
  description: string | undefined;
  /** Union members (anyOf/oneOf with ≥ 2 members after normalisation); null when not a union. */
  members: Cursor[] | null;
  /** JSON types accepted; null for any. */
  types: Set<string> | null;
  props: Map<string, Cursor>;
  required: Set<string>;
  /** additionalProperties: null absent/true (open), false, or a schema. */
  ap: Cursor | false | null;
  items: Cursor | null;
  enumVals: unknown[] | null;
  /** Validation keywords (keywords.ts), with the pointer of the node that holds each. */
  checks: Map<string, { value: unknown; ptr: string | null }>;
}

export const ANY: JsonSchema = {};

export function child(ptr: string | null, ...tokens: (string | number)[]): string | null {
  if (ptr === null) return null;
  let out = ptr;
  for (const t of tokens) {
    const s = String(t);
    // Most tokens need no escaping; this runs for every property of every node.
    out += '/' + (s.includes('~') || s.includes('/') ? escapePointerToken(s) : s);
  }
  return out;
}

export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

export function typeList(t: Set<string> | null): string[] {
  return t === null ? ['any'] : [...t].sort();
}

function emptyView(ptr: string | null, ref: string | null): View {
  return {
    ptr,
    ref,
    description: undefined,
    members: null,
    types: null,
    props: new Map(),
    required: new Set(),
    ap: null,
    items: null,
    enumVals: null,
    checks: new Map(),
  };
}

type Resolved = { node: unknown; ptr: string; name: string | null } | undefined;

export class SideReader {
  private readonly views = new Map<string, View>();
  private readonly refs = new Map<string, Resolved>();
  /** Shapes by pointer and depth (match.ts). */
  readonly shapes = new Map<string, string>();
  /** What this side's input was normalised by before comparing: pointer → what was done there. */
  readonly notes = new Map<string, string>();
  constructor(readonly side: SchemaSide) {}

  /** Resolve a `#/definitions/...` or `#/$defs/...` pointer in this side's definitions (either keyword). */
  resolveRef(ref: string): Resolved {
    if (this.refs.has(ref)) return this.refs.get(ref);
    const resolved = this.resolveUncached(ref);
    this.refs.set(ref, resolved);
    return resolved;
  }

  private resolveUncached(ref: string): Resolved {
    if (!ref.startsWith('#/')) return undefined;
    const tokens = ref
      .slice(2)
      .split('/')
      .map((raw) => decodeFragmentToken(raw));
    const [keyword, name] = tokens;
    if (name === undefined || (keyword !== 'definitions' && keyword !== '$defs')) return undefined;
    if (!Object.hasOwn(this.side.definitions, name)) return undefined;
    let node: unknown = this.side.definitions[name];
    for (const token of tokens.slice(2)) {
      if (Array.isArray(node)) node = node[Number(token)];
      else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
      else return undefined;
    }
    const ptr = `#/${this.side.defsKeyword}/${tokens.slice(1).map(escapePointerToken).join('/')}`;
    return { node, ptr, name: tokens.length === 2 ? name : null };
  }

  /** Follow `$ref`s to the schema that says something. */
  deref(cur: Cursor): { node: unknown; ptr: string | null; ref: string | null } {
    let node = cur.node;
    let ptr = cur.ptr;
    let ref: string | null = null;
    for (let i = 0; i < 64 && isObject(node) && typeof node.$ref === 'string'; i++) {
      const target = this.resolveRef(node.$ref);
      if (!target) break;
      node = target.node;
      ptr = target.ptr;
      ref = target.name;
    }
    return { node, ptr, ref };
  }

  view(cur: Cursor, depth = 0): View {
    const { node, ptr, ref } = this.deref(cur);
    // The same node reached by a `$ref` to its definition or directly differs only in `ref`.
    const cacheKey = ptr !== null ? `${ptr}\u0000${ref ?? ''}` : null;
    if (cacheKey !== null) {
      const hit = this.views.get(cacheKey);
      if (hit) return hit;
    }
    const v = this.buildView(node, ptr, ref, depth);
    if (cacheKey !== null) this.views.set(cacheKey, v);
    return v;
  }

  private buildView(node: unknown, ptr: string | null, ref: string | null, depth: number): View {
    const v = emptyView(ptr, ref);
    if (node === false) {
      v.types = new Set();
      return v;
    }
    if (!isObject(node)) return v;
    if (typeof node.description === 'string') v.description = node.description;
    const unionKey = Array.isArray(node.anyOf) ? 'anyOf' : Array.isArray(node.oneOf) ? 'oneOf' : null;
    if (unionKey && depth < 32) {
      const members = this.distinctMembers(this.flattenUnion({ node, ptr }, depth));
      const [only] = members;
      if (members.length === 1 && only !== undefined) {
        const inner = this.view(only, depth + 1);
        return { ...inner, description: v.description ?? inner.description, ref: inner.ref ?? ref };
      }
      const views = members.map((m) => this.view(m, depth + 1));
      const merged = mergeEnumUnion(views, v) ?? mergeDisjointUnion(views, v);
      if (merged) return merged;
      v.members = members;
      return v;
    }
    mergeInto(v, node, ptr);
    if (Array.isArray(node.allOf) && depth < 32) {
      const parts = node.allOf.map((m, i) => this.view({ node: m, ptr: child(ptr, 'allOf', i) }, depth + 1));
      // A lone union under allOf is that union (`allOf: [X]` is X); unions among others are not merged.
      const union = parts.find((p) => p.members !== null);
      if (union && parts.length === 1 && isBare(node))
        return { ...union, description: v.description ?? union.description };
      for (const part of parts) if (part.members === null) mergeView(v, part);
    }
    if (v.types === null) {
      if (v.enumVals !== null) v.types = new Set(v.enumVals.map(jsonType));
      else if (v.props.size > 0 || v.ap !== null || v.required.size > 0) v.types = new Set(['object']);
      else if (v.items !== null) v.types = new Set(['array']);
    }
    return v;
  }

  /**
   * A union's members with repeats dropped: a member listed again (the same `$ref` target, or the same
   * inline schema) accepts nothing the first did not, so it is no member of its own. Each drop is a note.
   */
  private distinctMembers(members: Cursor[]): Cursor[] {
    if (members.length < 2) return members;
    const seen = new Map<string, Cursor>();
    const out: Cursor[] = [];
    for (const m of members) {
      const key = isObject(m.node) && typeof m.node.$ref === 'string' ? this.deref(m).ptr : null;
      const id = key !== null ? `ref:${key}` : `json:${stableJson(m.node)}`;
      const first = seen.get(id);
      if (first === undefined) {
        seen.set(id, m);
        out.push(m);
      } else if (m.ptr !== null) {
        this.notes.set(m.ptr, `a union member listed again (as ${first.ptr ?? 'an earlier member'}) is read once`);
      }
    }
    return out;
  }

  flattenUnion(cur: Cursor, depth: number): Cursor[] {
    const { node, ptr } = this.deref(cur);
    if (!isObject(node) || depth > 32) return [cur];
    const key = Array.isArray(node.anyOf) ? 'anyOf' : Array.isArray(node.oneOf) ? 'oneOf' : null;
    if (!key) return [cur];
    const out: Cursor[] = [];
    (node[key] as unknown[]).forEach((m, i) =>
      out.push(...this.flattenUnion({ node: m, ptr: child(ptr, key, i) }, depth + 1)),
    );
    return out;
  }
}

function intersect(a: Set<string> | null, b: Set<string>): Set<string> {
  if (a === null) return b;
  return new Set([...a].filter((t) => b.has(t) || (t === 'integer' && b.has('number'))));
}

function mergeInto(v: View, node: JsonSchema, ptr: string | null): void {
  if (typeof node.type === 'string') v.types = intersect(v.types, new Set([node.type]));
  else if (Array.isArray(node.type))
    v.types = intersect(v.types, new Set(node.type.filter((t): t is string => typeof t === 'string')));
  if (isObject(node.properties)) {
    for (const [name, schema] of Object.entries(node.properties))
      v.props.set(name, { node: schema, ptr: child(ptr, 'properties', name) });
  }
  if (Array.isArray(node.required)) for (const r of node.required) if (typeof r === 'string') v.required.add(r);
  if (node.additionalProperties === false) v.ap = false;
  else if (isObject(node.additionalProperties) && v.ap === null)
    v.ap = { node: node.additionalProperties, ptr: child(ptr, 'additionalProperties') };
  if (node.items !== undefined && v.items === null) {
    if (isObject(node.items) || typeof node.items === 'boolean')
      v.items = { node: node.items, ptr: child(ptr, 'items') };
  }
  if (node.const !== undefined) v.enumVals = [node.const];
  else if (Array.isArray(node.enum) && v.enumVals === null) v.enumVals = [...node.enum];
  for (const keyword in node) {
    if (!Object.hasOwn(KEYWORDS, keyword) || node[keyword] === undefined || v.checks.has(keyword)) continue;
    if (isNoOpKeyword(keyword, node[keyword], node)) continue;
    v.checks.set(keyword, { value: node[keyword], ptr: child(ptr, keyword) });
  }
}

/** Lower bounds that every instance meets anyway: written or not, they accept the same instances. */
const ZERO_IS_NO_BOUND = new Set(['minLength', 'minItems', 'minProperties']);

/**
 * A keyword that accepts every instance its node accepts without it, so adding or removing it is no
 * change: `minItems`/`minLength`/`minProperties` 0, `multipleOf: 1` on integers (every integer is one),
 * `maxItems` at or above the length a closed tuple already caps (`prefixItems` with `items: false`, or
 * draft-07 `items: [...]` with `additionalItems: false`).
 */
function isNoOpKeyword(keyword: string, value: unknown, node: JsonSchema): boolean {
  if (ZERO_IS_NO_BOUND.has(keyword)) return value === 0;
  if (keyword === 'multipleOf') return value === 1 && integersOnly(node.type);
  if (keyword === 'maxItems' && typeof value === 'number') {
    const cap = tupleCap(node);
    return cap !== null && value >= cap;
  }
  return false;
}

function integersOnly(type: unknown): boolean {
  return type === 'integer' || (Array.isArray(type) && type.length > 0 && type.every((t) => t === 'integer'));
}

/** The most items a closed tuple accepts, or null when the array is open. */
function tupleCap(node: JsonSchema): number | null {
  if (Array.isArray(node.prefixItems) && node.items === false) return node.prefixItems.length;
  if (Array.isArray(node.items) && node.additionalItems === false) return node.items.length;
  return null;
}

/** Only allOf (and annotations) at this node: `allOf: [X]` then stands for X. */
function isBare(node: JsonSchema): boolean {
  return Object.keys(node).every((k) => k === 'allOf' || k === 'description' || k === 'title' || k === '$comment');
}

/** Merge an allOf member's view into the view being built (the member's constraints add up). */
function mergeView(v: View, part: View): void {
  if (part.types !== null) v.types = intersect(v.types, part.types);
  for (const [k, c] of part.props) v.props.set(k, c);
  for (const r of part.required) v.required.add(r);
  if (part.ap === false) v.ap = false;
  else if (part.ap !== null && v.ap === null) v.ap = part.ap;
  if (part.items !== null && v.items === null) v.items = part.items;
  if (part.enumVals !== null && v.enumVals === null) v.enumVals = part.enumVals;
  for (const [k, c] of part.checks) if (!v.checks.has(k)) v.checks.set(k, c);
  if (v.description === undefined) v.description = part.description;
}

/** Nothing but values (const/enum, maybe a type): a member of an enum spelled as a union. */
function isValuesOnly(v: View): boolean {
  return (
    v.members === null &&
    v.enumVals !== null &&
    v.props.size === 0 &&
    v.ap === null &&
    v.items === null &&
    v.checks.size === 0
  );
}

function mergeEnumUnion(views: View[], base: View): View | null {
  if (!views.every(isValuesOnly)) return null;
  const seen = new Set<string>();
  const values: unknown[] = [];
  for (const m of views) {
    for (const x of m.enumVals ?? []) {
      const key = JSON.stringify(x);
      if (!seen.has(key)) values.push(x);
      seen.add(key);
    }
  }
  return { ...base, enumVals: values, types: new Set(values.map(jsonType)) };
}

function overlaps(a: Set<string>, b: Set<string>): boolean {
  for (const t of a) {
    if (b.has(t)) return true;
    if ((t === 'integer' && b.has('number')) || (t === 'number' && b.has('integer'))) return true;
  }
  return false;
}

/** Members of pairwise disjoint JSON types merge into one view: each keyword applies to its own type. */
function mergeDisjointUnion(views: View[], base: View): View | null {
  const typeSets = views.map((m) => (m.members === null ? m.types : null));
  if (typeSets.some((t) => t === null || t.size === 0)) return null;
  const sets = typeSets.filter((t): t is Set<string> => t !== null);
  for (const [i, a] of sets.entries()) for (const b of sets.slice(i + 1)) if (overlaps(a, b)) return null;
  const withEnum = views.filter((m) => m.enumVals !== null).length;
  if (withEnum !== 0 && withEnum !== views.length) return null;
  const types = new Set<string>();
  const v: View = { ...base, types, checks: new Map() };
  for (const m of views) {
    for (const t of m.types ?? []) types.add(t);
    for (const [k, c] of m.props) v.props.set(k, c);
    for (const r of m.required) v.required.add(r);
    if (m.ap !== null) v.ap = m.ap;
    if (m.items !== null) v.items = m.items;
    if (m.enumVals !== null) v.enumVals = [...(v.enumVals ?? []), ...m.enumVals];
    for (const [k, c] of m.checks) v.checks.set(k, c);
  }
  return v;
}
