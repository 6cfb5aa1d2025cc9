/**
 * What a side may answer with (ServerResult, ClientResult, … found from structure) and unions anywhere:
 * a member listed twice is one member (and a note in every format, since what was compared is not byte for
 * byte the file); a member removed from a closed result union while a request still answers with it is a
 * fact with a verdict per side; the JSONValue definition is compared as written (no repair applied).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { diffModels, renderReport, type DiffReport } from '../../src/diff/index.js';
import type { JsonSchema } from '../../src/load/schema-types.js';
import { runCli, tempDir } from '../cli/helpers.js';
import { SCHEMA_DIR, modelOf, versionJson } from './helpers.js';

const ref = (name: string): JsonSchema => ({ $ref: `#/$defs/${name}` });
const result = (property: string): JsonSchema => ({
  type: 'object',
  properties: { [property]: { type: 'string' } },
  required: [property],
  additionalProperties: false,
});

/** A handshake, foo/bar and foo/baz; the server's result union as given, and `extra` definitions. */
function schema(serverResult: string[], extra: Record<string, JsonSchema> = {}): JsonSchema {
  const capabilities: JsonSchema = {
    type: 'object',
    properties: { capabilities: { type: 'object' } },
    required: ['capabilities'],
  };
  const request = (method: string, params?: JsonSchema): JsonSchema => ({
    type: 'object',
    properties: { method: { const: method }, id: { type: 'integer' }, ...(params ? { params } : {}) },
    required: ['method', 'id'],
  });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $defs: {
      InitializeRequest: request('initialize', capabilities),
      InitializeResult: capabilities,
      FooBarRequest: request('foo/bar'),
      FooBarResult: result('bar'),
      FooBazRequest: request('foo/baz'),
      FooBazResult: result('baz'),
      ClientRequest: { anyOf: [ref('InitializeRequest'), ref('FooBarRequest'), ref('FooBazRequest')] },
      ServerResult: { anyOf: serverResult.map(ref) },
      ...extra,
    },
  };
}
const ALL = ['InitializeResult', 'FooBarResult', 'FooBazResult'];
const facts = (r: DiffReport) => r.facts.map((f) => [f.rule, f.location.key, f.verdicts.client, f.verdicts.server]);

describe('a union member listed twice', () => {
  test('in the result union: no change, and a note naming where', () => {
    const report = diffModels(modelOf(schema(ALL)), modelOf(schema([...ALL, 'FooBarResult'])));
    expect(facts(report)).toEqual([]);
    expect(report.notes).toEqual([
      {
        side: 'new',
        pointer: '#/$defs/ServerResult/anyOf/3',
        message: 'a union member listed again (as #/$defs/ServerResult/anyOf/1) is read once',
      },
    ]);
  });

  test('inline, inside a result: no union member added, no type narrowed', () => {
    const twice = (members: JsonSchema[]) =>
      schema(ALL, { FooBarResult: { type: 'object', properties: { bar: { anyOf: members } } } });
    const object: JsonSchema = { type: 'object', properties: { a: { type: 'string' } } };
    const report = diffModels(
      modelOf(twice([{ type: 'string' }, object])),
      modelOf(twice([{ type: 'string' }, object, object])),
    );
    expect(facts(report)).toEqual([]);
    expect(report.notes.map((n) => n.pointer)).toEqual(['#/$defs/FooBarResult/properties/bar/anyOf/2']);
  });

  test('the note in every format: text, markdown, json, github (at its line)', async () => {
    const dir = tempDir('union-twice');
    writeFileSync(join(dir, 'old.json'), JSON.stringify(schema(ALL), null, 2));
    writeFileSync(join(dir, 'new.json'), JSON.stringify(schema([...ALL, 'FooBarResult']), null, 2));
    const run = (format: string) => runCli(['diff', 'old.json', 'new.json', '--format', format], { cwd: dir });
    const note = 'normalised new #/$defs/ServerResult/anyOf/3: a union member listed again';
    const text = await run('text');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(note);
    expect((await run('markdown')).stdout).toContain(`- ${note}`);
    const json = JSON.parse((await run('json')).stdout) as DiffReport;
    expect(json.notes).toHaveLength(1);
    const github = (await run('github')).stdout;
    // The member object opens on the line before its `$ref` (lines count from 1).
    const lines = JSON.stringify(schema([...ALL, 'FooBarResult']), null, 2).split('\n');
    const refLine = lines.map((l) => l.includes('"$ref": "#/$defs/FooBarResult"')).lastIndexOf(true);
    const annotation = github.split('\n').find((l) => l.startsWith('::notice file='));
    expect(annotation).toMatch(
      /^::notice file=test\/\.tmp\/union-twice-[^/]+\/new\.json,line=\d+,title=normalised input::/,
    );
    expect(annotation).toContain(`,line=${refLine},`);
    expect(annotation).toContain(note);
  });
});

describe('a member removed from a closed result union', () => {
  test('while a request still answers with it: reported at the union, breaking for the side that writes it', () => {
    const report = diffModels(modelOf(schema(ALL)), modelOf(schema(['InitializeResult', 'FooBarResult'])));
    expect(facts(report)).toEqual([['result-union-member-removed', 'ServerResult/result', 'non-breaking', 'breaking']]);
    expect(report.facts[0]!.message).toBe('union member FooBazResult removed (still the result of foo/baz)');
    // Added back, the other way round: readers may get a variant their union did not list.
    const back = diffModels(modelOf(schema(['InitializeResult', 'FooBarResult'])), modelOf(schema(ALL)));
    expect(facts(back)).toEqual([
      ['result-union-member-added', 'ServerResult/result', 'potentially-breaking', 'non-breaking'],
    ]);
  });

  test('an open union (a member takes any object, as the generic Result) loses nothing: no fact', () => {
    const open = (members: string[]) => schema(members, { Result: { type: 'object' } });
    const report = diffModels(
      modelOf(open(['Result', ...ALL])),
      modelOf(open(['Result', 'InitializeResult', 'FooBarResult'])),
    );
    expect(facts(report)).toEqual([]);
  });
});

test('JSONValue is compared as written: a null added toward schema.ts is a fact, not a silent repair', async () => {
  const doc = versionJson('2026-07-28');
  const value = (doc.$defs as Record<string, JsonSchema>).JSONValue!;
  const primitives = (value.anyOf as JsonSchema[]).find((b) => Array.isArray(b.type))!;
  primitives.type = [...(primitives.type as string[]), 'null'];
  const dir = tempDir('json-value');
  writeFileSync(join(dir, 'new.json'), JSON.stringify(doc));
  const r = await runCli(['diff', '2026-07-28', 'new.json', '--schema-dir', SCHEMA_DIR, '--format', 'json'], {
    cwd: dir,
  });
  const report = JSON.parse(r.stdout) as DiffReport;
  expect(report.notes).toEqual([]);
  expect(report.facts.map((f) => f.rule)).toContain('request-param-type-widened');
  expect(renderReport(report, 'text')).toContain('null');
});
