/**
 * Structural comparison of two JSON Schema nodes, each read in its own set of definitions.
 *
 * `$ref`s are followed on each side independently, so a definition renamed, an inline schema moved
 * into a definition (or back), `definitions` vs `$defs`, a single-member union or an `allOf` split
 * compare equal. The comparison of two definitions reached through `$ref`s is memoized on the pair of
 * pointers and re-rooted at each use; a pair already being compared (a cycle) yields nothing more.
 */
import { escapePointerToken } from '../errors.js';
import type { JsonSchema, JsonValue } from '../load/schema-types.js';
import type { ChangeKind } from './rules.js';

export interface SchemaSide {
  definitions: Record<string, JsonSchema>;
  defsKeyword: 'definitions' | '$defs';
}

/** A schema node and where it is (`#/...` pointer, null for nodes the diff synthesizes). */
export interface Cursor {
  node: unknown;
  ptr: string | null;
}

/** A change found by the walk, relative to the node the walk started at. */
export interface RawChange {
  kind: ChangeKind | 'description-changed';
  /** Path suffix after the starting node (e.g. `.arguments`, `.content[]`, `<TextContent>.text`). */
  path: string;
  oldPtr: string | null;
  newPtr: string | null;
  message: string;
  details: { [key: string]: JsonValue };
}

const ANY: JsonSchema = {};

interface View {
  ptr: string | null;
  /** The definition name when this node was reached through a `$ref` to a whole definition. */
  ref: string | null;
  description: string | undefined;
  /** Union members (anyOf/oneOf with ≥ 2 members after flattening); null when not a union. */
  members: Cursor[] | null;
  /** JSON types accepted; null for any. */
  types: Set<string> | null;
  props: Map<string, Cursor>;
  required: Set<string>;
  /** additionalProperties: null absent/true (open), false, or a schema. */
  ap: Cursor | false | null;
  items: Cursor | null;
  enumVals: unknown[] | null;
}

function isObj(v: unknown): v is JsonSchema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function child(ptr: string | null, ...tokens: (string | number)[]): string | null {
  if (ptr === null) return null;
  return ptr + tokens.map((t) => '/' + escapePointerToken(String(t))).join('');
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Stable JSON text (sorted keys), used to compare enum values and shapes. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (isObj(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

export function propSegment(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

function typesCover(a: Set<string> | null, b: Set<string> | null): boolean {
  if (a === null) return true;
  if (b === null) return false;
  for (const t of b) if (!a.has(t) && !(t === 'integer' && a.has('number'))) return false;
  return true;
}

function typeList(t: Set<string> | null): string[] {
  return t === null ? ['any'] : [...t].sort();
}

class SideReader {
  private readonly views = new Map<string, View>();
  constructor(readonly side: SchemaSide) {}

  /** Resolve a `#/definitions/...` or `#/$defs/...` pointer in this side's definitions (either keyword). */
  resolveRef(ref: string): { node: unknown; ptr: string; name: string | null } | undefined {
    if (!ref.startsWith('#/')) return undefined;
    const tokens = ref
      .slice(2)
      .split('/')
      .map((raw) => decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~'));
    if (tokens.length < 2 || (tokens[0] !== 'definitions' && tokens[0] !== '$defs')) return undefined;
    const name = tokens[1]!;
    if (!Object.hasOwn(this.side.definitions, name)) return undefined;
    let node: unknown = this.side.definitions[name];
    for (const token of tokens.slice(2)) {
      if (Array.isArray(node)) node = node[Number(token)];
      else if (isObj(node) && Object.hasOwn(node, token)) node = node[token];
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
    for (let i = 0; i < 64 && isObj(node) && typeof node.$ref === 'string'; i++) {
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
    const cacheKey = ptr !== null && depth === 0 ? ptr : null;
    if (cacheKey !== null) {
      const hit = this.views.get(cacheKey);
      if (hit) return hit;
    }
    const v = this.buildView(node, ptr, ref, depth);
    if (cacheKey !== null) this.views.set(cacheKey, v);
    return v;
  }

  private buildView(node: unknown, ptr: string | null, ref: string | null, depth: number): View {
    const v: View = {
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
    };
    if (node === false) {
      v.types = new Set();
      return v;
    }
    if (!isObj(node)) return v;
    if (typeof node.description === 'string') v.description = node.description;
    // Unions: flatten nested unions; a single member is that member.
    const unionKey = Array.isArray(node.anyOf) ? 'anyOf' : Array.isArray(node.oneOf) ? 'oneOf' : null;
    if (unionKey && depth < 32) {
      const members = this.flattenUnion({ node, ptr }, depth);
      if (members.length === 1) {
        const inner = this.view(members[0]!, depth + 1);
        return { ...inner, description: v.description ?? inner.description, ref: inner.ref ?? ref };
      }
      v.members = members;
      return v;
    }
    // allOf: merge the members into one object view.
    const parts: { node: JsonSchema; ptr: string | null }[] = [{ node, ptr }];
    if (Array.isArray(node.allOf) && depth < 32) {
      node.allOf.forEach((m, i) => {
        const inner = this.deref({ node: m, ptr: child(ptr, 'allOf', i) });
        if (isObj(inner.node)) parts.push({ node: inner.node, ptr: inner.ptr });
      });
    }
    for (const part of parts) this.mergeInto(v, part.node, part.ptr);
    if (v.types === null) {
      if (v.enumVals !== null) v.types = new Set(v.enumVals.map(jsonType));
      else if (v.props.size > 0 || v.ap !== null || v.required.size > 0) v.types = new Set(['object']);
      else if (v.items !== null) v.types = new Set(['array']);
    }
    return v;
  }

  private mergeInto(v: View, node: JsonSchema, ptr: string | null): void {
    if (typeof node.type === 'string') v.types = intersect(v.types, new Set([node.type]));
    else if (Array.isArray(node.type))
      v.types = intersect(v.types, new Set(node.type.filter((t): t is string => typeof t === 'string')));
    if (isObj(node.properties)) {
      for (const [name, schema] of Object.entries(node.properties))
        v.props.set(name, { node: schema, ptr: child(ptr, 'properties', name) });
    }
    if (Array.isArray(node.required)) for (const r of node.required) if (typeof r === 'string') v.required.add(r);
    if (node.additionalProperties === false) v.ap = false;
    else if (isObj(node.additionalProperties) && v.ap === null)
      v.ap = { node: node.additionalProperties, ptr: child(ptr, 'additionalProperties') };
    if (node.items !== undefined && v.items === null) {
      if (isObj(node.items) || typeof node.items === 'boolean')
        v.items = { node: node.items, ptr: child(ptr, 'items') };
    }
    if (node.const !== undefined) v.enumVals = [node.const];
    else if (Array.isArray(node.enum) && v.enumVals === null) v.enumVals = [...node.enum];
  }

  flattenUnion(cur: Cursor, depth: number): Cursor[] {
    const { node, ptr } = this.deref(cur);
    if (!isObj(node) || depth > 32) return [cur];
    const key = Array.isArray(node.anyOf) ? 'anyOf' : Array.isArray(node.oneOf) ? 'oneOf' : null;
    if (!key) return [cur];
    const out: Cursor[] = [];
    (node[key] as unknown[]).forEach((m, i) =>
      out.push(...this.flattenUnion({ node: m, ptr: child(ptr, key, i) }, depth + 1)),
    );
    return out;
  }

  /** A name-free, description-free signature of a schema down to `depth` levels. */
  shape(cur: Cursor, depth: number): string {
    const v = this.view(cur);
    if (depth <= 0) return '*';
    if (v.members)
      return `U(${v.members
        .map((m) => this.shape(m, depth - 1))
        .sort()
        .join('|')})`;
    const parts: string[] = [`t:${typeList(v.types).join(',')}`];
    if (v.enumVals) parts.push(`e:${v.enumVals.map(stableJson).sort().join(',')}`);
    if (v.props.size > 0) {
      const names = [...v.props.keys()].sort();
      parts.push(
        `p:{${names.map((n) => `${n}${v.required.has(n) ? '!' : ''}:${this.shape(v.props.get(n)!, depth - 1)}`).join(',')}}`,
      );
    }
    if (v.ap === false) parts.push('ap:false');
    else if (v.ap) parts.push(`ap:${this.shape(v.ap, depth - 1)}`);
    if (v.items) parts.push(`i:${this.shape(v.items, depth - 1)}`);
    return parts.join(';');
  }

  /** Const-valued properties of an object member, e.g. `type=text`: how unions are discriminated. */
  discriminator(cur: Cursor): string | null {
    const v = this.view(cur);
    const found: string[] = [];
    for (const [name, prop] of [...v.props].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const pv = this.view(prop);
      if (pv.enumVals && pv.enumVals.length === 1 && v.required.has(name))
        found.push(`${name}=${String(pv.enumVals[0])}`);
    }
    return found.length > 0 ? found.join(',') : null;
  }
}

function intersect(a: Set<string> | null, b: Set<string>): Set<string> {
  if (a === null) return b;
  return new Set([...a].filter((t) => b.has(t) || (t === 'integer' && b.has('number'))));
}

export interface CompareOptions {
  includeDescriptions: boolean;
}

/** Compares schemas of one old and one new model; reuse one instance for a whole diff (it memoizes). */
export class SchemaComparer {
  private readonly old: SideReader;
  private readonly new: SideReader;
  private readonly cache = new Map<string, RawChange[]>();
  /** Definition pairs being compared, outermost first, with whether a cycle was cut below them. */
  private readonly stack: { key: string; cut: boolean }[] = [];

  constructor(
    oldSide: SchemaSide,
    newSide: SchemaSide,
    private readonly options: CompareOptions,
  ) {
    this.old = new SideReader(oldSide);
    this.new = new SideReader(newSide);
  }

  /** Resolve a `#/...` pointer or definition name on a side into a cursor. */
  cursor(which: 'old' | 'new', refOrName: string): Cursor {
    const reader = which === 'old' ? this.old : this.new;
    const ref = refOrName.startsWith('#') ? refOrName : `#/${reader.side.defsKeyword}/${escapePointerToken(refOrName)}`;
    const target = reader.resolveRef(ref);
    return target ? { node: { $ref: ref }, ptr: target.ptr } : { node: ANY, ptr: null };
  }

  /** The changes from `o` (old side) to `n` (new side), with paths relative to them. */
  compare(o: Cursor, n: Cursor): RawChange[] {
    const out: RawChange[] = [];
    this.walk(o, n, '', out, 0);
    return out;
  }

  private walk(o: Cursor, n: Cursor, path: string, out: RawChange[], depth: number): void {
    if (depth > 200) return;
    const rawO = o.node;
    const rawN = n.node;
    if (
      this.options.includeDescriptions &&
      ((isObj(rawO) && rawO.$ref !== undefined) || (isObj(rawN) && rawN.$ref !== undefined))
    ) {
      // A description next to a `$ref` belongs to the use site, not to the definition.
      const dO =
        isObj(rawO) && rawO.$ref !== undefined && typeof rawO.description === 'string' ? rawO.description : undefined;
      const dN =
        isObj(rawN) && rawN.$ref !== undefined && typeof rawN.description === 'string' ? rawN.description : undefined;
      if ((dO !== undefined || dN !== undefined) && dO !== dN) out.push(descriptionChange(path, o.ptr, n.ptr, dO, dN));
    }
    const vo = this.old.view(o);
    const vn = this.new.view(n);
    if (vo.ref !== null && vn.ref !== null && vo.ptr !== null && vn.ptr !== null) {
      const key = `${vo.ptr}\u0000${vn.ptr}`;
      let changes = this.cache.get(key);
      if (!changes) {
        const at = this.stack.findIndex((f) => f.key === key);
        if (at >= 0) {
          // A cycle: the pair is being compared further up. Frames between it and here miss what the
          // cut hides, so they must not be cached (they are complete only from where they were entered).
          for (let i = at + 1; i < this.stack.length; i++) this.stack[i]!.cut = true;
          return;
        }
        const frame = { key, cut: false };
        this.stack.push(frame);
        changes = [];
        this.compareViews(vo, vn, '', changes, depth);
        this.stack.pop();
        if (!frame.cut) this.cache.set(key, changes);
      }
      for (const c of changes) out.push(path === '' ? c : { ...c, path: path + c.path });
      return;
    }
    this.compareViews(vo, vn, path, out, depth);
  }

  private compareViews(vo: View, vn: View, path: string, out: RawChange[], depth: number): void {
    if (this.options.includeDescriptions && vo.description !== vn.description) {
      out.push(descriptionChange(path, vo.ptr, vn.ptr, vo.description, vn.description));
    }
    if (vo.members || vn.members) {
      // A union against an unconstrained schema ({}): only the accepted types can differ.
      if (isUnconstrained(vo) || isUnconstrained(vn)) {
        this.compareTypes(
          vo.members ? this.unionTypes(this.old, vo) : null,
          vn.members ? this.unionTypes(this.new, vn) : null,
          vo,
          vn,
          path,
          out,
        );
        return;
      }
      this.compareUnions(vo, vn, path, out, depth);
      return;
    }
    this.compareTypes(vo.types, vn.types, vo, vn, path, out);
    // Enum / const values.
    if (vo.enumVals && vn.enumVals) {
      const oldSet = new Map(vo.enumVals.map((x) => [stableJson(x), x]));
      const newSet = new Map(vn.enumVals.map((x) => [stableJson(x), x]));
      const added = [...newSet.keys()].filter((k) => !oldSet.has(k)).sort();
      const removed = [...oldSet.keys()].filter((k) => !newSet.has(k)).sort();
      if (added.length > 0) {
        out.push({
          kind: 'enum-value-added',
          path,
          oldPtr: vo.ptr,
          newPtr: vn.ptr,
          message: `value${added.length > 1 ? 's' : ''} ${added.join(', ')} added`,
          details: { values: added.map((k) => newSet.get(k) as JsonValue) },
        });
      }
      if (removed.length > 0) {
        out.push({
          kind: 'enum-value-removed',
          path,
          oldPtr: vo.ptr,
          newPtr: vn.ptr,
          message: `value${removed.length > 1 ? 's' : ''} ${removed.join(', ')} removed`,
          details: { values: removed.map((k) => oldSet.get(k) as JsonValue) },
        });
      }
    } else if (vo.enumVals && !vn.enumVals) {
      out.push({
        kind: 'enum-constraint-removed',
        path,
        oldPtr: vo.ptr,
        newPtr: vn.ptr,
        message: `no longer restricted to ${vo.enumVals.map(stableJson).join(', ')}`,
        details: { oldValues: vo.enumVals as JsonValue[] },
      });
    } else if (!vo.enumVals && vn.enumVals) {
      out.push({
        kind: 'enum-constraint-added',
        path,
        oldPtr: vo.ptr,
        newPtr: vn.ptr,
        message: `now restricted to ${vn.enumVals.map(stableJson).join(', ')}`,
        details: { newValues: vn.enumVals as JsonValue[] },
      });
    }
    const objO = vo.types === null ? vo.props.size > 0 || vo.ap !== null : vo.types.has('object');
    const objN = vn.types === null ? vn.props.size > 0 || vn.ap !== null : vn.types.has('object');
    if (objO && objN) this.compareObjects(vo, vn, path, out, depth);
    const arrO = vo.items !== null || (vo.types !== null && vo.types.has('array'));
    const arrN = vn.items !== null || (vn.types !== null && vn.types.has('array'));
    if (arrO && arrN && (vo.items !== null || vn.items !== null)) {
      this.walk(
        vo.items ?? { node: ANY, ptr: null },
        vn.items ?? { node: ANY, ptr: null },
        `${path}[]`,
        out,
        depth + 1,
      );
    }
  }

  private compareTypes(
    to: Set<string> | null,
    tn: Set<string> | null,
    vo: View,
    vn: View,
    path: string,
    out: RawChange[],
  ): void {
    const coversNew = typesCover(tn, to);
    const coversOld = typesCover(to, tn);
    if (coversNew && coversOld) return;
    const kind: ChangeKind = coversNew ? 'type-widened' : coversOld ? 'type-narrowed' : 'type-changed';
    const from = typeList(to);
    const into = typeList(tn);
    out.push({
      kind,
      path,
      oldPtr: vo.ptr,
      newPtr: vn.ptr,
      message: `type ${kind.slice(5)}: ${from.join('|')} → ${into.join('|')}`,
      details: { oldTypes: from, newTypes: into },
    });
  }

  /** The JSON types a union accepts (null: any); a type set covering every JSON type counts as any. */
  private unionTypes(reader: SideReader, v: View): Set<string> | null {
    const all = new Set<string>();
    for (const m of v.members ?? []) {
      const mv = reader.view(m);
      const t = mv.members ? this.unionTypes(reader, mv) : mv.types;
      if (t === null) return null;
      for (const x of t) all.add(x);
    }
    if (['object', 'array', 'string', 'number', 'boolean', 'null'].every((t) => all.has(t))) return null;
    return all;
  }

  private compareObjects(vo: View, vn: View, path: string, out: RawChange[], depth: number): void {
    const names = [...new Set([...vo.props.keys(), ...vn.props.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      const po = vo.props.get(name);
      const pn = vn.props.get(name);
      const p = path + propSegment(name);
      const reqO = vo.required.has(name);
      const reqN = vn.required.has(name);
      if (po && !pn) {
        out.push({
          kind: 'property-removed',
          path: p,
          oldPtr: po.ptr,
          newPtr: vn.ptr,
          message: `${reqO ? 'required ' : ''}property "${name}" removed`,
          details: { property: name, wasRequired: reqO },
        });
      } else if (!po && pn) {
        out.push(
          reqN
            ? {
                kind: 'required-added',
                path: p,
                oldPtr: vo.ptr,
                newPtr: pn.ptr,
                message: `required property "${name}" added`,
                details: { property: name, newProperty: true },
              }
            : {
                kind: 'property-added',
                path: p,
                oldPtr: vo.ptr,
                newPtr: pn.ptr,
                message: `optional property "${name}" added`,
                details: { property: name },
              },
        );
      } else if (po && pn) {
        if (!reqO && reqN) {
          out.push({
            kind: 'required-added',
            path: p,
            oldPtr: po.ptr,
            newPtr: pn.ptr,
            message: `property "${name}" is now required`,
            details: { property: name, newProperty: false },
          });
        } else if (reqO && !reqN) {
          out.push({
            kind: 'required-removed',
            path: p,
            oldPtr: po.ptr,
            newPtr: pn.ptr,
            message: `property "${name}" is no longer required`,
            details: { property: name },
          });
        }
        this.walk(po, pn, p, out, depth + 1);
      }
    }
    // additionalProperties: null = open, false = closed, else a schema for the values.
    const apO = vo.ap;
    const apN = vn.ap;
    const ptrO = child(vo.ptr, 'additionalProperties');
    const ptrN = child(vn.ptr, 'additionalProperties');
    if (apO === false && apN !== false) {
      out.push({
        kind: 'additional-properties-widened',
        path,
        oldPtr: ptrO,
        newPtr: apN ? apN.ptr : vn.ptr,
        message: 'additional properties are now allowed',
        details: { old: false, new: apN ? 'schema' : true },
      });
    } else if (apO !== false && apN === false) {
      out.push({
        kind: 'additional-properties-narrowed',
        path,
        oldPtr: apO ? apO.ptr : vo.ptr,
        newPtr: ptrN,
        message: 'additional properties are no longer allowed',
        details: { old: apO ? 'schema' : true, new: false },
      });
    } else if (apO !== false && apN !== false && (apO !== null || apN !== null)) {
      this.walk(apO ?? { node: ANY, ptr: null }, apN ?? { node: ANY, ptr: null }, `${path}{}`, out, depth + 1);
    }
  }

  private compareUnions(vo: View, vn: View, path: string, out: RawChange[], depth: number): void {
    // A side that is not a union is a union of itself.
    const oldMembers = vo.members ?? [this.selfCursor(vo)];
    const newMembers = vn.members ?? [this.selfCursor(vn)];
    const pairs = this.matchMembers(oldMembers, newMembers);
    const matchedOld = new Set(pairs.map(([i]) => i));
    const matchedNew = new Set(pairs.map(([, j]) => j));
    const labelsN = newMembers.map((m, j) => this.memberLabel(this.new, m, j));
    const labelsO = oldMembers.map((m, i) => this.memberLabel(this.old, m, i));
    oldMembers.forEach((m, i) => {
      if (!matchedOld.has(i)) {
        out.push({
          kind: 'union-member-removed',
          path,
          oldPtr: m.ptr,
          newPtr: vn.ptr,
          message: `union member ${labelsO[i]} removed`,
          details: { member: labelsO[i]! },
        });
      }
    });
    newMembers.forEach((m, j) => {
      if (!matchedNew.has(j)) {
        out.push({
          kind: 'union-member-added',
          path,
          oldPtr: vo.ptr,
          newPtr: m.ptr,
          message: `union member ${labelsN[j]} added`,
          details: { member: labelsN[j]! },
        });
      }
    });
    for (const [i, j] of pairs.sort((a, b) => a[1] - b[1])) {
      const label = newMembers.length > 1 ? `<${labelsN[j]}>` : '';
      this.walk(oldMembers[i]!, newMembers[j]!, path + label, out, depth + 1);
    }
  }

  private selfCursor(v: View): Cursor {
    // A view that is not a union stands for itself; rebuild a cursor that resolves to the same node.
    return v.ptr !== null ? { node: { $ref: v.ptr }, ptr: v.ptr } : { node: viewToSchema(v), ptr: null };
  }

  private memberLabel(reader: SideReader, m: Cursor, index: number): string {
    const v = reader.view(m);
    if (v.ref) return v.ref;
    const d = reader.discriminator(m);
    if (d) return d;
    if (v.types && v.types.size > 0 && !v.members) return typeList(v.types).join('|');
    return `#${index}`;
  }

  /**
   * Pair old and new union members structurally, in phases: same shape; same definition name; same
   * const discriminator (e.g. `type=text`); same JSON type (members without properties); then most
   * shared property names. Within a phase, several candidates are told apart by shared property names.
   */
  private matchMembers(oldM: Cursor[], newM: Cursor[]): [number, number][] {
    const pairs: [number, number][] = [];
    const freeO = new Set(oldM.map((_, i) => i));
    const freeN = new Set(newM.map((_, j) => j));
    const vO = oldM.map((m) => this.old.view(m));
    const vN = newM.map((m) => this.new.view(m));
    const similarity = (i: number, j: number): [overlap: number, jaccard: number] => {
      const a = vO[i]!.props;
      const b = vN[j]!.props;
      if (a.size === 0 || b.size === 0) return [0, 0];
      let inter = 0;
      for (const k of a.keys()) if (b.has(k)) inter++;
      return [inter / Math.min(a.size, b.size), inter / (a.size + b.size - inter)];
    };
    const better = (x: [number, number], y: [number, number]): boolean => x[1] > y[1] || (x[1] === y[1] && x[0] > y[0]);
    const phase = (keyO: (i: number) => string | null, keyN: (j: number) => string | null): void => {
      const byKey = new Map<string, number[]>();
      for (const j of freeN) {
        const k = keyN(j);
        if (k !== null) byKey.set(k, [...(byKey.get(k) ?? []), j]);
      }
      for (const i of [...freeO]) {
        const k = keyO(i);
        if (k === null) continue;
        let best: number | undefined;
        let bestScore: [number, number] = [-1, -1];
        for (const j of byKey.get(k) ?? []) {
          if (!freeN.has(j)) continue;
          const score = similarity(i, j);
          if (best === undefined || better(score, bestScore)) {
            best = j;
            bestScore = score;
          }
        }
        if (best !== undefined) {
          pairs.push([i, best]);
          freeO.delete(i);
          freeN.delete(best);
        }
      }
    };
    phase(
      (i) => this.old.shape(oldM[i]!, 4),
      (j) => this.new.shape(newM[j]!, 4),
    );
    phase(
      (i) => vO[i]!.ref,
      (j) => vN[j]!.ref,
    );
    phase(
      (i) => this.old.discriminator(oldM[i]!),
      (j) => this.new.discriminator(newM[j]!),
    );
    phase(
      (i) => (vO[i]!.props.size === 0 && !vO[i]!.members ? `t:${typeList(vO[i]!.types).join(',')}` : null),
      (j) => (vN[j]!.props.size === 0 && !vN[j]!.members ? `t:${typeList(vN[j]!.types).join(',')}` : null),
    );
    // Greedy by shared property names: overlap (shared / smaller set) ≥ 0.5, best Jaccard first.
    const scored: [number, number, number, number][] = [];
    for (const i of freeO) {
      for (const j of freeN) {
        const [overlap, jaccard] = similarity(i, j);
        if (overlap >= 0.5) scored.push([jaccard, overlap, i, j]);
      }
    }
    scored.sort((x, y) => y[0] - x[0] || y[1] - x[1] || x[2] - y[2] || x[3] - y[3]);
    for (const [, , i, j] of scored) {
      if (freeO.has(i) && freeN.has(j)) {
        pairs.push([i, j]);
        freeO.delete(i);
        freeN.delete(j);
      }
    }
    return pairs;
  }
}

function isUnconstrained(v: View): boolean {
  return (
    v.members === null &&
    v.types === null &&
    v.enumVals === null &&
    v.props.size === 0 &&
    v.ap === null &&
    v.items === null
  );
}

function viewToSchema(v: View): JsonSchema {
  const s: JsonSchema = {};
  if (v.types) s.type = [...v.types];
  if (v.props.size > 0) s.properties = Object.fromEntries([...v.props].map(([k, c]) => [k, c.node]));
  if (v.required.size > 0) s.required = [...v.required];
  if (v.ap === false) s.additionalProperties = false;
  else if (v.ap) s.additionalProperties = v.ap.node;
  if (v.items) s.items = v.items.node;
  if (v.enumVals) s.enum = v.enumVals;
  return s;
}

function descriptionChange(
  path: string,
  oldPtr: string | null,
  newPtr: string | null,
  from: string | undefined,
  to: string | undefined,
): RawChange {
  return {
    kind: 'description-changed',
    path,
    oldPtr,
    newPtr,
    message:
      from === undefined ? 'description added' : to === undefined ? 'description removed' : 'description changed',
    details: { old: from ?? null, new: to ?? null },
  };
}
