/**
 * Structural normalisation: every released schema, rewritten with each equivalence, diffs to 0 facts
 * (both ways). The schemas are read from MCP_SCHEMA_DIR (../shared/mcp-schema), in tests only.
 */
import { describe, expect, test } from 'vitest';
import { diffModels } from '../../src/diff/index.js';
import type { JsonSchema } from '../../src/load/schema-types.js';
import { modelOf, rewriteRefs, VERSIONS, versionJson, versionModel } from './helpers.js';

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep-map every schema object (post-order), skipping the keys of `properties`-like maps. */
function mapSchemas(doc: JsonSchema, fn: (node: Node) => Node): JsonSchema {
  const maps = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
  const walk = (n: unknown, isMap: boolean): unknown => {
    if (Array.isArray(n)) return n.map((x) => walk(x, false));
    if (!isNode(n)) return n;
    const out: Node = {};
    for (const [k, v] of Object.entries(n)) out[k] = walk(v, !isMap && maps.has(k));
    return isMap ? out : fn(out);
  };
  return walk(doc, false) as JsonSchema;
}

const kwOf = (doc: JsonSchema) => (doc.$defs ? '$defs' : 'definitions');
/** `enum: [a, b]` → `anyOf: [{const: a}, {const: b}]` (the type, if any, goes on each member). */
function enumToAnyOf(doc: JsonSchema): JsonSchema {
  return mapSchemas(doc, (n) => {
    if (!Array.isArray(n.enum) || n.enum.length < 2) return n;
    const { enum: values, type, ...rest } = n;
    return { ...rest, anyOf: (values as unknown[]).map((v) => (type ? { type, const: v } : { const: v })) };
  });
}

const TYPE_KEYWORDS: Record<string, string[]> = {
  object: [
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
  ],
  array: ['items', 'minItems', 'maxItems', 'uniqueItems'],
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
};

/** `type: [a, b]` → `anyOf: [{type: a, …a's keywords}, {type: b, …}]` (diffed both ways: also the reverse). */
function typeArrayToAnyOf(doc: JsonSchema): JsonSchema {
  return mapSchemas(doc, (n) => {
    if (!Array.isArray(n.type) || n.type.length < 2 || n.enum || n.const !== undefined) return n;
    const types = n.type as string[];
    const own = (t: string) =>
      Object.fromEntries(Object.entries(n).filter(([k]) => (TYPE_KEYWORDS[t] ?? []).includes(k)));
    const shared = Object.fromEntries(
      Object.entries(n).filter(([k]) => k !== 'type' && !Object.values(TYPE_KEYWORDS).flat().includes(k)),
    );
    return { ...shared, anyOf: types.map((t) => ({ type: t, ...own(t) })) };
  });
}

/** Every property schema wrapped in a one-member allOf, every definition in a one-member anyOf (messages too). */
function singleMemberCombinators(doc: JsonSchema): JsonSchema {
  const kw = kwOf(doc);
  const defs = doc[kw] as Record<string, Node>;
  const wrapped = Object.fromEntries(
    Object.entries(defs).map(([name, def]) => {
      const props = isNode(def.properties) ? def.properties : undefined;
      const wrap = (k: string, p: unknown) => [k, { allOf: [p] }];
      const inner = props
        ? { ...def, properties: Object.fromEntries(Object.entries(props).map(([k, p]) => wrap(k, p))) }
        : def;
      return [name, { anyOf: [inner] }];
    }),
  );
  return { ...doc, [kw]: wrapped };
}

/** Every definition (message unions, messages, results) wrapped in a one-member allOf. */
function allOfAroundDefinitions(doc: JsonSchema): JsonSchema {
  const kw = kwOf(doc);
  const defs = doc[kw] as Record<string, Node>;
  return { ...doc, [kw]: Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, { allOf: [def] }])) };
}

/**
 * Keywords that accept everything their node accepts added wherever they fit: `minItems: 0` on arrays,
 * `minLength: 0` on strings, `minProperties: 0` on objects, `multipleOf: 1` on integers.
 */
function noOpKeywords(doc: JsonSchema): JsonSchema {
  const noOp: Record<string, Node> = {
    array: { minItems: 0 },
    string: { minLength: 0 },
    object: { minProperties: 0 },
    integer: { multipleOf: 1 },
  };
  return mapSchemas(doc, (n) => (typeof n.type === 'string' && noOp[n.type] ? { ...n, ...noOp[n.type] } : n));
}

/** Every object definition with two or more properties (messages too) split into an allOf of two halves. */
function splitIntoAllOf(doc: JsonSchema): JsonSchema {
  const kw = kwOf(doc);
  const defs = doc[kw] as Record<string, Node>;
  const split = Object.fromEntries(
    Object.entries(defs).map(([name, def]) => {
      const props = isNode(def.properties) ? Object.entries(def.properties) : [];
      if (props.length < 2 || def.anyOf || def.oneOf || def.allOf) return [name, def];
      const required = Array.isArray(def.required) ? (def.required as string[]) : [];
      const half = (entries: [string, unknown][]) => {
        const names = entries.map(([k]) => k);
        const req = required.filter((r) => names.includes(r));
        return { type: 'object', properties: Object.fromEntries(entries), ...(req.length ? { required: req } : {}) };
      };
      const { properties: _p, required: _r, ...rest } = def;
      const mid = Math.ceil(props.length / 2);
      return [name, { ...rest, allOf: [half(props.slice(0, mid)), half(props.slice(mid))] }];
    }),
  );
  return { ...doc, [kw]: split };
}

/**
 * Every definition renamed (`Renamed…`, refs rewritten): the direction unions, the result unions,
 * `Result`, `EmptyResult`, everything — the model finds them from structure (model/unions.ts).
 * The schema never links a request to its result, so pairing starts from the spec's naming convention
 * `<X>Request` → `<X>ResultResponse` / `<X>Result` (kept by this prefix); when a rename breaks it, the
 * response definitions and result unions pair what they can tell apart (pair-structure.ts; each request,
 * result and response renamed alone: unions.test.ts). Only several requests of one side losing their
 * names at once stay unpaired (result-became-unknown; a pairing file restores them).
 */
function renameDefinitions(doc: JsonSchema): JsonSchema {
  const kw = kwOf(doc);
  const rename = (name: string) => `Renamed${name}`;
  const defs = doc[kw] as Record<string, JsonSchema>;
  const prefix = `#/${kw}/`;
  return rewriteRefs(
    { ...doc, [kw]: Object.fromEntries(Object.entries(defs).map(([k, s]) => [rename(k), s])) },
    (ref) => {
      if (!ref.startsWith(prefix)) return ref;
      const [head, ...tail] = ref.slice(prefix.length).split('/');
      return prefix + [rename(head!), ...tail].join('/');
    },
  ) as JsonSchema;
}

const EQUIVALENCES: [string, (doc: JsonSchema) => JsonSchema][] = [
  ['enum → anyOf of consts', enumToAnyOf],
  ['type list → anyOf of types', typeArrayToAnyOf],
  ['single-member anyOf/allOf around every definition and property', singleMemberCombinators],
  ['objects split into allOf halves', splitIntoAllOf],
  ['single-member allOf around every definition (message unions too)', allOfAroundDefinitions],
  ['no-op keywords (minItems/minLength/minProperties 0, multipleOf 1 on integers)', noOpKeywords],
  ['every definition renamed', renameDefinitions],
  ['all of the above at once', (doc) => renameDefinitions(splitIntoAllOf(singleMemberCombinators(enumToAnyOf(doc))))],
];

const changed = new Map<string, number>();

describe.each(VERSIONS)('%s rewritten with an equivalence: 0 facts, both ways', (version) => {
  test.each(EQUIVALENCES)('%s', (name, rewrite) => {
    const original = versionJson(version);
    const rewritten = rewrite(structuredClone(original));
    if (JSON.stringify(rewritten) === JSON.stringify(original)) return; // nothing of that spelling here
    changed.set(name, (changed.get(name) ?? 0) + 1);
    const a = versionModel(version);
    const b = modelOf(rewritten);
    expect(b.features).toEqual(a.features);
    const summary = (facts: { rule: string; location: { key: string } }[]) =>
      facts.map((f) => `${f.rule} ${f.location.key}`);
    expect(summary(diffModels(a, b).facts)).toEqual([]);
    expect(summary(diffModels(b, a).facts)).toEqual([]);
  });
});

test('each equivalence rewrote at least one released schema', () => {
  // Runs after the suites above (vitest runs a file's tests in order).
  for (const [name] of EQUIVALENCES) expect(changed.get(name) ?? 0, name).toBeGreaterThan(0);
});
