/** Deduplicated facts, result unions, schema line lookup, and the github format from the CLI. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { diffModels, pointerLines } from '../../src/diff/index.js';
import type { JsonSchema } from '../../src/load/schema-types.js';
import { cli, tempDir } from '../helpers/generate.js';
import { fixture, modelOf, REPO_ROOT } from './helpers.js';

const obj = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required,
});
const shared = (t: string) => ({ Shared: obj({ v: { type: t } }) });

describe('deduplication by (rule, old pointer, new pointer)', () => {
  test('one change to a definition embedded in three messages, in two directions: one fact', () => {
    const spec = (t: string) =>
      fixture({
        requests: {
          'a/one': { params: obj({ s: { $ref: '#/$defs/Shared' } }) },
          'b/two': { params: obj({ t: { $ref: '#/$defs/Shared' } }) },
          'c/ask': { params: obj({ s: { $ref: '#/$defs/Shared' } }), direction: 'server' },
        },
        extraDefs: shared(t),
      });
    const r = diffModels(modelOf(spec('integer')), modelOf(spec('number')));
    expect(r.facts).toHaveLength(1);
    const f = r.facts[0]!;
    expect(f.rule).toBe('request-param-type-widened');
    expect(f.location.methods).toEqual(['a/one', 'b/two', 'c/ask']);
    expect(f.location.directions).toEqual(['client->server', 'server->client']);
    // The reader is the server for a/one and b/two, the client for c/ask: both get the worst.
    expect(f.verdicts).toEqual({ client: 'breaking', server: 'breaking' });
    expect(f.location.oldPointer).toBe('#/$defs/Shared/properties/v');
    expect(r.summary.facts).toBe(1);
  });

  test('an ignore entry matches before deduplication: it drops one method, not the fact', () => {
    const spec = (t: string) =>
      fixture({
        requests: {
          'a/one': { params: obj({ s: { $ref: '#/$defs/Shared' } }) },
          'b/two': { params: obj({ s: { $ref: '#/$defs/Shared' } }) },
        },
        extraDefs: shared(t),
      });
    const r = diffModels(modelOf(spec('integer')), modelOf(spec('number')), {
      ignore: [{ rule: 'request-param-type-widened', location: 'a/one/*' }],
    });
    expect(r.ignored).toHaveLength(1);
    expect(r.facts.map((f) => f.location.methods)).toEqual([['b/two']]);
  });
});

describe('result unions', () => {
  const withUnion = (members: string[], extra: Record<string, JsonSchema> = {}) => {
    const doc = fixture({ requests: { 'a/b': {} }, extraDefs: extra });
    (doc.$defs as Record<string, JsonSchema>).ServerResult = {
      anyOf: members.map((m) => ({ $ref: `#/$defs/${m}` })),
    };
    return doc;
  };
  const extra = { Later: obj({ later: { type: 'boolean' } }, ['later']) };

  test('a variant no request is paired with, added to ServerResult: potentially breaking for clients', () => {
    const r = diffModels(modelOf(withUnion(['ABResult'], extra)), modelOf(withUnion(['ABResult', 'Later'], extra)));
    expect(
      r.facts.map((f) => [f.rule, f.location.method, f.location.kind, f.verdicts.client, f.verdicts.server]),
    ).toEqual([['result-union-member-added', 'ServerResult', null, 'potentially-breaking', 'non-breaking']]);
    expect(r.facts[0]!.location.newPointer).toBe('#/$defs/ServerResult/anyOf/1');
  });

  test('removed: breaking for the servers that answer with it', () => {
    const r = diffModels(modelOf(withUnion(['ABResult', 'Later'], extra)), modelOf(withUnion(['ABResult'], extra)));
    expect(r.facts.map((f) => [f.rule, f.verdicts.client, f.verdicts.server])).toEqual([
      ['result-union-member-removed', 'non-breaking', 'breaking'],
    ]);
  });
});

test('pointerLines: the line of each requested pointer, escaped tokens and arrays included', () => {
  const text = '{\n  "a": {\n    "b/c": [\n      1,\n      { "d": true }\n    ]\n  },\n  "e~f": "x"\n}\n';
  const lines = pointerLines(text, ['', '/a', '/a/b~1c', '/a/b~1c/1/d', '/e~0f', '/missing']);
  expect(Object.fromEntries(lines)).toEqual({ '': 1, '/a': 2, '/a/b~1c': 3, '/a/b~1c/1/d': 5, '/e~0f': 8 });
});

describe('the github format from the CLI', () => {
  let dir: string;
  beforeAll(async () => {
    dir = tempDir('diff-github');
    mkdirSync(join(dir, 'schema'), { recursive: true });
    const spec = (t: string, max?: number) =>
      fixture({
        requests: {
          'a/one': { result: obj({ n: { type: t }, list: { type: 'array', ...(max ? { maxItems: max } : {}) } }) },
        },
      });
    writeFileSync(join(dir, 'schema', 'old.json'), JSON.stringify(spec('integer'), null, 2));
    writeFileSync(join(dir, 'schema', 'new.json'), JSON.stringify(spec('number', 10), null, 2));
  });

  test('errors with file= and line= of the new schema location; --max-annotations caps them', async () => {
    const { code, stdout } = await cli(['diff', 'schema/old.json', 'schema/new.json', '--format', 'github'], {
      cwd: dir,
    });
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    // file= is the path from the repository root (the temporary directory is inside this repository).
    const file = `${relative(REPO_ROOT, dir).split(sep).join('/')}/schema/new.json`;
    for (const l of lines.slice(0, 2)) expect(l.startsWith(`::error file=${file},line=`)).toBe(true);
    for (const l of lines.slice(0, 2)) expect(l).toMatch(/,line=\d+,title=result-/);
    // The line is where the changed node starts in the file.
    const maxItemsLine = lines.find((l) => l.includes('item-count-limit'))!;
    const line = Number(/line=(\d+)/.exec(maxItemsLine)![1]);
    expect(readFileSync(join(dir, 'schema', 'new.json'), 'utf8').split('\n')[line - 1]).toContain('"maxItems"');
    expect(lines[2]).toMatch(/^::notice title=MCP schema diff::/);
    const capped = await cli(
      ['diff', 'schema/old.json', 'schema/new.json', '--format', 'github', '--max-annotations', '1'],
      { cwd: dir },
    );
    expect(capped.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(capped.stdout).toContain('1 more not annotated');
  });
});
