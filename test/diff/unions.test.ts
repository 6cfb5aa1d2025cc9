/**
 * The model reads who sends what from structure (model/unions.ts): on every released schema the
 * structure says exactly what the spec's union names say, and a schema whose every definition is
 * renamed builds the same methods.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseSchemaText } from '../../src/load/index.js';
import { checkRefs } from '../../src/load/schema.js';
import type { JsonSchema } from '../../src/load/schema-types.js';
import { diffModels } from '../../src/diff/index.js';
import { definitionRefReader, messageUnions } from '../../src/model/unions.js';
import { resultUnions } from '../../src/model/result-unions.js';
import { modelOf, rewriteRefs, SCHEMA_DIR, VERSIONS, versionJson, versionModel, versionText } from './helpers.js';

const NAMED: Record<string, string> = {
  ClientRequest: 'request client->server',
  ServerRequest: 'request server->client',
  ClientNotification: 'notification client->server',
  ServerNotification: 'notification server->client',
  InputRequest: 'request input',
};

/** Every definition X renamed `Renamed${X}`, `$ref`s rewritten. */
function renamedAll(doc: JsonSchema): JsonSchema {
  const kw = doc.$defs ? '$defs' : 'definitions';
  const defs = doc[kw] as Record<string, JsonSchema>;
  const prefix = `#/${kw}/`;
  const renamed = { ...doc, [kw]: Object.fromEntries(Object.entries(defs).map(([k, s]) => [`Renamed${k}`, s])) };
  return rewriteRefs(renamed, (ref) =>
    ref.startsWith(prefix) ? `${prefix}Renamed${ref.slice(prefix.length)}` : ref,
  ) as JsonSchema;
}

/** One definition renamed, `$ref`s to it rewritten. */
function renamedOne(doc: JsonSchema, from: string, to: string): JsonSchema {
  const kw = doc.$defs ? '$defs' : 'definitions';
  const defs = doc[kw] as Record<string, JsonSchema>;
  const prefix = `#/${kw}/`;
  const renamed = { ...doc, [kw]: Object.fromEntries(Object.entries(defs).map(([k, s]) => [k === from ? to : k, s])) };
  return rewriteRefs(renamed, (ref) => {
    if (!ref.startsWith(prefix)) return ref;
    const [head, ...tail] = ref.slice(prefix.length).split('/');
    return prefix + [head === from ? to : head, ...tail].join('/');
  }) as JsonSchema;
}

describe.each(VERSIONS)('%s', (version) => {
  const schema = () => parseSchemaText(versionText(version), join(SCHEMA_DIR, version, 'schema.json'), version);

  test('every $ref resolves (the loader trusts published bytes and skips this walk for them)', () => {
    expect(schema().known).toBe(true);
    expect(() => checkRefs(versionJson(version), version)).not.toThrow();
    const broken = versionJson(version);
    const kw = broken.$defs ? '$defs' : 'definitions';
    (broken[kw] as Record<string, unknown>).Extra = { $ref: `#/${kw}/Missing` };
    expect(() => checkRefs(broken, version)).toThrow(`#/${kw}/Extra/$ref: dangling $ref`);
  });

  test('structure finds the unions the names announce, with the same kind and direction, and no others', () => {
    const s = schema();
    const refName = definitionRefReader(s.definitions, s.defsKeyword);
    const expected = Object.keys(NAMED)
      .filter((n) => Object.hasOwn(s.definitions, n))
      .map((n) => `${n} ${NAMED[n]}`)
      .sort();
    const found = messageUnions(s, refName, undefined).map((u) => `${u.definition} ${u.kind} ${u.direction}`);
    expect(found.sort()).toEqual(expected);
  });

  test('result unions: ServerResult is written by the server, the client writes the other', () => {
    const m = versionModel(version);
    const unions = resultUnions(m.definitions, m.methods, definitionRefReader(m.definitions, m.defsKeyword));
    const clientUnion = version === '2026-07-28' ? 'InputResponse' : 'ClientResult';
    expect(unions.map((u) => `${u.writer} ${u.definition}`)).toEqual([`server ServerResult`, `client ${clientUnion}`]);
  });

  test('every definition renamed: the same methods, directions and pairings (under the new names)', () => {
    const summary = (m: ReturnType<typeof modelOf>, prefix: string) =>
      m.methods.map((x) => ({
        method: x.method,
        kind: x.kind,
        directions: x.directions,
        definition: x.definition.slice(prefix.length),
        result: x.result?.map((r) => r.slice(prefix.length)),
        unknown: x.resultUnknown ?? false,
      }));
    const renamed = modelOf(renamedAll(versionJson(version)));
    expect(summary(renamed, 'Renamed')).toEqual(summary(versionModel(version), ''));
    expect(renamed.warnings).toEqual([]);
  });

  test('each message, result and response definition renamed alone (breaking the <X>Request → <X>Result names): 0 facts', () => {
    // The name rules miss these; the response definitions and the result unions pair them (pair-structure.ts).
    const original = versionModel(version);
    const defs = Object.keys(original.definitions);
    const names = new Set([
      ...original.methods.filter((m) => m.kind === 'request').flatMap((m) => [m.definition, ...(m.result ?? [])]),
      ...defs.filter((d) => d.endsWith('ResultResponse')),
    ]);
    const facts: string[] = [];
    for (const name of names) {
      const model = modelOf(renamedOne(versionJson(version), name, `Zz${name.length}`));
      for (const f of diffModels(original, model).facts) facts.push(`${name}: ${f.rule} ${f.location.key}`);
    }
    expect(facts).toEqual([]);
  });
});
