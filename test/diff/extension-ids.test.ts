/**
 * An extension file whose id changes (SEP-2133's way to mark a breaking change) is one fact, breaking
 * for both sides, however many messages carry its id (`capabilities.extensions` in discover's result
 * and in every request's `_meta`); everything else compares as if the id had stayed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { diffModels } from '../../src/diff/index.js';
import { parseSchemaText } from '../../src/load/index.js';
import { buildModel } from '../../src/model/build.js';
import { applyExtensions, loadExtensionsFor } from '../../src/model/extensions.js';
import type { ProtocolModel } from '../../src/model/types.js';
import { tempDir } from '../helpers/generate.js';
import { REPO_ROOT, SCHEMA_DIR, versionText } from './helpers.js';

const VERSION = '2026-07-28';
const ACME = join(REPO_ROOT, 'schema', 'examples', 'acme-jobs.extension.json');
let dir: string;

/** The acme example, re-identified and otherwise changed by `edit`, written to `name`. */
function variant(name: string, edit: (doc: Record<string, unknown>) => void): string {
  const doc = JSON.parse(readFileSync(ACME, 'utf8')) as Record<string, unknown>;
  delete doc.$schema;
  edit(doc);
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

async function model(files: string[]): Promise<ProtocolModel> {
  const base = buildModel(parseSchemaText(versionText(VERSION), join(SCHEMA_DIR, VERSION, 'schema.json'), VERSION));
  return applyExtensions(base, await loadExtensionsFor(files, dir));
}

const summary = (r: ReturnType<typeof diffModels>) =>
  r.facts.map((f) => [f.rule, f.location.method, f.location.path, f.verdicts.client, f.verdicts.server]);

beforeAll(() => {
  dir = tempDir('ext-id');
});

describe('diff: an extension id change', () => {
  test('is one fact, breaking on both sides, with nothing else', async () => {
    const v2 = variant('acme-v2.json', (d) => (d.extension = 'acme/jobs-v2'));
    const report = diffModels(await model([ACME]), await model([v2]));
    expect(summary(report)).toEqual([['extension-id-changed', 'acme/jobs-v2', '', 'breaking', 'breaking']]);
    expect(report.facts[0]!.details).toEqual({ oldId: 'acme/jobs', newId: 'acme/jobs-v2' });
    expect(report.facts[0]!.message).toBe('extension "acme/jobs" is now "acme/jobs-v2"');
  });

  test('the rest compares as if the id had stayed: a method change next to it is its own fact', async () => {
    const v2 = variant('acme-v2-less.json', (d) => {
      d.extension = 'acme/jobs-v2';
      delete (d.methods as Record<string, unknown>)['acme/jobs.cancel'];
    });
    const rules = summary(diffModels(await model([ACME]), await model([v2]))).map((f) => `${f[0]} ${f[1]}`);
    expect(rules).toEqual(['extension-id-changed acme/jobs-v2', 'method-removed acme/jobs.cancel']);
  });

  test("an id renamed with its methods' prefix (acme/jobs.* → acme/tasks.*): still one fact, listing the renames", async () => {
    const text = readFileSync(ACME, 'utf8').replaceAll('acme/jobs', 'acme/tasks');
    const tasks = variant('acme-tasks.json', (d) => Object.assign(d, JSON.parse(text) as Record<string, unknown>));
    const report = diffModels(await model([ACME]), await model([tasks]));
    expect(summary(report)).toEqual([['extension-id-changed', 'acme/tasks', '', 'breaking', 'breaking']]);
    expect(report.facts[0]!.message).toBe('extension "acme/jobs" is now "acme/tasks", its methods\' names with it (5)');
    expect(report.facts[0]!.details.methods).toContainEqual({ old: 'acme/jobs.start', new: 'acme/tasks.start' });
    // A method changed next to the rename is its own fact, under its old name.
    const less = variant('acme-tasks-less.json', (d) => {
      Object.assign(d, JSON.parse(text) as Record<string, unknown>);
      delete (d.methods as Record<string, unknown>)['acme/tasks.cancel'];
    });
    const rules = summary(diffModels(await model([ACME]), await model([less]))).map((f) => `${f[0]} ${f[1]}`);
    expect(rules).toEqual(['extension-id-changed acme/tasks', 'method-removed acme/jobs.cancel']);
  });

  test('an extension removed and an unrelated one added stay separate changes', async () => {
    const other = variant('other.json', (d) => {
      d.extension = 'acme/other';
      d.methods = { 'acme/other.ping': { kind: 'notification', direction: 'client->server' } };
      delete d.settings;
      delete d.definitions;
    });
    const rules = diffModels(await model([ACME]), await model([other])).facts.map((f) => f.rule);
    expect(rules).not.toContain('extension-id-changed');
    expect(rules).toContain('notification-added');
    expect(rules).toContain('method-removed');
  });
});
