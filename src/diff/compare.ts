/**
 * Structural comparison of two JSON Schema nodes, each read in its own set of definitions through a
 * normalising view (view.ts). The comparison of two definitions reached through `$ref`s is memoized on
 * the pair of pointers and re-rooted at each use; a pair already being compared (a cycle) yields
 * nothing more.
 */
import type { JsonValue } from '../load/schema-types.js';
import { compareKeywords } from './keywords.js';
import { matchMembers, memberLabel, shape } from './match.js';
import type { ChangeKind } from './rules.js';
import type { DiffNote } from './types.js';
import { stableJson } from './stable-json.js';
import { isObject } from '../load/schema-types.js';
import { ANY, child, SideReader, typeList, type Cursor, type SchemaSide, type View } from './view.js';
import { definitionPointer } from '../load/pointer.js';

export type { Cursor, SchemaSide } from './view.js';
export { stableJson } from './stable-json.js';

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

export function propSegment(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

function typesCover(a: Set<string> | null, b: Set<string> | null): boolean {
  if (a === null) return true;
  if (b === null) return false;
  for (const t of b) if (!a.has(t) && !(t === 'integer' && a.has('number'))) return false;
  return true;
}

export interface CompareOptions {
  includeDescriptions: boolean;
}

/** Keywords whose value is a schema: compared by shape, so a renamed `$ref` inside is no change. */
const SCHEMA_VALUED = new Set(['not', 'propertyNames']);

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

  /** The normalisations applied to either side so far (duplicate union members read once, …). */
  notes(): DiffNote[] {
    const of = (side: 'old' | 'new', reader: SideReader): DiffNote[] =>
      [...reader.notes].map(([pointer, message]) => ({ side, pointer, message }));
    const byPointer = (a: DiffNote, b: DiffNote) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0);
    return [...of('old', this.old).sort(byPointer), ...of('new', this.new).sort(byPointer)];
  }

  /** Resolve a `#/...` pointer or definition name on a side into a cursor. */
  cursor(which: 'old' | 'new', refOrName: string): Cursor {
    const reader = which === 'old' ? this.old : this.new;
    const ref = refOrName.startsWith('#') ? refOrName : `#${definitionPointer(reader.side.defsKeyword, refOrName)}`;
    const target = reader.resolveRef(ref);
    return target ? { node: { $ref: ref }, ptr: target.ptr } : { node: ANY, ptr: null };
  }

  /** Whether the object a cursor resolves to requires the property `name` (through refs and allOf). */
  requires(which: 'old' | 'new', cur: Cursor, name: string): boolean {
    const v = (which === 'old' ? this.old : this.new).view(cur);
    return v.props.has(name) && v.required.has(name);
  }

  /**
   * Whether a union definition is closed: none of its members takes any object (an object schema that
   * requires nothing and leaves other properties open, as the generic `Result`). Removing a member from
   * a closed union rejects that variant; from an open one, the open member still takes it.
   */
  isClosedUnion(which: 'old' | 'new', name: string): boolean {
    const reader = which === 'old' ? this.old : this.new;
    const v = reader.view(this.cursor(which, name));
    return (v.members ?? []).every((m) => !takesAnyObject(reader.view(m)));
  }

  /** The changes from `o` (old side) to `n` (new side), with paths relative to them. */
  compare(o: Cursor, n: Cursor): RawChange[] {
    const out: RawChange[] = [];
    this.walk(o, n, '', out, 0);
    return out;
  }

  private walk(o: Cursor, n: Cursor, path: string, out: RawChange[], depth: number): void {
    if (depth > 200) return;
    if (this.options.includeDescriptions) this.useSiteDescription(o, n, path, out);
    const vo = this.old.view(o);
    const vn = this.new.view(n);
    if (vo.ref === null || vn.ref === null || vo.ptr === null || vn.ptr === null) {
      this.compareViews(vo, vn, path, out, depth);
      return;
    }
    const key = `${vo.ptr}\u0000${vn.ptr}`;
    let changes = this.cache.get(key);
    if (!changes) {
      const at = this.stack.findIndex((f) => f.key === key);
      if (at >= 0) {
        // A cycle: the pair is being compared further up. Frames between it and here miss what the
        // cut hides, so they must not be cached (they are complete only from where they were entered).
        for (const frame of this.stack.slice(at + 1)) frame.cut = true;
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
  }

  /** A description next to a `$ref` belongs to the use site, not to the definition. */
  private useSiteDescription(o: Cursor, n: Cursor, path: string, out: RawChange[]): void {
    const at = (node: unknown) =>
      isObject(node) && node.$ref !== undefined && typeof node.description === 'string' ? node.description : undefined;
    const hasRef = (node: unknown) => isObject(node) && node.$ref !== undefined;
    if (!hasRef(o.node) && !hasRef(n.node)) return;
    const dO = at(o.node);
    const dN = at(n.node);
    if ((dO !== undefined || dN !== undefined) && dO !== dN) out.push(descriptionChange(path, o.ptr, n.ptr, dO, dN));
  }

  private compareViews(vo: View, vn: View, path: string, out: RawChange[], depth: number): void {
    if (this.options.includeDescriptions && vo.description !== vn.description) {
      out.push(descriptionChange(path, vo.ptr, vn.ptr, vo.description, vn.description));
    }
    if (vo.members || vn.members) {
      // A union against an unconstrained schema ({}): only the accepted types can differ.
      if (isUnconstrained(vo) || isUnconstrained(vn)) {
        const to = vo.members ? unionTypes(this.old, vo) : null;
        const tn = vn.members ? unionTypes(this.new, vn) : null;
        compareTypes(to, tn, vo, vn, path, out);
        return;
      }
      this.compareUnions(vo, vn, path, out, depth);
      return;
    }
    compareTypes(vo.types, vn.types, vo, vn, path, out);
    compareEnums(vo, vn, path, out);
    this.compareChecks(vo, vn, path, out);
    const objO = vo.types === null ? vo.props.size > 0 || vo.ap !== null : vo.types.has('object');
    const objN = vn.types === null ? vn.props.size > 0 || vn.ap !== null : vn.types.has('object');
    if (objO && objN) this.compareObjects(vo, vn, path, out, depth);
    const arrO = vo.items !== null || (vo.types !== null && vo.types.has('array'));
    const arrN = vn.items !== null || (vn.types !== null && vn.types.has('array'));
    if (arrO && arrN && (vo.items !== null || vn.items !== null)) {
      const anyO = vo.items ?? { node: ANY, ptr: null };
      this.walk(anyO, vn.items ?? { node: ANY, ptr: null }, `${path}[]`, out, depth + 1);
    }
  }

  private compareChecks(vo: View, vn: View, path: string, out: RawChange[]): void {
    if (vo.checks.size === 0 && vn.checks.size === 0) return;
    const values = (reader: SideReader, v: View): Record<string, unknown> => {
      const r: Record<string, unknown> = {};
      for (const [k, c] of v.checks) {
        if (SCHEMA_VALUED.has(k)) r[k] = shape(reader, { node: c.value, ptr: c.ptr }, 6);
        else if (k === 'patternProperties' && isObject(c.value)) {
          const entries = Object.entries(c.value).map(([p, s]) => [p, shape(reader, { node: s, ptr: null }, 6)]);
          r[k] = Object.fromEntries(entries);
        } else r[k] = c.value;
      }
      return r;
    };
    for (const c of compareKeywords(values(this.old, vo), values(this.new, vn))) {
      const rawOld = vo.checks.get(c.keyword);
      const rawNew = vn.checks.get(c.keyword);
      const show = (x: unknown) => (x === undefined ? 'none' : typeof x === 'object' ? 'a schema' : stableJson(x));
      out.push({
        kind: `${c.group}-${c.tightness}`,
        path,
        oldPtr: rawOld?.ptr ?? vo.ptr,
        newPtr: rawNew?.ptr ?? vn.ptr,
        message: `${c.keyword} ${c.tightness}: ${show(rawOld?.value)} → ${show(rawNew?.value)}`,
        details: {
          keyword: c.keyword,
          old: (rawOld?.value ?? null) as JsonValue,
          new: (rawNew?.value ?? null) as JsonValue,
        },
      });
    }
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
          kind: reqO ? 'required-property-removed' : 'property-removed',
          path: p,
          oldPtr: po.ptr,
          newPtr: vn.ptr,
          message: `${reqO ? 'required' : 'optional'} property "${name}" removed`,
          details: { property: name },
        });
      } else if (!po && pn) {
        const kind = reqN ? 'required-added' : 'property-added';
        const message = `${reqN ? 'required' : 'optional'} property "${name}" added`;
        const details: { [key: string]: JsonValue } = reqN ? { property: name, newProperty: true } : { property: name };
        out.push({ kind, path: p, oldPtr: vo.ptr, newPtr: pn.ptr, message, details });
      } else if (po && pn) {
        if (reqO !== reqN) {
          out.push({
            kind: reqN ? 'required-added' : 'required-removed',
            path: p,
            oldPtr: po.ptr,
            newPtr: pn.ptr,
            message: `property "${name}" is ${reqN ? 'now' : 'no longer'} required`,
            details: reqN ? { property: name, newProperty: false } : { property: name },
          });
        }
        this.walk(po, pn, p, out, depth + 1);
      }
    }
    this.compareAdditional(vo, vn, path, out, depth);
  }

  /** additionalProperties: null = open, false = closed, else a schema for the values. */
  private compareAdditional(vo: View, vn: View, path: string, out: RawChange[], depth: number): void {
    const apO = vo.ap;
    const apN = vn.ap;
    if (apO === false && apN !== false) {
      out.push({
        kind: 'additional-properties-widened',
        path,
        oldPtr: child(vo.ptr, 'additionalProperties'),
        newPtr: apN ? apN.ptr : vn.ptr,
        message: 'additional properties are now allowed',
        details: { old: false, new: apN ? 'schema' : true },
      });
    } else if (apO !== false && apN === false) {
      out.push({
        kind: 'additional-properties-narrowed',
        path,
        oldPtr: apO ? apO.ptr : vo.ptr,
        newPtr: child(vn.ptr, 'additionalProperties'),
        message: 'additional properties are no longer allowed',
        details: { old: apO ? 'schema' : true, new: false },
      });
    } else if (apO !== false && apN !== false && (apO !== null || apN !== null)) {
      this.walk(apO ?? { node: ANY, ptr: null }, apN ?? { node: ANY, ptr: null }, `${path}{}`, out, depth + 1);
    }
  }

  private compareUnions(vo: View, vn: View, path: string, out: RawChange[], depth: number): void {
    // A side that is not a union is a union of itself.
    const oldMembers = vo.members ?? [selfCursor(vo)];
    const newMembers = vn.members ?? [selfCursor(vn)];
    const pairs = matchMembers(this.old, this.new, oldMembers, newMembers);
    const matchedOld = new Set(pairs.map(([i]) => i));
    const matchedNew = new Set(pairs.map(([, j]) => j));
    const labelsN = newMembers.map((m, j) => memberLabel(this.new, m, j));
    const labelsO = oldMembers.map((m, i) => memberLabel(this.old, m, i));
    oldMembers.forEach((m, i) => {
      if (matchedOld.has(i)) return;
      const message = `union member ${labelsO[i]} removed`;
      const details = { member: labelsO[i] ?? `#${i}` };
      out.push({ kind: 'union-member-removed', path, oldPtr: m.ptr, newPtr: vn.ptr, message, details });
    });
    // The JSON types the old side accepted: a member of another type widens the type, however spelt.
    const oldTypes = unionTypes(this.old, { ...vo, members: oldMembers });
    newMembers.forEach((m, j) => {
      if (matchedNew.has(j)) return;
      const label = labelsN[j] ?? `#${j}`;
      const mv = this.new.view(m);
      const memberTypes = mv.members ? unionTypes(this.new, mv) : mv.types;
      if (!typesCover(oldTypes, memberTypes)) {
        const from = typeList(oldTypes);
        const into = typeList(
          oldTypes === null || memberTypes === null ? null : new Set([...oldTypes, ...memberTypes]),
        );
        const message = `type widened: ${from.join('|')} → ${into.join('|')} (union member ${label} added)`;
        const details = { member: label, oldTypes: from, newTypes: into };
        out.push({ kind: 'type-widened', path, oldPtr: vo.ptr, newPtr: m.ptr, message, details });
        return;
      }
      const message = `union member ${label} added`;
      out.push({
        kind: 'union-member-added',
        path,
        oldPtr: vo.ptr,
        newPtr: m.ptr,
        message,
        details: { member: label },
      });
    });
    for (const [i, j] of pairs.sort((a, b) => a[1] - b[1])) {
      const label = newMembers.length > 1 ? `<${labelsN[j]}>` : '';
      const [oldMember, newMember] = [oldMembers[i], newMembers[j]];
      if (oldMember && newMember) this.walk(oldMember, newMember, path + label, out, depth + 1);
    }
  }
}

function compareTypes(
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

function compareEnums(vo: View, vn: View, path: string, out: RawChange[]): void {
  const at = { path, oldPtr: vo.ptr, newPtr: vn.ptr };
  if (vo.enumVals?.length === 1 && vn.enumVals?.length === 1) {
    // A fixed value (a discriminator such as `type: "resource_link"`) replaced: one change, not a value
    // added and one removed — a reader has no branch for the new value.
    const [was] = vo.enumVals;
    const [is] = vn.enumVals;
    if (stableJson(was) === stableJson(is)) return;
    const message = `fixed value ${stableJson(was)} is now ${stableJson(is)}`;
    out.push({ kind: 'const-changed', ...at, message, details: { old: was as JsonValue, new: is as JsonValue } });
  } else if (vo.enumVals && vn.enumVals) {
    const oldSet = new Map(vo.enumVals.map((x) => [stableJson(x), x]));
    const newSet = new Map(vn.enumVals.map((x) => [stableJson(x), x]));
    const added = [...newSet.keys()].filter((k) => !oldSet.has(k)).sort();
    const removed = [...oldSet.keys()].filter((k) => !newSet.has(k)).sort();
    const s = (list: string[]) => (list.length > 1 ? 's' : '');
    if (added.length > 0) {
      const values = added.map((k) => newSet.get(k) as JsonValue);
      out.push({
        kind: 'enum-value-added',
        ...at,
        message: `value${s(added)} ${added.join(', ')} added`,
        details: { values },
      });
    }
    if (removed.length > 0) {
      const values = removed.map((k) => oldSet.get(k) as JsonValue);
      const message = `value${s(removed)} ${removed.join(', ')} removed`;
      out.push({ kind: 'enum-value-removed', ...at, message, details: { values } });
    }
  } else if (vo.enumVals && !vn.enumVals) {
    const message = `no longer restricted to ${vo.enumVals.map(stableJson).join(', ')}`;
    out.push({ kind: 'enum-constraint-removed', ...at, message, details: { oldValues: vo.enumVals as JsonValue[] } });
  } else if (!vo.enumVals && vn.enumVals) {
    const message = `now restricted to ${vn.enumVals.map(stableJson).join(', ')}`;
    out.push({ kind: 'enum-constraint-added', ...at, message, details: { newValues: vn.enumVals as JsonValue[] } });
  }
}

/** The JSON types a union accepts (null: any); a type set covering every JSON type counts as any. */
function unionTypes(reader: SideReader, v: View): Set<string> | null {
  const all = new Set<string>();
  for (const m of v.members ?? []) {
    const mv = reader.view(m);
    const t = mv.members ? unionTypes(reader, mv) : mv.types;
    if (t === null) return null;
    for (const x of t) all.add(x);
  }
  if (['object', 'array', 'string', 'number', 'boolean', 'null'].every((t) => all.has(t))) return null;
  return all;
}

function takesAnyObject(v: View): boolean {
  const objects = v.types === null || v.types.has('object');
  return objects && v.members === null && v.enumVals === null && v.required.size === 0 && v.ap !== false;
}

function isUnconstrained(v: View): boolean {
  return (
    v.members === null &&
    v.types === null &&
    v.enumVals === null &&
    v.props.size === 0 &&
    v.ap === null &&
    v.items === null &&
    v.checks.size === 0
  );
}

function selfCursor(v: View): Cursor {
  // A view that is not a union stands for itself; rebuild a cursor that resolves to the same node.
  return v.ptr !== null ? { node: { $ref: v.ptr }, ptr: v.ptr } : { node: viewToSchema(v), ptr: null };
}

function viewToSchema(v: View): Record<string, unknown> {
  const s: Record<string, unknown> = {};
  if (v.types) s.type = [...v.types];
  if (v.props.size > 0) s.properties = Object.fromEntries([...v.props].map(([k, c]) => [k, c.node]));
  if (v.required.size > 0) s.required = [...v.required];
  if (v.ap === false) s.additionalProperties = false;
  else if (v.ap) s.additionalProperties = v.ap.node;
  if (v.items) s.items = v.items.node;
  if (v.enumVals) s.enum = v.enumVals;
  for (const [k, c] of v.checks) s[k] = c.value;
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
