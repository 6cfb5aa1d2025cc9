/**
 * The JSON-RPC envelope every message travels in — the request, notification, result response and
 * error response shapes (`jsonrpc`, `id` types and requiredness, `error`) — compared like a message
 * part. Found from structure, whatever their names: objects declaring `jsonrpc` with, for a request,
 * `id` and a `method` that is no constant; for a notification, such a `method` and no `id`; for a
 * result response, `id` and a `result` paired with no request (the generic one, not a `<X>ResultResponse`);
 * for an error response, `error`; batches (arrays of those, where the version has them). Every side
 * writes and reads every envelope, so each side gets the worst of the writer's and the reader's verdicts.
 * Batches appearing or going are the `batching-*` protocol facts.
 */
import { isObject, type JsonSchema } from '../load/schema-types.js';
import { unwrapAllOf } from '../load/schema-keywords.js';
import { definitionPointer } from '../load/pointer.js';
import { compareStrings } from '../load/order.js';
import { refsOf } from '../model/pairing.js';
import type { ProtocolModel } from '../model/types.js';
import { definitionRefReader, messageParts, methodConst } from '../model/unions.js';
import type { SchemaComparer } from './compare.js';
import { addChange, type AddFn } from './facts.js';

export type EnvelopeKind =
  'request' | 'notification' | 'result-response' | 'error-response' | 'batch-request' | 'batch-response';
const KINDS: readonly EnvelopeKind[] = [
  'request',
  'notification',
  'result-response',
  'error-response',
  'batch-request',
  'batch-response',
];

/** Each envelope shape's definition in a model (absent when the schema has none). */
export function envelopeDefinitions(model: ProtocolModel): Partial<Record<EnvelopeKind, string>> {
  const refName = definitionRefReader(model.definitions, model.defsKeyword);
  const paired = new Set(model.methods.flatMap((m) => (m.resultUnknown ? [] : (m.result ?? []))));
  // The generic shapes are members of the message union (JSONRPCMessage, whatever its name); specific
  // error responses (one per error code) stand alone.
  const inUnion = new Set(Object.values(model.definitions).flatMap((def) => unionRefs(def, refName)));
  const names = Object.keys(model.definitions).sort(
    (a, b) => Number(inUnion.has(b)) - Number(inUnion.has(a)) || compareStrings(a, b),
  );
  const found: Partial<Record<EnvelopeKind, string>> = {};
  for (const name of names) {
    const def: JsonSchema | undefined = model.definitions[name];
    const kind = def === undefined ? undefined : (envelopeKind(def, refName, paired) ?? batchKind(def, model, refName));
    if (kind !== undefined && found[kind] === undefined) found[kind] = name;
  }
  return found;
}

/** The definitions a union names, through nested and single-member wrappers (not into its members). */
function unionRefs(node: unknown, refName: (ref: unknown) => string | undefined, depth = 0): string[] {
  const inner = unwrapAllOf(node).node;
  if (!isObject(inner) || depth > 16) return [];
  const members = Array.isArray(inner.anyOf) ? inner.anyOf : Array.isArray(inner.oneOf) ? inner.oneOf : [];
  return members.flatMap((m: unknown) => {
    const name = isObject(m) ? refName(m.$ref) : undefined;
    return name !== undefined ? [name] : unionRefs(m, refName, depth + 1);
  });
}

/**
 * A batch (where the version has them): an array whose items are JSON-RPC messages; of requests and
 * notifications (items declaring a `method`), or of responses.
 */
function batchKind(
  def: JsonSchema,
  model: ProtocolModel,
  refName: (ref: unknown) => string | undefined,
): EnvelopeKind | undefined {
  const array = unwrapAllOf(def).node;
  if (!isObject(array) || array.type !== 'array' || !isObject(array.items)) return undefined;
  const items = [...unionRefs(array.items, refName), refName(array.items.$ref)].flatMap((name) =>
    name === undefined ? [] : [messageParts(model.definitions[name]).properties],
  );
  if (items.length === 0 || !items.every((props) => props.has('jsonrpc'))) return undefined;
  return items.some((props) => props.has('method')) ? 'batch-request' : 'batch-response';
}

function envelopeKind(
  def: JsonSchema,
  refName: (ref: unknown) => string | undefined,
  paired: ReadonlySet<string>,
): EnvelopeKind | undefined {
  const { properties } = messageParts(def);
  if (!properties.has('jsonrpc')) return undefined;
  const has = (p: string) => properties.has(p);
  if (has('method')) {
    if (methodConst(def) !== undefined) return undefined;
    return has('id') ? 'request' : 'notification';
  }
  if (has('error') && !has('result')) return 'error-response';
  if (has('result') && has('id')) {
    const result = properties.get('result')?.schema;
    const names = result !== null && typeof result === 'object' ? refsOf(result as JsonSchema, refName) : [];
    return names.some((n) => paired.has(n)) ? undefined : 'result-response';
  }
  return undefined;
}

/** Facts for each envelope shape both sides have. */
export function compareEnvelopes(o: ProtocolModel, n: ProtocolModel, comparer: SchemaComparer, add: AddFn): void {
  const oldDefs = envelopeDefinitions(o);
  const newDefs = envelopeDefinitions(n);
  for (const kind of KINDS) {
    const was = oldDefs[kind];
    const is = newDefs[kind];
    if (was === undefined || is === undefined) continue;
    const at = {
      method: kind,
      kind: null,
      directions: ['client->server' as const, 'server->client' as const],
      part: 'envelope' as const,
    };
    const changes = comparer.compare(
      comparer.cursor('old', `#${definitionPointer(o.defsKeyword, was)}`),
      comparer.cursor('new', `#${definitionPointer(n.defsKeyword, is)}`),
    );
    for (const c of changes) addChange(add, c, at, 'envelope');
  }
}
