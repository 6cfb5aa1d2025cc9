/**
 * Pairing the members of two unions structurally (never by position), and naming them in messages.
 */
import { stableJson } from './stable-json.js';
import { typeList, type Cursor, type SideReader, type View } from './view.js';
import { itemAt } from '../load/order.js';

/** A name-free, description-free signature of a schema down to `depth` levels. */
export function shape(reader: SideReader, cur: Cursor, depth: number): string {
  if (depth <= 0) return '*';
  const v = reader.view(cur);
  const key = v.ptr !== null ? `${v.ptr}\u0000${depth}` : null;
  const hit = key !== null ? reader.shapes.get(key) : undefined;
  if (hit !== undefined) return hit;
  const s = computeShape(reader, v, depth);
  if (key !== null) reader.shapes.set(key, s);
  return s;
}

function computeShape(reader: SideReader, v: View, depth: number): string {
  if (v.members)
    return `U(${v.members
      .map((m) => shape(reader, m, depth - 1))
      .sort()
      .join('|')})`;
  const parts: string[] = [`t:${typeList(v.types).join(',')}`];
  if (v.enumVals) parts.push(`e:${v.enumVals.map(stableJson).sort().join(',')}`);
  if (v.props.size > 0) {
    const props = [...v.props].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const prop = ([n, cur]: (typeof props)[number]) =>
      `${n}${v.required.has(n) ? '!' : ''}:${shape(reader, cur, depth - 1)}`;
    parts.push(`p:{${props.map(prop).join(',')}}`);
  }
  if (v.ap === false) parts.push('ap:false');
  else if (v.ap) parts.push(`ap:${shape(reader, v.ap, depth - 1)}`);
  if (v.items) parts.push(`i:${shape(reader, v.items, depth - 1)}`);
  const checks = [...v.checks].filter(([, c]) => typeof c.value !== 'object' || c.value === null);
  if (checks.length) parts.push(`c:${stableJson(Object.fromEntries(checks.map(([k, c]) => [k, c.value])))}`);
  return parts.join(';');
}

/** Const-valued required properties of an object member, e.g. `type=text`: how unions are discriminated. */
export function discriminator(reader: SideReader, cur: Cursor): string | null {
  const v = reader.view(cur);
  const found: string[] = [];
  for (const [name, prop] of [...v.props].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const pv = reader.view(prop);
    if (pv.enumVals && pv.enumVals.length === 1 && v.required.has(name))
      found.push(`${name}=${String(pv.enumVals[0])}`);
  }
  return found.length > 0 ? found.join(',') : null;
}

export function memberLabel(reader: SideReader, m: Cursor, index: number): string {
  const v = reader.view(m);
  if (v.ref) return v.ref;
  const d = discriminator(reader, m);
  if (d) return d;
  if (v.types && v.types.size > 0 && !v.members) return typeList(v.types).join('|');
  return `#${index}`;
}

/**
 * Pair old and new union members structurally, in phases: same shape; same definition name; same
 * const discriminator (e.g. `type=text`); same JSON type (members without properties); then most
 * shared property names. Within a phase, several candidates are told apart by shared property names.
 *
 * Long because the phases are one greedy algorithm over the same two sets of free members, written
 * as closures over them; read top to bottom, the phase order is the algorithm.
 */
export function matchMembers(
  oldReader: SideReader,
  newReader: SideReader,
  oldM: Cursor[],
  newM: Cursor[],
): [number, number][] {
  const pairs: [number, number][] = [];
  const freeO = new Set(oldM.map((_, i) => i));
  const freeN = new Set(newM.map((_, j) => j));
  const vO = oldM.map((m) => oldReader.view(m));
  const vN = newM.map((m) => newReader.view(m));
  const similarity = (i: number, j: number): [overlap: number, jaccard: number] => {
    const a = itemAt(vO, i).props;
    const b = itemAt(vN, j).props;
    if (a.size === 0 || b.size === 0) return [0, 0];
    let inter = 0;
    for (const k of a.keys()) if (b.has(k)) inter++;
    return [inter / Math.min(a.size, b.size), inter / (a.size + b.size - inter)];
  };
  const take = (i: number, j: number) => {
    pairs.push([i, j]);
    freeO.delete(i);
    freeN.delete(j);
  };
  const phase = (keyO: (i: number) => string | null, keyN: (j: number) => string | null): void => {
    const byKey = new Map<string, number[]>();
    for (const j of freeN) {
      const k = keyN(j);
      if (k !== null) byKey.set(k, [...(byKey.get(k) ?? []), j]);
    }
    for (const i of [...freeO]) {
      const k = keyO(i);
      if (k === null) continue;
      const candidates = (byKey.get(k) ?? []).filter((j) => freeN.has(j));
      const best = bestBy(candidates, (j) => similarity(i, j));
      if (best !== undefined) take(i, best);
    }
  };
  const plainType = (v: (typeof vO)[number]) =>
    v.props.size === 0 && !v.members ? `t:${typeList(v.types).join(',')}` : null;
  phase(
    (i) => shape(oldReader, itemAt(oldM, i), 4),
    (j) => shape(newReader, itemAt(newM, j), 4),
  );
  phase(
    (i) => itemAt(vO, i).ref,
    (j) => itemAt(vN, j).ref,
  );
  phase(
    (i) => discriminator(oldReader, itemAt(oldM, i)),
    (j) => discriminator(newReader, itemAt(newM, j)),
  );
  phase(
    (i) => plainType(itemAt(vO, i)),
    (j) => plainType(itemAt(vN, j)),
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
  for (const [, , i, j] of scored) if (freeO.has(i) && freeN.has(j)) take(i, j);
  return pairs;
}

function bestBy(candidates: number[], score: (j: number) => [number, number]): number | undefined {
  let best: number | undefined;
  let bestScore: [number, number] = [-1, -1];
  for (const j of candidates) {
    const s = score(j);
    if (best === undefined || s[1] > bestScore[1] || (s[1] === bestScore[1] && s[0] > bestScore[0])) {
      best = j;
      bestScore = s;
    }
  }
  return best;
}
