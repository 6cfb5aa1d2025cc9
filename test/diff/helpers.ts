/** Test helpers for the diff: load official versions and build models from small fixtures. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSchemaText } from '../../src/load/index.js';
import type { JsonSchema } from '../../src/load/schema-types.js';
import { buildModel, type ProtocolModel } from '../../src/model/index.js';

import { ROOT as REPO_ROOT, SCHEMA_DIR } from '../helpers/paths.js';

export { REPO_ROOT, SCHEMA_DIR };
export const VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;

const textCache = new Map<string, string>();
export function versionText(version: string): string {
  let t = textCache.get(version);
  if (t === undefined) {
    t = readFileSync(join(SCHEMA_DIR, version, 'schema.json'), 'utf8');
    textCache.set(version, t);
  }
  return t;
}

export function versionJson(version: string): JsonSchema {
  return JSON.parse(versionText(version)) as JsonSchema;
}

const modelCache = new Map<string, ProtocolModel>();
export function versionModel(version: string): ProtocolModel {
  let m = modelCache.get(version);
  if (!m) {
    m = buildModel(parseSchemaText(versionText(version), join(SCHEMA_DIR, version, 'schema.json'), version));
    modelCache.set(version, m);
  }
  return m;
}

/** A model from a schema document held in memory (fixtures, rewritten copies). */
export function modelOf(doc: JsonSchema, name = 'fixture.json'): ProtocolModel {
  return buildModel(parseSchemaText(JSON.stringify(doc), name, null));
}

type Defs = Record<string, JsonSchema>;
const ref = (name: string, kw = '$defs'): JsonSchema => ({ $ref: `#/${kw}/${name}` });

/**
 * A minimal MCP-shaped schema: `requests` maps a method to `{ params, result, direction }` schemas,
 * `notifications` to `{ params, direction }`. Definitions are named from the method (`Foo` for `foo/bar`…).
 */
export interface FixtureSpec {
  requests?: Record<
    string,
    {
      params?: JsonSchema;
      paramsRequired?: boolean;
      result?: JsonSchema;
      direction?: 'client' | 'server' | 'both' | 'input';
    }
  >;
  notifications?: Record<
    string,
    { params?: JsonSchema; paramsRequired?: boolean; direction?: 'client' | 'server' | 'both' }
  >;
  extraDefs?: Defs;
  batches?: boolean;
  kw?: 'definitions' | '$defs';
}

export function baseName(method: string): string {
  return method
    .split(/[/_]/)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');
}

export function fixture(spec: FixtureSpec): JsonSchema {
  const kw = spec.kw ?? '$defs';
  const defs: Defs = { ...(spec.extraDefs ?? {}) };
  const clientReq: JsonSchema[] = [];
  const serverReq: JsonSchema[] = [];
  const inputReq: JsonSchema[] = [];
  const clientNote: JsonSchema[] = [];
  const serverNote: JsonSchema[] = [];
  for (const [method, r] of Object.entries(spec.requests ?? {})) {
    const base = baseName(method);
    const props: JsonSchema = { method: { const: method, type: 'string' }, id: { type: 'integer' } };
    if (r.params) {
      defs[`${base}RequestParams`] = r.params;
      props.params = ref(`${base}RequestParams`, kw);
    }
    defs[`${base}Request`] = {
      type: 'object',
      properties: props,
      required: r.paramsRequired === false || !r.params ? ['method', 'id'] : ['method', 'id', 'params'],
    };
    defs[`${base}Result`] = r.result ?? { type: 'object', properties: {} };
    const d = r.direction ?? 'client';
    if (d === 'client' || d === 'both') clientReq.push(ref(`${base}Request`, kw));
    if (d === 'server' || d === 'both') serverReq.push(ref(`${base}Request`, kw));
    if (d === 'input') inputReq.push(ref(`${base}Request`, kw));
  }
  for (const [method, n] of Object.entries(spec.notifications ?? {})) {
    const base = baseName(method);
    const props: JsonSchema = { method: { const: method, type: 'string' } };
    if (n.params) {
      defs[`${base}NotificationParams`] = n.params;
      props.params = ref(`${base}NotificationParams`, kw);
    }
    defs[`${base}Notification`] = {
      type: 'object',
      properties: props,
      required: n.paramsRequired === false || !n.params ? ['method'] : ['method', 'params'],
    };
    const d = n.direction ?? 'server';
    if (d === 'client' || d === 'both') clientNote.push(ref(`${base}Notification`, kw));
    if (d === 'server' || d === 'both') serverNote.push(ref(`${base}Notification`, kw));
  }
  defs.ClientRequest = { anyOf: clientReq };
  if (serverReq.length) defs.ServerRequest = { anyOf: serverReq };
  if (inputReq.length) defs.InputRequest = { anyOf: inputReq };
  if (clientNote.length) defs.ClientNotification = { anyOf: clientNote };
  defs.ServerNotification = { anyOf: serverNote };
  defs.JSONRPCRequest = { type: 'object', properties: { jsonrpc: { const: '2.0' } } };
  defs.JSONRPCMessage = spec.batches
    ? { anyOf: [ref('JSONRPCRequest', kw), { type: 'array', items: ref('JSONRPCRequest', kw) }] }
    : { anyOf: [ref('JSONRPCRequest', kw)] };
  return {
    $schema:
      kw === '$defs' ? 'https://json-schema.org/draft/2020-12/schema' : 'http://json-schema.org/draft-07/schema#',
    [kw]: defs,
  };
}

/** Deep copy with every `$ref` rewritten by `fn`. */
export function rewriteRefs(node: unknown, fn: (ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((x) => rewriteRefs(x, fn));
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node))
      out[k] = k === '$ref' && typeof v === 'string' ? fn(v) : rewriteRefs(v, fn);
    return out;
  }
  return node;
}
