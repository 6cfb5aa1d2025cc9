/**
 * The specification's own history diffs: every version the MCP repository committed of
 * `schema/draft/schema.json` and of each dated `schema/<version>/schema.json` (test/fixtures/draft-history.json,
 * written by scripts/draft-history.mjs from a clone: annotations removed, each version a patch), each
 * consecutive pair of valid versions of a path compared as `diff` compares two files — nothing refused,
 * offline. The two versions the repository once committed with a dangling `$ref` are refused, as any
 * broken schema is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { rebuild, type StoredVersion } from '../../scripts/draft-history.mjs';
import { diffModels, requireComparableSides, type DiffReport } from '../../src/diff/index.js';
import { InputError } from '../../src/errors.js';
import { parseSchemaText } from '../../src/load/index.js';
import { buildModel, type ProtocolModel } from '../../src/model/index.js';
import { REPO_ROOT } from './helpers.js';

interface Version {
  path: string;
  commit: string;
  name: string;
  model?: ProtocolModel;
  error?: string;
}

const versions: Version[] = [];
/** Each path's consecutive valid versions, and the report (or the error) of their diff. */
const pairs: { old: Version; new: Version; report?: DiffReport; error?: string }[] = [];

beforeAll(() => {
  const fixture = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'draft-history.json'), 'utf8')) as {
    versions: StoredVersion[];
  };
  const docs = rebuild(fixture.versions);
  fixture.versions.forEach((v, i) => {
    const name = `${v.path}@${v.commit.slice(0, 8)}`;
    const version: Version = { path: v.path, commit: v.commit, name };
    try {
      version.model = buildModel(parseSchemaText(JSON.stringify(docs[i]), name, null));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      version.error = error.message;
    }
    versions.push(version);
  });
  const byPath = new Map<string, Version[]>();
  for (const v of versions) if (v.model) byPath.set(v.path, [...(byPath.get(v.path) ?? []), v]);
  for (const chain of byPath.values()) {
    for (let i = 1; i < chain.length; i++) {
      const [old, next] = [chain[i - 1]!, chain[i]!];
      const pair: (typeof pairs)[number] = { old, new: next };
      try {
        requireComparableSides({ model: old.model!, name: old.name }, { model: next.model!, name: next.name });
        pair.report = diffModels(old.model!, next.model!, { oldName: old.name, newName: next.name });
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        pair.error = error.message;
      }
      pairs.push(pair);
    }
  }
}, 120_000);

describe('the MCP repository history of its schemas', () => {
  test('every committed version is there, oldest first per path', () => {
    const count = (path: string) => versions.filter((v) => v.path === path).length;
    expect(count('schema/draft/schema.json')).toBe(220);
    expect(versions.length).toBe(234);
  });

  test('only the two versions committed with a dangling $ref are refused, each with its pointer', () => {
    expect(versions.filter((v) => v.error).map((v) => `${v.name}: ${v.error!.replace(/^[^#]*/, '')}`)).toEqual([
      'schema/draft/schema.json@ace88165: #/definitions/CallToolResult/properties/content/items/anyOf/4/$ref: dangling $ref "#/definitions/ResourceReference": nothing at that pointer',
      'schema/draft/schema.json@78660338: #/$defs/ClientNotification/anyOf/3/$ref: dangling $ref "#/definitions/TaskStatusNotification": nothing at that pointer',
    ]);
  });

  test('every consecutive pair of valid versions diffs: none refused', () => {
    expect(pairs.filter((p) => p.error).map((p) => `${p.old.name} → ${p.new.name}: ${p.error}`)).toEqual([]);
    // The draft's 218 valid versions give 217 pairs; the dated folders' later fixes 9 more.
    expect(pairs.filter((p) => p.old.path === 'schema/draft/schema.json').length).toBe(217);
    expect(pairs.length).toBe(226);
  });

  test('a method declared both as a server request and as an input request compares per direction', () => {
    // The draft that added input requests kept elicitation/create a server request (ElicitRequest) and
    // declared it again as an input request (ElicitationInputRequest, no JSON-RPC id).
    const added = pairs.find((p) =>
      p.report?.facts.some((f) => f.rule === 'method-direction-added' && f.location.method === 'elicitation/create'),
    );
    expect(added).toBeDefined();
    const elicit = added!.new.model!.methods.find((m) => m.method === 'elicitation/create')!;
    expect(elicit.directions).toEqual(['server->client', 'input']);
    expect(elicit.definition).toBe('ElicitRequest');
    expect(elicit.declarations?.input?.definition).toBe('ElicitationInputRequest');
  });
});
