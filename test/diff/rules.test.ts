/** One small fixture pair per rule (built here as objects), with the verdict for each side. */
import { describe, expect, test } from 'vitest';
import {
  describeVerdictLogic,
  diffModels,
  renderRules,
  rules,
  verdictsFor,
  ruleById,
  type DiffOptions,
  type DiffReport,
  type Verdict,
} from '../../src/diff/index.js';
import type { JsonSchema } from '../../src/load/schema-types.js';
import { fixture, modelOf, versionJson, type FixtureSpec } from './helpers.js';

const B: Verdict = 'breaking';
const P: Verdict = 'potentially-breaking';
const N: Verdict = 'non-breaking';

const obj = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required,
});
const str: JsonSchema = { type: 'string' };

type Expected = [rule: string, method: string, path: string, client: Verdict, server: Verdict];

function run(oldSpec: FixtureSpec, newSpec: FixtureSpec, options?: DiffOptions): DiffReport {
  return diffModels(modelOf(fixture(oldSpec), 'old.json'), modelOf(fixture(newSpec), 'new.json'), options);
}

function summarize(report: DiffReport): Expected[] {
  return report.facts.map((f) => [f.rule, f.location.method, f.location.path, f.verdicts.client, f.verdicts.server]);
}

const seen = new Set<string>();
function check(report: DiffReport, expected: Expected[]): void {
  expect(summarize(report)).toEqual(expected);
  for (const e of expected) seen.add(e[0]);
}

/** Structural change fixtures: [old schema, new schema, path suffix, change kind]. */
const SHAPES = {
  'property-added': [obj({ a: str }), obj({ a: str, b: { type: 'number' } }), '.b'],
  'property-removed': [obj({ a: str, b: str }), obj({ a: str }), '.b'],
  'required-property-removed': [obj({ a: str, b: str }, ['b']), obj({ a: str }), '.b'],
  'required-added': [obj({ a: str }), obj({ a: str }, ['a']), '.a'],
  'required-removed': [obj({ a: str }, ['a']), obj({ a: str }), '.a'],
  'type-widened': [obj({ n: { type: 'integer' } }), obj({ n: { type: 'number' } }), '.n'],
  'type-narrowed': [obj({ n: { type: 'number' } }), obj({ n: { type: 'integer' } }), '.n'],
  'type-changed': [obj({ n: str }), obj({ n: { type: 'boolean' } }), '.n'],
  'enum-value-added': [
    obj({ e: { type: 'string', enum: ['a', 'b'] } }),
    obj({ e: { type: 'string', enum: ['b', 'a', 'c'] } }),
    '.e',
  ],
  'enum-value-removed': [
    obj({ e: { type: 'string', enum: ['a', 'b'] } }),
    obj({ e: { type: 'string', enum: ['a'] } }),
    '.e',
  ],
  'enum-constraint-added': [obj({ e: str }), obj({ e: { type: 'string', const: 'x' } }), '.e'],
  'const-changed': [obj({ e: { type: 'string', const: 'x' } }), obj({ e: { type: 'string', enum: ['y'] } }), '.e'],
  'enum-constraint-removed': [obj({ e: { type: 'string', enum: ['x', 'y'] } }), obj({ e: str }), '.e'],
  'union-member-added': [
    obj({ u: { anyOf: [obj({ type: { const: 'a' }, x: str }, ['type']), obj({ type: { const: 'b' } }, ['type'])] } }),
    // Reordered: members are matched by structure, not position.
    obj({
      u: {
        anyOf: [
          obj({ type: { const: 'c' } }, ['type']),
          obj({ type: { const: 'b' } }, ['type']),
          obj({ type: { const: 'a' }, x: str }, ['type']),
        ],
      },
    }),
    '.u',
  ],
  'union-member-removed': [
    obj({ u: { anyOf: [obj({ type: { const: 'a' } }, ['type']), obj({ type: { const: 'b' } }, ['type'])] } }),
    obj({ u: { anyOf: [obj({ type: { const: 'b' } }, ['type'])] } }),
    '.u',
  ],
  'additional-properties-widened': [
    obj({ m: { type: 'object', additionalProperties: false } }),
    obj({ m: { type: 'object' } }),
    '.m',
  ],
  'additional-properties-narrowed': [
    obj({ m: { type: 'object', additionalProperties: {} } }),
    obj({ m: { type: 'object', additionalProperties: false } }),
    '.m',
  ],
  ...keywordShapes(),
} as const satisfies Record<string, readonly [JsonSchema, JsonSchema, string]>;
type Shape = keyof typeof SHAPES;

/** Validation keyword fixtures: `<group>-tightened`, `-loosened` (the reverse) and, where it exists, `-changed`. */
function keywordShapes(): Record<string, [JsonSchema, JsonSchema, string]> {
  const num: JsonSchema = { type: 'number' };
  const tighter: Record<string, [JsonSchema, JsonSchema, JsonSchema?]> = {
    // [looser, tighter, incomparable with tighter]
    'length-limit': [str, { type: 'string', maxLength: 10 }],
    'item-count-limit': [{ type: 'array' }, { type: 'array', maxItems: 100 }],
    'property-count-limit': [{ type: 'object' }, { type: 'object', minProperties: 1 }],
    'numeric-range': [num, { type: 'number', minimum: 0 }],
    'multiple-of': [
      { type: 'number', multipleOf: 2 },
      { type: 'number', multipleOf: 4 },
      { type: 'number', multipleOf: 3 },
    ],
    pattern: [str, { type: 'string', pattern: '^a' }, { type: 'string', pattern: '^b' }],
    format: [str, { type: 'string', format: 'date-time' }, { type: 'string', format: 'uri' }],
    'unique-items': [{ type: 'array' }, { type: 'array', uniqueItems: true }],
    not: [str, { type: 'string', not: { const: 'x' } }, { type: 'string', not: { const: 'y' } }],
    'pattern-properties': [
      { type: 'object' },
      { type: 'object', patternProperties: { '^x': str } },
      { type: 'object', patternProperties: { '^y': str } },
    ],
    'property-names': [
      { type: 'object' },
      { type: 'object', propertyNames: { maxLength: 5 } },
      { type: 'object', propertyNames: { maxLength: 6 } },
    ],
  };
  const out: Record<string, [JsonSchema, JsonSchema, string]> = {};
  for (const [group, [loose, tight, other]] of Object.entries(tighter)) {
    out[`${group}-tightened`] = [obj({ k: loose }), obj({ k: tight }), '.k'];
    out[`${group}-loosened`] = [obj({ k: tight }), obj({ k: loose }), '.k'];
    if (other) out[`${group}-changed`] = [obj({ k: tight }), obj({ k: other }), '.k'];
  }
  return out;
}

/**
 * [writer, reader] verdicts per change kind, written out by hand from the frame in schema/diff-rules.md
 * (old writer vs new reader: rejected → breaking; old reader vs new writer: a new type or a missing
 * promised value → breaking, new values → potentially breaking).
 */
function wr(shape: string): [Verdict, Verdict] {
  const fixed: Record<string, [Verdict, Verdict]> = {
    'property-added': [N, N],
    'property-removed': [N, N],
    'required-property-removed': [N, B],
    'required-added': [B, N],
    'required-removed': [N, B],
    'type-widened': [N, B],
    'type-narrowed': [B, N],
    'type-changed': [B, B],
    'enum-value-added': [N, P],
    'enum-value-removed': [B, N],
    'enum-constraint-added': [B, N],
    'enum-constraint-removed': [N, P],
    'const-changed': [B, B],
    'union-member-added': [N, P],
    'union-member-removed': [B, N],
    'additional-properties-widened': [N, P],
    'additional-properties-narrowed': [B, N],
  };
  if (fixed[shape]) return fixed[shape];
  if (shape.endsWith('-tightened')) return [B, N];
  if (shape.endsWith('-loosened')) return [N, P];
  if (shape.endsWith('-changed')) return [P, P];
  throw new Error(`no expected verdicts for ${shape}`);
}
/** A caller whose param is removed loses what it asked for: potentially breaking; other writers only inform. */
const writerFor = (shape: string, part: 'params' | 'result' | 'payload' | 'envelope'): Verdict =>
  (shape === 'property-removed' || shape === 'required-property-removed') && part === 'params' ? P : wr(shape)[0];

describe('structural rules, per part and direction', () => {
  const shapes = Object.keys(SHAPES) as Shape[];

  test.each(shapes)('request params (client->server: client writes, server reads): %s', (shape) => {
    const [before, after, suffix] = SHAPES[shape];
    const r = run({ requests: { 'x/do': { params: before } } }, { requests: { 'x/do': { params: after } } });
    check(r, [[`request-param-${shape}`, 'x/do', `params${suffix}`, writerFor(shape, 'params'), wr(shape)[1]]]);
    expect(r.facts[0]!.location.part).toBe('params');
    expect(r.facts[0]!.location.key).toBe(`x/do/params/${suffix.slice(1)}`);
  });

  test.each(shapes)('request params (server->client: the server writes, the client reads): %s', (shape) => {
    const [before, after, suffix] = SHAPES[shape];
    const r = run(
      { requests: { 'x/ask': { params: before, direction: 'server' } } },
      { requests: { 'x/ask': { params: after, direction: 'server' } } },
    );
    check(r, [[`request-param-${shape}`, 'x/ask', `params${suffix}`, wr(shape)[1], writerFor(shape, 'params')]]);
  });

  test.each(shapes)('result (client->server: the server writes, the client reads): %s', (shape) => {
    const [before, after, suffix] = SHAPES[shape];
    const r = run({ requests: { 'x/do': { result: before } } }, { requests: { 'x/do': { result: after } } });
    check(r, [[`result-${shape}`, 'x/do', `result${suffix}`, wr(shape)[1], writerFor(shape, 'result')]]);
  });

  test.each(shapes)('result (input request: the client writes, the server reads): %s', (shape) => {
    const [before, after, suffix] = SHAPES[shape];
    const r = run(
      { requests: { 'x/ask': { result: before, direction: 'input' } } },
      { requests: { 'x/ask': { result: after, direction: 'input' } } },
    );
    check(r, [[`result-${shape}`, 'x/ask', `result${suffix}`, writerFor(shape, 'result'), wr(shape)[1]]]);
  });

  test.each(shapes)('notification payload (server->client: the server writes, the client reads): %s', (shape) => {
    const [before, after, suffix] = SHAPES[shape];
    const r = run(
      { notifications: { 'notifications/x': { params: before } } },
      { notifications: { 'notifications/x': { params: after } } },
    );
    check(r, [
      [
        `notification-payload-${shape}`,
        'notifications/x',
        `params${suffix}`,
        wr(shape)[1],
        writerFor(shape, 'payload'),
      ],
    ]);
  });

  test.each(shapes)(
    'notification payload sent both ways: each side gets the worst of writer and reader: %s',
    (shape) => {
      const [before, after, suffix] = SHAPES[shape];
      const r = run(
        { notifications: { 'notifications/x': { params: before, direction: 'both' } } },
        { notifications: { 'notifications/x': { params: after, direction: 'both' } } },
      );
      const w = writerFor(shape, 'payload');
      const worst = [B, P, N].find((v) => v === w || v === wr(shape)[1])!;
      check(r, [[`notification-payload-${shape}`, 'notifications/x', `params${suffix}`, worst, worst]]);
    },
  );

  test.each(shapes)('JSON-RPC envelope (every side writes and reads it: the worst of both): %s', (shape) => {
    const [before, after, suffix] = SHAPES[shape];
    const errorEnvelope = (error: JsonSchema): FixtureSpec => ({
      requests: { 'a/keep': {} },
      extraDefs: {
        Wire: { anyOf: [{ $ref: '#/$defs/Failure' }] },
        Failure: obj({ jsonrpc: { const: '2.0' }, id: str, error }, ['jsonrpc', 'error']),
      },
    });
    const r = run(errorEnvelope(before), errorEnvelope(after));
    const [w, rd] = wr(shape);
    const worst = [B, P, N].find((v) => v === w || v === rd) ?? N;
    check(r, [[`envelope-${shape}`, 'error-response', `envelope.error${suffix}`, worst, worst]]);
    expect(r.facts[0]!.location.part).toBe('envelope');
    expect(r.facts[0]!.location.key).toBe(`error-response/envelope/error${suffix}`);
  });

  test('the envelope is found from structure and compared: the jsonrpc constant changed', () => {
    const wire = (version: string): FixtureSpec => ({
      requests: { 'a/keep': {} },
      extraDefs: {
        AnyMessage: { anyOf: [{ $ref: '#/$defs/Call' }, { $ref: '#/$defs/Tell' }] },
        Call: obj({ jsonrpc: { const: version }, id: str, method: str, params: obj({}) }, ['jsonrpc', 'id', 'method']),
        Tell: obj({ jsonrpc: { const: version }, method: str }, ['jsonrpc', 'method']),
      },
    });
    check(run(wire('2.0'), wire('3.0')), [
      ['envelope-const-changed', 'notification', 'envelope.jsonrpc', B, B],
      ['envelope-const-changed', 'request', 'envelope.jsonrpc', B, B],
    ]);
  });

  test('batches are envelope shapes too, where both versions have them (2025-03-26)', () => {
    const original = versionJson('2025-03-26');
    const changed = structuredClone(original);
    const defs = changed.definitions as Record<string, JsonSchema>;
    // A batch response may no longer hold errors.
    defs.JSONRPCBatchResponse = { type: 'array', items: { $ref: '#/definitions/JSONRPCResponse' } };
    const r = diffModels(modelOf(original, 'old.json'), modelOf(changed, 'new.json'));
    check(r, [['envelope-union-member-removed', 'batch-response', 'envelope[]', B, B]]);
  });

  test('a new required property is required-added (newProperty: true)', () => {
    const r = run(
      { requests: { 'x/do': { params: obj({ a: str }) } } },
      { requests: { 'x/do': { params: obj({ a: str, b: str }, ['b']) } } },
    );
    check(r, [['request-param-required-added', 'x/do', 'params.b', B, N]]);
    expect(r.facts[0]!.details).toEqual({ newProperty: true, property: 'b' });
    expect(r.facts[0]!.location.newPointer).toBe('#/$defs/XDoRequestParams/properties/b');
    expect(r.facts[0]!.location.oldPointer).toBe('#/$defs/XDoRequestParams');
  });

  test('array items are compared (path `[]`)', () => {
    const r = run(
      { requests: { 'x/do': { result: obj({ list: { type: 'array', items: obj({ id: { type: 'integer' } }) } }) } } },
      { requests: { 'x/do': { result: obj({ list: { type: 'array', items: obj({ id: str }) } }) } } },
    );
    check(r, [['result-type-changed', 'x/do', 'result.list[].id', B, B]]);
    expect(r.facts[0]!.details).toEqual({ newTypes: ['string'], oldTypes: ['integer'] });
  });

  test('additionalProperties value schemas are compared (path `{}`)', () => {
    const r = run(
      {
        requests: {
          'x/do': { result: obj({ m: { type: 'object', additionalProperties: { type: 'string', enum: ['a'] } } }) },
        },
      },
      {
        requests: {
          'x/do': {
            result: obj({ m: { type: 'object', additionalProperties: { type: 'string', enum: ['a', 'b'] } } }),
          },
        },
      },
    );
    check(r, [['result-enum-value-added', 'x/do', 'result.m{}', P, N]]);
    expect(r.facts[0]!.details).toEqual({ values: ['b'] });
  });

  test('type given as a list: string|null → string is narrowed', () => {
    const r = run(
      { requests: { 'x/do': { params: obj({ a: { type: ['string', 'null'] } }) } } },
      { requests: { 'x/do': { params: obj({ a: str }) } } },
    );
    check(r, [['request-param-type-narrowed', 'x/do', 'params.a', B, N]]);
  });

  test('one change, one verdict: a reader that may now get an array is type-widened, spelt with `type` or `anyOf`', () => {
    const text = { type: 'object', properties: { text: str } };
    const list = { type: 'array', items: str };
    const asTypeList = run(
      { requests: { 'x/do': { result: obj({ v: str }) } } },
      { requests: { 'x/do': { result: obj({ v: { type: ['string', 'array'], items: str } }) } } },
    );
    const asAnyOf = run(
      { requests: { 'x/do': { result: obj({ v: { anyOf: [text, { type: 'null' }] } }) } } },
      { requests: { 'x/do': { result: obj({ v: { anyOf: [text, { type: 'null' }, list] } }) } } },
    );
    check(asTypeList, [['result-type-widened', 'x/do', 'result.v', B, N]]);
    check(asAnyOf, [['result-type-widened', 'x/do', 'result.v', B, N]]);
    // A member of a type the union already accepted is a new variant, as before.
    const sameType = run(
      { requests: { 'x/do': { result: obj({ v: { anyOf: [text, obj({ data: str })] } }) } } },
      { requests: { 'x/do': { result: obj({ v: { anyOf: [text, obj({ data: str }), obj({ n: str })] } }) } } },
    );
    check(sameType, [['result-union-member-added', 'x/do', 'result.v', P, N]]);
  });

  test('keywords that accept everything are no change; the same keyword with a real bound is', () => {
    const tuple = { type: 'array', prefixItems: [str, str], items: false };
    const noOps: [JsonSchema, JsonSchema][] = [
      [{ type: 'array' }, { type: 'array', minItems: 0 }],
      [str, { type: 'string', minLength: 0 }],
      [{ type: 'object' }, { type: 'object', minProperties: 0 }],
      [{ type: 'integer' }, { type: 'integer', multipleOf: 1 }],
      [tuple, { ...tuple, maxItems: 2 }],
    ];
    for (const [before, after] of noOps) {
      check(
        run(
          { requests: { 'x/do': { params: obj({ k: before }) } } },
          { requests: { 'x/do': { params: obj({ k: after }) } } },
        ),
        [],
      );
    }
    const real = run(
      { requests: { 'x/do': { params: obj({ k: { type: 'number' } }) } } },
      { requests: { 'x/do': { params: obj({ k: { type: 'number', multipleOf: 1 } }) } } },
    );
    check(real, [['request-param-multiple-of-tightened', 'x/do', 'params.k', B, N]]);
  });

  test('a renamed const discriminator of a union member is breaking for its reader', () => {
    const link = (type: string) => obj({ type: { type: 'string', const: type }, uri: str }, ['type', 'uri']);
    const spec = (type: string): FixtureSpec => ({
      requests: {
        'x/do': { result: obj({ c: { anyOf: [{ $ref: '#/$defs/ResourceLink' }, obj({ text: str })] } }) },
      },
      extraDefs: { ResourceLink: link(type) },
    });
    const r = run(spec('resource_link'), spec('resourceLink'));
    check(r, [['result-const-changed', 'x/do', 'result.c<ResourceLink>.type', B, B]]);
    expect(r.facts[0]!.details).toEqual({ new: 'resourceLink', old: 'resource_link' });
  });

  test('union members are matched by structure, through $refs with other names, in another order', () => {
    const extraOld = {
      Alpha: obj({ kind: { const: 'alpha' }, v: str }, ['kind']),
      Beta: obj({ kind: { const: 'beta' }, w: { type: 'integer' } }, ['kind']),
    };
    const extraNew = {
      B2: obj({ kind: { const: 'beta' }, w: { type: 'number' } }, ['kind']),
      A2: obj({ kind: { const: 'alpha' }, v: str }, ['kind']),
    };
    const r = run(
      {
        requests: {
          'x/do': { result: obj({ item: { oneOf: [{ $ref: '#/$defs/Alpha' }, { $ref: '#/$defs/Beta' }] } }) },
        },
        extraDefs: extraOld,
      },
      {
        requests: { 'x/do': { result: obj({ item: { anyOf: [{ $ref: '#/$defs/B2' }, { $ref: '#/$defs/A2' }] } }) } },
        extraDefs: extraNew,
      },
    );
    check(r, [['result-type-widened', 'x/do', 'result.item<B2>.w', B, N]]);
    expect(r.facts[0]!.location.oldPointer).toBe('#/$defs/Beta/properties/w');
    expect(r.facts[0]!.location.newPointer).toBe('#/$defs/B2/properties/w');
  });

  test('cycles are followed once: recursive and mutually recursive definitions terminate', () => {
    const tree = (leafType: string): Record<string, JsonSchema> => ({
      Node: obj({
        value: { type: leafType },
        children: { type: 'array', items: { $ref: '#/$defs/Node' } },
        other: { $ref: '#/$defs/Other' },
      }),
      Other: obj({ back: { $ref: '#/$defs/Node' } }),
    });
    const r = run(
      { requests: { 'x/do': { result: obj({ root: { $ref: '#/$defs/Node' } }) } }, extraDefs: tree('integer') },
      { requests: { 'x/do': { result: obj({ root: { $ref: '#/$defs/Node' } }) } }, extraDefs: tree('number') },
    );
    check(r, [['result-type-widened', 'x/do', 'result.root.value', B, N]]);
  });

  test('a cycle cut while comparing one method does not hide changes from another method entering the cycle elsewhere', () => {
    const tree = (leafType: string): Record<string, JsonSchema> => ({
      Node: obj({ value: { type: leafType }, other: { $ref: '#/$defs/Other' } }),
      Other: obj({ back: { $ref: '#/$defs/Node' } }),
    });
    const spec = (leafType: string): FixtureSpec => ({
      requests: {
        'a/node': { result: obj({ n: { $ref: '#/$defs/Node' } }) },
        'b/other': { result: obj({ o: { $ref: '#/$defs/Other' } }) },
      },
      extraDefs: tree(leafType),
    });
    // The same change (same pointers) reached from both methods: one fact naming both.
    const r = run(spec('integer'), spec('number'));
    check(r, [['result-type-widened', 'a/node', 'result.n.value', B, N]]);
    expect(r.facts[0]!.location.methods).toEqual(['a/node', 'b/other']);
  });
});

describe('method rules', () => {
  const base: FixtureSpec = { requests: { 'a/keep': {} } };
  const cases: [name: string, old: FixtureSpec, neu: FixtureSpec, expected: Expected[]][] = [
    ['request added', base, { requests: { 'a/keep': {}, 'b/new': {} } }, [['method-added', 'b/new', '', N, N]]],
    [
      'a request every implementer must answer (its result declares capabilities) added: breaks old implementers',
      base,
      {
        requests: {
          'a/keep': {},
          'server/hello': { result: obj({ capabilities: obj({}) }, ['capabilities']) },
        },
      },
      [['required-method-added', 'server/hello', '', N, B]],
    ],
    [
      'client->server request removed: breaks the calling client',
      { requests: { 'a/keep': {}, 'b/old': {} } },
      base,
      [['method-removed', 'b/old', '', B, N]],
    ],
    [
      'server->client request removed: breaks the calling server',
      { requests: { 'a/keep': {}, 'b/old': { direction: 'server' } } },
      base,
      [['method-removed', 'b/old', '', N, B]],
    ],
    [
      'request sent both ways removed: breaks both',
      { requests: { 'a/keep': {}, ping: { direction: 'both' } } },
      base,
      [['method-removed', 'ping', '', B, B]],
    ],
    [
      'input request removed: breaks the asking server',
      { requests: { 'a/keep': {}, 'b/ask': { direction: 'input' } } },
      base,
      [['method-removed', 'b/ask', '', N, B]],
    ],
    [
      'direction added',
      { requests: { 'a/keep': {}, ping: {} } },
      { requests: { 'a/keep': {}, ping: { direction: 'both' } } },
      [['method-direction-added', 'ping', '', N, N]],
    ],
    [
      'server->client request moved to an input request',
      { requests: { 'a/keep': {}, 'b/ask': { direction: 'server' } } },
      { requests: { 'a/keep': {}, 'b/ask': { direction: 'input' } } },
      [
        ['method-direction-added', 'b/ask', '', N, N],
        ['method-direction-removed', 'b/ask', '', N, B],
      ],
    ],
    [
      'notification added',
      { ...base, notifications: { 'n/a': {} } },
      { ...base, notifications: { 'n/a': {}, 'n/b': { direction: 'client' } } },
      [['notification-added', 'n/b', '', N, N]],
    ],
    [
      'server->client notification removed: breaks the waiting client',
      { ...base, notifications: { 'n/a': {}, 'n/b': {} } },
      { ...base, notifications: { 'n/a': {} } },
      [['notification-removed', 'n/b', '', B, P]],
    ],
    [
      'notification direction removed',
      { ...base, notifications: { 'n/a': { direction: 'both' } } },
      { ...base, notifications: { 'n/a': { direction: 'server' } } },
      [['notification-direction-removed', 'n/a', '', P, B]],
    ],
    [
      'notification direction added',
      { ...base, notifications: { 'n/a': { direction: 'server' } } },
      { ...base, notifications: { 'n/a': { direction: 'both' } } },
      [['notification-direction-added', 'n/a', '', N, N]],
    ],
    [
      'request became a notification',
      { requests: { 'a/keep': {}, 'x/y': {} }, notifications: { 'n/a': {} } },
      { requests: { 'a/keep': {} }, notifications: { 'n/a': {}, 'x/y': { direction: 'client' } } },
      [['method-kind-changed', 'x/y', '', B, B]],
    ],
    [
      'request params became required',
      { requests: { 'a/keep': {}, 'x/y': { params: obj({}), paramsRequired: false } } },
      { requests: { 'a/keep': {}, 'x/y': { params: obj({}), paramsRequired: true } } },
      [['request-params-became-required', 'x/y', '', B, N]],
    ],
    [
      'request params became optional',
      { requests: { 'a/keep': {}, 'x/y': { params: obj({}), paramsRequired: true } } },
      { requests: { 'a/keep': {}, 'x/y': { params: obj({}), paramsRequired: false } } },
      [['request-params-became-optional', 'x/y', '', N, B]],
    ],
    [
      'notification params became required (server sends)',
      { ...base, notifications: { 'n/a': { params: obj({}), paramsRequired: false } } },
      { ...base, notifications: { 'n/a': { params: obj({}), paramsRequired: true } } },
      [['notification-params-became-required', 'n/a', '', N, B]],
    ],
    [
      'notification params became optional (client receives)',
      { ...base, notifications: { 'n/a': { params: obj({}), paramsRequired: true } } },
      { ...base, notifications: { 'n/a': { params: obj({}), paramsRequired: false } } },
      [['notification-params-became-optional', 'n/a', '', B, N]],
    ],
  ];
  test.each(cases)('%s', (_name, o, n, expected) => {
    check(run(o, n), expected);
  });

  test('removed method pointers and directions', () => {
    const r = run({ requests: { 'a/keep': {}, 'b/old': { direction: 'both' } } }, base);
    expect(r.facts[0]!.location).toEqual({
      method: 'b/old',
      methods: ['b/old'],
      kind: 'request',
      directions: ['client->server', 'server->client'],
      part: 'method',
      path: '',
      key: 'b/old/method',
      oldPointer: '#/$defs/BOldRequest',
      newPointer: null,
      side: 'old',
    });
  });
});

describe('protocol rules', () => {
  const base: FixtureSpec = { requests: { 'a/keep': {} } };
  const withDefs = (extraDefs: Record<string, JsonSchema>): FixtureSpec => ({ ...base, extraDefs });
  // Features are read from structure; the definition names here are deliberately unlike the spec's.
  const perRequestMeta: FixtureSpec = {
    requests: { 'a/keep': { params: obj({ _meta: { $ref: '#/$defs/M' } }) } },
    extraDefs: { M: obj({ 'io.modelcontextprotocol/clientCapabilities': obj({ experimental: obj({}) }) }) },
  };
  // A result that asks for input: a property whose values are requests (messages with a method).
  const asking: FixtureSpec = {
    requests: {
      'a/keep': { result: obj({ asks: { type: 'object', additionalProperties: { $ref: '#/$defs/Ask' } } }) },
    },
    extraDefs: { Ask: obj({ method: { const: 'x/ask' }, params: obj({}) }, ['method']) },
  };
  const notAsking: FixtureSpec = { ...asking, requests: { 'a/keep': { result: obj({}) } } };
  const plainMeta: FixtureSpec = {
    requests: { 'a/keep': { params: obj({ _meta: { $ref: '#/$defs/M' } }) } },
    extraDefs: { M: obj({}) },
  };
  const cases: [name: string, old: FixtureSpec, neu: FixtureSpec, expected: Expected[]][] = [
    ['batching removed', { ...base, batches: true }, base, [['batching-removed', 'batches', '', B, B]]],
    ['batching added', base, { ...base, batches: true }, [['batching-added', 'batches', '', P, P]]],
    [
      'initialize removed',
      { requests: { 'a/keep': {}, initialize: {} } },
      base,
      [
        ['initialize-removed', 'initialize', '', B, B],
        ['method-removed', 'initialize', '', B, N],
      ],
    ],
    [
      'initialize added',
      base,
      { requests: { 'a/keep': {}, initialize: {} } },
      [
        ['initialize-added', 'initialize', '', B, B],
        ['method-added', 'initialize', '', N, N],
      ],
    ],
    [
      'per-request meta added',
      plainMeta,
      perRequestMeta,
      [
        ['per-request-meta-added', 'per-request-meta', '', B, P],
        ['request-param-property-added', 'a/keep', 'params._meta["io.modelcontextprotocol/clientCapabilities"]', N, N],
      ],
    ],
    [
      'per-request meta removed',
      perRequestMeta,
      plainMeta,
      [
        ['per-request-meta-removed', 'per-request-meta', '', P, B],
        [
          'request-param-property-removed',
          'a/keep',
          'params._meta["io.modelcontextprotocol/clientCapabilities"]',
          P,
          N,
        ],
      ],
    ],
    [
      'input requests added',
      notAsking,
      asking,
      [
        ['input-requests-added', 'input-requests', '', B, N],
        ['result-property-added', 'a/keep', 'result.asks', N, N],
      ],
    ],
    [
      'input requests removed',
      asking,
      notAsking,
      [
        ['input-requests-removed', 'input-requests', '', N, B],
        ['result-property-removed', 'a/keep', 'result.asks', N, N],
      ],
    ],
    [
      'a property named inputRequests in a definition no result uses is no feature',
      base,
      withDefs({ AskMore: obj({ inputRequests: obj({}) }) }),
      [],
    ],
    [
      'one optional io.modelcontextprotocol/ key in a request _meta is no per-request client info',
      plainMeta,
      {
        ...plainMeta,
        extraDefs: { M: obj({ 'io.modelcontextprotocol/related-task': obj({ taskId: { type: 'string' } }) }) },
      },
      [['request-param-property-added', 'a/keep', 'params._meta["io.modelcontextprotocol/related-task"]', N, N]],
    ],
    [
      'capability extensions added',
      withDefs({ Caps: obj({ experimental: obj({}) }) }),
      withDefs({ Caps: obj({ experimental: obj({}), extensions: obj({}) }) }),
      [['capability-extensions-added', 'capability-extensions', '', N, N]],
    ],
    [
      'capability extensions removed',
      withDefs({ Caps: obj({ experimental: obj({}), extensions: obj({}) }) }),
      withDefs({ Caps: obj({ experimental: obj({}) }) }),
      [['capability-extensions-removed', 'capability-extensions', '', P, P]],
    ],
    [
      'extension id changed: one fact, breaking both sides, not a capability key removed and one added',
      withDefs({
        Caps: obj({ experimental: obj({}), extensions: obj({ 'acme/x': obj({ on: { type: 'boolean' } }) }) }),
      }),
      withDefs({
        Caps: obj({ experimental: obj({}), extensions: obj({ 'acme/y': obj({ on: { type: 'boolean' } }) }) }),
      }),
      [['extension-id-changed', 'acme/y', '', B, B]],
    ],
  ];
  test.each(cases)('%s', (_name, o, n, expected) => {
    check(run(o, n), expected);
  });
});

describe('result pairing rules', () => {
  // The result definition renamed away from `<X>Result`: no rule pairs the request any more.
  const paired = fixture({ requests: { 'a/b': { direction: 'server' } } });
  const unpaired = structuredClone(paired);
  const defs = unpaired.$defs as Record<string, JsonSchema>;
  defs.Answer = defs.ABResult!;
  delete defs.ABResult;
  test('result-became-unknown and result-became-known (a server->client request: the client writes)', () => {
    check(diffModels(modelOf(paired), modelOf(unpaired)), [['result-became-unknown', 'a/b', 'result', N, P]]);
    check(diffModels(modelOf(unpaired), modelOf(paired)), [['result-became-known', 'a/b', 'result', P, N]]);
  });
});

describe('descriptions', () => {
  test('description-only changes are no facts unless asked for', () => {
    const o: FixtureSpec = {
      requests: { 'x/do': { params: { ...obj({ a: { type: 'string', description: 'old' } }), description: 'P' } } },
    };
    const n: FixtureSpec = {
      requests: { 'x/do': { params: { ...obj({ a: { type: 'string', description: 'new' } }), description: 'P' } } },
    };
    expect(run(o, n).facts).toEqual([]);
    const r = run(o, n, { includeDescriptions: true });
    check(r, [['description-changed', 'x/do', 'params.a', N, N]]);
    expect(r.facts[0]!.details).toEqual({ new: 'new', old: 'old' });
  });
});

/** Per rule and role, the verdict the frame gives — written out here, independently of src/diff/rules.ts. */
const METHOD_TABLE: Record<string, [caller: Verdict, implementer: Verdict]> = {
  'method-added': [N, N],
  'required-method-added': [N, B],
  'method-removed': [B, N],
  'method-direction-added': [N, N],
  'method-direction-removed': [B, N],
  'notification-added': [N, N],
  'notification-removed': [P, B],
  'notification-direction-added': [N, N],
  'notification-direction-removed': [P, B],
  'method-kind-changed': [B, B],
  'request-params-became-required': [B, N],
  'request-params-became-optional': [N, B],
  'notification-params-became-required': [B, N],
  'notification-params-became-optional': [N, B],
};
const PROTOCOL_TABLE: Record<string, [client: Verdict, server: Verdict]> = {
  'batching-removed': [B, B],
  'batching-added': [P, P],
  'initialize-removed': [B, B],
  'initialize-added': [B, B],
  'per-request-meta-added': [B, P],
  'per-request-meta-removed': [P, B],
  'input-requests-added': [B, N],
  'input-requests-removed': [N, B],
  'capability-extensions-added': [N, N],
  'capability-extensions-removed': [P, P],
  'extension-id-changed': [B, B],
  'description-changed': [N, N],
};
const PREFIXES = {
  'request-param-': 'params',
  'result-': 'result',
  'notification-payload-': 'payload',
  'envelope-': 'envelope',
} as const;

function expectedRoles(id: string): unknown {
  if (METHOD_TABLE[id]) return { kind: 'call', caller: METHOD_TABLE[id][0], implementer: METHOD_TABLE[id][1] };
  if (PROTOCOL_TABLE[id]) return { kind: 'sides', client: PROTOCOL_TABLE[id][0], server: PROTOCOL_TABLE[id][1] };
  if (id === 'result-became-unknown') return { kind: 'data', writer: N, reader: P };
  if (id === 'result-became-known') return { kind: 'data', writer: P, reader: N };
  for (const [prefix, part] of Object.entries(PREFIXES)) {
    if (id.startsWith(prefix)) {
      const kind = id.slice(prefix.length);
      return { kind: 'data', writer: writerFor(kind, part), reader: wr(kind)[1] };
    }
  }
  throw new Error(`no table row for rule ${id}`);
}

describe('the rule frame, as a table', () => {
  test.each(rules().map((r) => [r.id, r] as const))('%s: verdict per role', (_id, rule) => {
    expect(rule.roles).toEqual(expectedRoles(rule.id));
  });

  test('the contradictions the frame removes', () => {
    // A required result property made optional: old clients read it unconditionally.
    expect(verdictsFor(ruleById('result-required-removed')!, 'result', ['client->server']).client).toBe(B);
    // An optional property removed: its readers already handle its absence.
    expect(ruleById('result-property-removed')!.roles).toEqual({ kind: 'data', writer: N, reader: N });
    // A request every implementer must answer, added: old implementers break.
    expect(verdictsFor(ruleById('required-method-added')!, 'method', ['client->server']).server).toBe(B);
  });
});

describe('ruleById: each rule derived when first asked for', () => {
  test('the same rule as the whole table has, for every id; nothing for an unknown id', () => {
    for (const r of rules()) expect(ruleById(r.id)).toEqual(r);
    expect(ruleById('request-param-no-such-change')).toBeUndefined();
    expect(ruleById('result-became-unknown')?.part).toBe('result');
  });
});

describe('rules()', () => {
  test('every rule has a fixture above', () => {
    // Runs last in this file: all the describe blocks above have filled `seen`.
    expect(
      rules()
        .map((r) => r.id)
        .filter((id) => !seen.has(id)),
    ).toEqual([]);
  });

  test('ids are unique, kebab-case, with a one-line reason and verdict logic', () => {
    const ids = rules().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of rules()) {
      expect(r.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(r.reason).not.toMatch(/\n/);
      expect(describeVerdictLogic(r)).toMatch(/breaking/);
    }
    expect(ruleById('method-removed')?.roles).toEqual({ kind: 'call', caller: B, implementer: N });
  });

  test('verdict logic swaps roles with the direction', () => {
    const rule = ruleById('result-required-property-removed')!;
    expect(verdictsFor(rule, 'result', ['client->server'])).toEqual({ client: B, server: N });
    expect(verdictsFor(rule, 'result', ['server->client'])).toEqual({ client: N, server: B });
    expect(verdictsFor(rule, 'result', ['input'])).toEqual({ client: N, server: B });
    expect(verdictsFor(rule, 'result', ['client->server', 'server->client'])).toEqual({ client: B, server: B });
  });

  test('renderRules lists every rule in each format', () => {
    const text = renderRules('text');
    const json = JSON.parse(renderRules('json')) as { id: string }[];
    const md = renderRules('markdown');
    for (const r of rules()) {
      expect(text).toContain(r.id);
      expect(md).toContain(`\`${r.id}\``);
    }
    expect(json.map((r) => r.id)).toEqual(rules().map((r) => r.id));
  });
});

test('schema/diff-rules.md carries the current rules table', async () => {
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { REPO_ROOT } = await import('./helpers.js');
  const doc = readFileSync(join(REPO_ROOT, 'schema', 'diff-rules.md'), 'utf8');
  expect(doc).toContain(renderRules('markdown'));
});
