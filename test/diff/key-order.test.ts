/**
 * Key order means nothing in JSON Schema, and nothing to the model: each released schema rewritten with its
 * definitions in another order (and every object's keys shuffled) builds the same methods, directions,
 * pairings and features, and diffs against the original as "No changes".
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { diffSources, renderText } from '../../src/diff/index.js';
import { parseSchemaText } from '../../src/load/index.js';
import type { JsonSchema } from '../../src/load/schema-types.js';
import { buildModel, type ProtocolModel } from '../../src/model/index.js';
import { runCli, tempDir } from '../cli/helpers.js';
import { SCHEMA_DIR, VERSIONS, versionJson, versionText } from './helpers.js';

const dir = tempDir('key-order');

/** A small deterministic generator (the same shuffles on every run). */
function shuffler(seed: number): <T>(items: T[]) => T[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return (items) => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
}

/** Every object's keys in another order; arrays (anyOf members, required lists) as they are. */
function shuffledKeys(node: unknown, shuffle: <T>(items: T[]) => T[]): unknown {
  if (Array.isArray(node)) return node.map((x) => shuffledKeys(x, shuffle));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const key of shuffle(Object.keys(node)))
    out[key] = shuffledKeys((node as Record<string, unknown>)[key], shuffle);
  return out;
}

function withDefinitions(doc: JsonSchema, order: (names: string[]) => string[]): JsonSchema {
  const kw = doc.$defs ? '$defs' : 'definitions';
  const defs = doc[kw] as Record<string, JsonSchema>;
  return { ...doc, [kw]: Object.fromEntries(order(Object.keys(defs)).map((name) => [name, defs[name]])) };
}

const REWRITES: [string, (doc: JsonSchema) => JsonSchema][] = [
  ['definitions reversed', (doc) => withDefinitions(doc, (names) => names.reverse())],
  [
    'ClientNotification first',
    (doc) =>
      withDefinitions(doc, (names) => ['ClientNotification', ...names.filter((n) => n !== 'ClientNotification')]),
  ],
  ['every key shuffled', (doc) => shuffledKeys(doc, shuffler(7)) as JsonSchema],
  ['every key shuffled again', (doc) => shuffledKeys(doc, shuffler(45)) as JsonSchema],
];

/** The model's facts, keys sorted: what must not depend on key order (properties may list in file order). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
  );
}
const modelFacts = (m: ProtocolModel) =>
  sorted({ methods: m.methods, features: m.features, featureDefinitions: m.featureDefinitions, facts: m.facts });

describe.each(VERSIONS)('%s rewritten in another key order', (version) => {
  const original = buildModel(parseSchemaText(versionText(version), `${version}.json`, version));

  test.each(REWRITES)('%s: the same model', (_name, rewrite) => {
    const text = JSON.stringify(rewrite(versionJson(version)));
    const model = buildModel(parseSchemaText(text, `${version}-rewritten.json`, version));
    expect(modelFacts(model)).toEqual(modelFacts(original));
    expect(model.warnings).toEqual(original.warnings);
  });

  test('diff against the published schema: "No changes"', async () => {
    const file = join(dir, `${version}-reversed.json`);
    writeFileSync(
      file,
      JSON.stringify(
        withDefinitions(versionJson(version), (names) => names.reverse()),
        null,
        2,
      ),
    );
    const { report } = await diffSources(version, file, { schemaDir: SCHEMA_DIR, cwd: dir });
    expect(report.facts).toEqual([]);
    expect(renderText(report)).toContain('No changes.');
  });
});

test('2026-07-28 with ClientNotification moved to the top: methods and diff exit 0 (they refused it)', async () => {
  const file = join(dir, 'client-notification-first.json');
  const doc = withDefinitions(versionJson('2026-07-28'), (names) => [
    'ClientNotification',
    ...names.filter((n) => n !== 'ClientNotification'),
  ]);
  writeFileSync(file, JSON.stringify(doc, null, 2));
  const methods = await runCli(['methods', '--schema', file, '--json']);
  expect(methods.stderr).not.toContain('error');
  expect(methods.code).toBe(0);
  const diff = await runCli(['diff', '2026-07-28', file, '--schema-dir', SCHEMA_DIR]);
  expect(diff.code).toBe(0);
  expect(diff.stdout).toContain('No changes.');
});
