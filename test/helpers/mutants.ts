/**
 * Seeded mutants for the generator's property test (test/generate/mutants.test.ts): small bases cut
 * from the five official schemas (a few tool methods and everything they reference), and mutations that
 * hit what issue 36 found: names JSTT would rename, duplicate methods, self-aliasing compositions,
 * keyword values of the wrong shape, deep nesting, control characters, and random sub-schema swaps.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_DIR, VERSIONS, type Version } from './generate.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };
export interface Schema {
  $schema?: Json;
  $defs: Record<string, Obj>;
}

const ROOTS = ['ListToolsRequest', 'ListToolsResult', 'CallToolRequest', 'CallToolResult', 'ProgressNotification'];

/** A small schema of `version`: ROOTS, what they reference, and client-request and notification unions. */
export function baseSchema(version: Version): Schema {
  const full = JSON.parse(readFileSync(join(SCHEMA_DIR, version, 'schema.json'), 'utf8')) as Obj & {
    $defs?: Record<string, Obj>;
    definitions?: Record<string, Obj>;
  };
  const defs = full.$defs ?? full.definitions ?? {};
  const keyword = full.$defs ? '$defs' : 'definitions';
  const kept: Record<string, Obj> = {};
  const pending = ROOTS.filter((r) => Object.hasOwn(defs, r));
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const def = defs[name];
    if (Object.hasOwn(kept, name) || def === undefined) continue;
    kept[name] = def;
    for (const ref of JSON.stringify(def).matchAll(/"#\/(?:\$defs|definitions)\/([A-Za-z0-9]+)"/g))
      if (ref[1] !== undefined) pending.push(ref[1]);
  }
  // Every schema becomes 2020-12 with $defs, so mutations need only one spelling.
  const text = JSON.stringify(kept).replaceAll(`"#/${keyword}/`, '"#/$defs/');
  const $defs = JSON.parse(text) as Record<string, Obj>;
  $defs.ClientRequest = { anyOf: [{ $ref: '#/$defs/ListToolsRequest' }, { $ref: '#/$defs/CallToolRequest' }] };
  $defs.ServerNotification = { anyOf: [{ $ref: '#/$defs/ProgressNotification' }] };
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', $defs };
}

export const BASE_VERSIONS: readonly Version[] = VERSIONS;

/** A small, fast, seeded PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

/** Every object node under the definitions, with its parent and key (for replacement). */
function nodes(schema: Schema): { node: Obj; parent: Obj | Json[]; key: string | number }[] {
  const out: { node: Obj; parent: Obj | Json[]; key: string | number }[] = [];
  const walk = (value: Json, parent: Obj | Json[], key: string | number) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, value, i));
    else if (value !== null && typeof value === 'object') {
      out.push({ node: value, parent, key });
      for (const [k, v] of Object.entries(value)) walk(v, value, k);
    }
  };
  for (const [name, def] of Object.entries(schema.$defs)) walk(def, schema.$defs as Obj, name);
  return out;
}

const BAD_NAMES = [
  'Promise',
  'Record',
  'NonNullable',
  'Array',
  'acmeJob',
  'then',
  'constructor',
  'toString',
  'eval',
  'hasOwnProperty',
  'tool',
  'Job_v2',
  'Tool2go',
];
const ODD_VALUES: Json[] = [5, 'x', null, [], {}, true, false, [5], { type: 'nope' }, { enum: [] }];

/** Renames definition `from` to `to`, references included. */
function rename(schema: Schema, from: string, to: string): void {
  const text = JSON.stringify(schema.$defs).replaceAll(`"#/$defs/${from}"`, `"#/$defs/${to}"`);
  const defs = JSON.parse(text) as Record<string, Obj>;
  const def = defs[from];
  if (def === undefined) return;
  delete defs[from];
  defs[to] = def;
  schema.$defs = defs;
}

/** The mutations; each changes `schema` in place and says what it did. */
const MUTATIONS: ((schema: Schema, random: Random) => string)[] = [
  (s, r) => {
    const from = pick(r, Object.keys(s.$defs));
    const to = pick(r, BAD_NAMES);
    rename(s, from, to);
    return `rename ${from} → ${to}`;
  },
  (s, r) => {
    const name = pick(r, Object.keys(s.$defs));
    const twin = name.toLowerCase() === name ? name.toUpperCase() : name.toLowerCase();
    s.$defs[twin] = { type: 'object', properties: { other: { type: 'number' } } };
    return `case twin ${twin}`;
  },
  (s) => {
    const copy = structuredClone(s.$defs.CallToolRequest ?? {});
    s.$defs.CallToolRequestAgain = copy;
    const union = s.$defs.ClientRequest?.anyOf;
    if (Array.isArray(union)) union.push({ $ref: '#/$defs/CallToolRequestAgain' });
    return 'duplicate tools/call';
  },
  (s, r) => {
    const name = pick(r, Object.keys(s.$defs));
    const keyword = pick(r, ['allOf', 'anyOf', 'oneOf'] as const);
    s.$defs[name] = { [keyword]: [{ $ref: `#/$defs/${name}` }, { type: 'string' }] };
    return `${keyword} self-reference in ${name}`;
  },
  (s, r) => {
    const target = pick(r, nodes(s)).node;
    const keyword = pick(r, ['description', 'items', 'enum', 'type', 'required', 'title', 'properties', 'anyOf']);
    target[keyword] = pick(r, ODD_VALUES);
    return `odd ${keyword}`;
  },
  (s, r) => {
    const depth = 40 + Math.floor(r() * 360);
    let inner: Obj = { type: 'string' };
    for (let i = 0; i < depth; i++) inner = { type: 'object', properties: { a: inner } };
    const request = s.$defs.CallToolRequest;
    if (request?.properties && typeof request.properties === 'object' && !Array.isArray(request.properties))
      request.properties.params = inner;
    return `params ${depth} deep`;
  },
  (s, r) => {
    const method = s.$defs.ListToolsRequest?.properties;
    const bad = pick(r, ['tools/\nlist', 'tools/\u0000list', 'tools/list\u2028', 'tools/"list`${x}*/']);
    if (method && typeof method === 'object' && !Array.isArray(method)) method.method = { const: bad, type: 'string' };
    return `method ${JSON.stringify(bad)}`;
  },
  (s, r) => {
    const { parent, key } = pick(r, nodes(s));
    const value = pick(r, [...ODD_VALUES, { $ref: `#/$defs/${pick(r, Object.keys(s.$defs))}` }]);
    if (Array.isArray(parent)) parent[key as number] = value;
    else parent[key as string] = value;
    return `swap a node for ${JSON.stringify(value)}`;
  },
  (s, r) => {
    const target = pick(r, nodes(s)).node;
    const name = pick(r, ['__proto__', 'constructor', 'toString', 'a\u2028b', '*/', 'then']);
    target.properties = { ...(isObj(target.properties) ? target.properties : {}), [name]: { type: 'string' } };
    return `property ${JSON.stringify(name)}`;
  },
];

/** Changes a valid schema should survive: hostile text, retargeted references, widened types. */
const BENIGN: ((schema: Schema, random: Random) => string)[] = [
  (s, r) => {
    const target = pick(r, nodes(s)).node;
    target.description = pick(r, ['*/ end', '`${x}`', 'a\u2028b', 'line\nbreak', 'toString', '@see {@link X}']);
    return 'hostile description';
  },
  (s, r) => {
    const target = pick(r, nodes(s)).node;
    const name = pick(r, Object.keys(s.$defs));
    target.properties = { ...(isObj(target.properties) ? target.properties : {}), extra: { $ref: `#/$defs/${name}` } };
    return `property extra → ${name}`;
  },
  (s, r) => {
    const target = pick(r, nodes(s)).node;
    target.type = pick(r, [['string', 'null'], 'integer', ['object', 'array'], 'boolean']);
    return `type ${JSON.stringify(target.type)}`;
  },
  (s, r) => {
    const target = pick(r, nodes(s)).node;
    target.enum = pick(r, [['a', 'b'], [1, 'x', null], [{ k: 1 }], ['*/']]);
    return `enum ${JSON.stringify(target.enum)}`;
  },
  (s, r) => {
    const target = pick(r, nodes(s)).node;
    target.additionalProperties = pick(r, [true, false, { $ref: `#/$defs/${pick(r, Object.keys(s.$defs))}` }]);
    return 'additionalProperties';
  },
];

const isObj = (v: Json | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Mutant number `seed`: a base and one to three mutations, reproducible from the seed alone. */
export function mutant(seed: number, bases: ReadonlyMap<Version, Schema>): { text: string; what: string } {
  const random = prng(seed);
  const version = pick(random, BASE_VERSIONS);
  const base = bases.get(version);
  if (base === undefined) throw new Error(`no base for ${version}`);
  const schema = structuredClone(base);
  const what: string[] = [version];
  // Half the mutants get only changes a valid schema survives, so both outcomes are common.
  const benign = random() < 0.5;
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i++) what.push(pick(random, benign ? BENIGN : MUTATIONS)(schema, random));
  return { text: JSON.stringify(schema), what: what.join('; ') };
}
