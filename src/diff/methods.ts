/** Facts about each method: added, removed, directions, kind, params presence, params/result/payload. */
import {
  DIRECTIONS,
  paramsRefText,
  type Direction,
  type MethodDeclaration,
  type MethodInfo,
  type ProtocolModel,
} from '../model/types.js';
import type { SchemaComparer, Cursor } from './compare.js';
import { addChange, type AddFn } from './facts.js';
import { definitionPointer } from '../load/pointer.js';
import { compareStrings } from '../load/order.js';

export function compareMethods(
  oldModel: ProtocolModel,
  newModel: ProtocolModel,
  comparer: SchemaComparer,
  add: AddFn,
): void {
  const oldByName = new Map(oldModel.methods.map((m) => [m.method, m]));
  const newByName = new Map(newModel.methods.map((m) => [m.method, m]));
  const names = [...new Set([...oldByName.keys(), ...newByName.keys()])].sort(compareStrings);
  for (const name of names) {
    const o = oldByName.get(name);
    const n = newByName.get(name);
    if (o && n) compareMethod(o, n, oldModel, newModel, comparer, add);
    else if (o) {
      const at = { method: name, kind: o.kind, directions: o.directions, part: 'method' as const, path: '' };
      const message = `${o.kind} removed (was ${o.directions.join(', ')})`;
      add({ ...at, rule: `${noun(o)}-removed`, oldPointer: defPtr(oldModel, o.definition), newPointer: null, message });
    } else if (n) {
      const required = n.kind === 'request' && declaresCapabilities(comparer, n);
      const rule = required ? 'required-method-added' : `${noun(n)}-added`;
      const at = { method: name, kind: n.kind, directions: n.directions, part: 'method' as const, path: '' };
      const message = `${n.kind} added (${n.directions.join(', ')})${required ? ', answered by every implementer' : ''}`;
      add({ ...at, rule, oldPointer: null, newPointer: defPtr(newModel, n.definition), message });
    }
  }
}

function noun(m: MethodInfo): string {
  return m.kind === 'request' ? 'method' : 'notification';
}

/**
 * A request every implementer must answer: its result declares the implementer's capabilities
 * (initialize, server/discover) — callers send it before anything else, unannounced.
 */
function declaresCapabilities(comparer: SchemaComparer, m: MethodInfo): boolean {
  return (m.result ?? []).some((r) => comparer.requires('new', comparer.cursor('new', r), 'capabilities'));
}

function compareMethod(
  o: MethodInfo,
  n: MethodInfo,
  oldModel: ProtocolModel,
  newModel: ProtocolModel,
  comparer: SchemaComparer,
  add: AddFn,
): void {
  const name = n.method;
  const oldPointer = defPtr(oldModel, o.definition);
  const newPointer = defPtr(newModel, n.definition);
  const method = (rule: string, directions: Direction[], message: string, details = {}) =>
    add({
      rule,
      method: name,
      kind: n.kind,
      directions,
      part: 'method',
      path: '',
      oldPointer,
      newPointer,
      message,
      details,
    });
  if (o.kind !== n.kind) {
    const directions = DIRECTIONS.filter((d) => o.directions.includes(d) || n.directions.includes(d));
    method('method-kind-changed', directions, `changed from ${o.kind} to ${n.kind}`, {
      oldKind: o.kind,
      newKind: n.kind,
    });
    return;
  }
  for (const d of o.directions)
    if (!n.directions.includes(d)) method(`${noun(n)}-direction-removed`, [d], `no longer sent ${d}`, { direction: d });
  for (const d of n.directions)
    if (!o.directions.includes(d)) method(`${noun(n)}-direction-added`, [d], `now also sent ${d}`, { direction: d });
  const prefix = n.kind === 'request' ? 'request' : 'notification';
  const dataPart = n.kind === 'request' ? 'params' : 'payload';
  for (const { old: od, new: nd, directions: dirs } of declarationPairs(o, n)) {
    const oldReq = od.params !== null && od.paramsRequired;
    const newReq = nd.params !== null && nd.paramsRequired;
    if (!oldReq && newReq) method(`${prefix}-params-became-required`, dirs, 'params is now required');
    if (oldReq && !newReq && nd.params !== null)
      method(`${prefix}-params-became-optional`, dirs, 'params is no longer required');
    const at = { method: name, kind: n.kind, directions: dirs };
    for (const c of comparer.compare(paramsCursor(comparer, 'old', od), paramsCursor(comparer, 'new', nd)))
      addChange(add, c, { ...at, part: dataPart }, 'params');
  }
  if (n.kind === 'request') compareResults(o, n, oldPointer, newPointer, comparer, add);
}

/**
 * The messages to compare, with the directions each pair stands for: the method's own definitions on
 * both sides, or — where a direction is declared by a definition of its own (MethodInfo.declarations) —
 * each direction's old declaration against its new one.
 */
function declarationPairs(
  o: MethodInfo,
  n: MethodInfo,
): { old: MethodDeclaration; new: MethodDeclaration; directions: Direction[] }[] {
  if (!o.declarations && !n.declarations) return [{ old: o, new: n, directions: n.directions }];
  const pairs = new Map<string, { old: MethodDeclaration; new: MethodDeclaration; directions: Direction[] }>();
  for (const d of n.directions) {
    const od = (o.directions.includes(d) ? o.declarations?.[d] : undefined) ?? o;
    const nd = n.declarations?.[d] ?? n;
    const key = `${od.definition}\u0000${nd.definition}`;
    const pair = pairs.get(key);
    if (pair) pair.directions.push(d);
    else pairs.set(key, { old: od, new: nd, directions: [d] });
  }
  return [...pairs.values()];
}

function compareResults(
  o: MethodInfo,
  n: MethodInfo,
  oldPointer: string,
  newPointer: string,
  comparer: SchemaComparer,
  add: AddFn,
): void {
  const at = { method: n.method, kind: n.kind, directions: n.directions, part: 'result' as const };
  if (Boolean(o.resultUnknown) !== Boolean(n.resultUnknown)) {
    // One side's result could not be paired: there is nothing to compare it with, but say so.
    const lost = Boolean(n.resultUnknown);
    const message = lost
      ? 'the result is no longer paired with this request (now the generic Result)'
      : 'the result is now paired with this request (was the generic Result)';
    const rule = lost ? 'result-became-unknown' : 'result-became-known';
    add({
      ...at,
      rule,
      path: 'result',
      oldPointer,
      newPointer,
      message,
      details: { result: (lost ? o.result : n.result) ?? [] },
    });
    return;
  }
  if (n.resultUnknown || !o.result || !n.result) return;
  const changes = comparer.compare(resultCursor(comparer, 'old', o.result), resultCursor(comparer, 'new', n.result));
  for (const c of changes) addChange(add, c, at, 'result');
}

function paramsCursor(comparer: SchemaComparer, which: 'old' | 'new', m: MethodDeclaration): Cursor {
  if (m.params === null) return { node: { type: 'object' }, ptr: null };
  return comparer.cursor(which, paramsRefText(m.params));
}

function resultCursor(comparer: SchemaComparer, which: 'old' | 'new', names: string[]): Cursor {
  const [only] = names;
  if (names.length === 1 && only !== undefined) return comparer.cursor(which, only);
  return { node: { anyOf: names.map((n) => comparer.cursor(which, n).node) }, ptr: null };
}

function defPtr(model: ProtocolModel, name: string): string {
  return `#${definitionPointer(model.defsKeyword, name)}`;
}
