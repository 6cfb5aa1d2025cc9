/** Diff sides: a file, a spec version, or git:<ref>:<path> (read from a temporary repository). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { diffModels, diffSources, loadDiffSide, readDiffSource } from '../../src/diff/index.js';
import { InputError } from '../../src/errors.js';
import { loadSchema } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import { fixture, SCHEMA_DIR, versionText } from './helpers.js';

let repo: string;
const git = (...args: string[]): string =>
  execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
    },
  });

const v1 = fixture({ requests: { 'a/keep': {}, 'b/old': {} } });
const v2 = fixture({ requests: { 'a/keep': {} } });

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'mcp-typegen-diff-'));
  git('init', '-q', '-b', 'main');
  mkdirSync(join(repo, 'schema'));
  writeFileSync(join(repo, 'schema', 'schema.json'), JSON.stringify(v1));
  git('add', '.');
  git('commit', '-q', '-m', 'v1');
  git('tag', 'v1');
  writeFileSync(join(repo, 'schema', 'schema.json'), JSON.stringify(v2));
  git('commit', '-q', '-am', 'v2');
});

afterAll(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
});

describe('readDiffSource', () => {
  test('git:<ref>:<path> reads the object at that ref, in memory', async () => {
    const old = await readDiffSource('git:v1:schema/schema.json', { cwd: repo });
    expect(old).toEqual({
      kind: 'git',
      name: 'git:v1:schema/schema.json',
      text: JSON.stringify(v1),
      version: null,
      file: 'schema/schema.json',
    });
    const head = await readDiffSource('git:HEAD:schema/schema.json', { cwd: repo });
    expect(JSON.parse(head.text)).toEqual(v2);
    const parent = await readDiffSource('git:HEAD~1:schema/schema.json', { cwd: repo });
    expect(parent.text).toBe(old.text);
  });

  test('a diff between two git sides, through the loader', async () => {
    const sides = await Promise.all(
      ['git:v1:schema/schema.json', 'git:main:schema/schema.json'].map((s) => readDiffSource(s, { cwd: repo })),
    );
    const [a, b] = await Promise.all(sides.map((s) => loadSchema({ text: s.text, schema: s.name })));
    const report = diffModels(buildModel(a!), buildModel(b!), { oldName: sides[0]!.name, newName: sides[1]!.name });
    expect(report.old.name).toBe('git:v1:schema/schema.json');
    expect(report.facts.map((f) => [f.rule, f.location.method, f.verdicts.client, f.verdicts.server])).toEqual([
      ['method-removed', 'b/old', 'breaking', 'non-breaking'],
    ]);
  });

  test('diffSources: git ref against a spec version, names from the sources', async () => {
    const { report } = await diffSources('git:v1:schema/schema.json', 'git:HEAD:schema/schema.json', {
      cwd: repo,
      schemaDir: SCHEMA_DIR,
    });
    expect([report.old.name, report.new.name]).toEqual(['git:v1:schema/schema.json', 'git:HEAD:schema/schema.json']);
    expect(report.facts.map((f) => f.rule)).toEqual(['method-removed']);
    const { report: versions } = await diffSources('2025-03-26', '2025-06-18', { cwd: repo, schemaDir: SCHEMA_DIR });
    expect(versions.old).toMatchObject({ name: '2025-03-26', version: '2025-03-26', dialect: 'draft-07' });
    // No extension files; every result paired by its definition's name (the released schemas' convention).
    expect(versions.old.extensions).toEqual([]);
    expect(versions.old.pairedByName).toContain('tools/call');
    expect(versions.facts[0]!.rule).toBe('batching-removed');
    const side = await loadDiffSide('2026-07-28', { cwd: repo, schemaDir: SCHEMA_DIR });
    expect(side.model.defsKeyword).toBe('$defs');
    expect(side.schema.known).toBe(true);
  });

  test('a version name that is also a directory in cwd still means the version', async () => {
    mkdirSync(join(repo, '2025-06-18'), { recursive: true });
    const s = await readDiffSource('2025-06-18', { cwd: repo, schemaDir: SCHEMA_DIR });
    expect(s.kind).toBe('version');
  });

  test('a file, relative to cwd', async () => {
    const s = await readDiffSource('schema/schema.json', { cwd: repo });
    expect(s.kind).toBe('file');
    expect(s.file).toBe('schema/schema.json');
    expect(JSON.parse(s.text)).toEqual(v2);
  });

  test('a spec version from the schema directory', async () => {
    const s = await readDiffSource('2025-06-18', { cwd: repo, schemaDir: SCHEMA_DIR });
    expect(s).toEqual({
      kind: 'version',
      name: '2025-06-18',
      text: versionText('2025-06-18'),
      version: '2025-06-18',
      file: join(SCHEMA_DIR, '2025-06-18', 'schema.json'),
    });
  });

  test.each([
    ['git:nope:schema/schema.json', /cannot read from git/],
    ['git:v1:missing.json', /cannot read from git/],
    ['git:v1', /git:<ref>:<path>/],
    ['git::schema.json', /git:<ref>:<path>/],
    ['git:--output=x:schema.json', /invalid git ref/],
    ['1999-01-01', /unknown spec version "1999-01-01"/],
    ['no/such/file.json', /file not found/],
  ])('%s → InputError', async (spec, reason) => {
    const error = await readDiffSource(spec, { cwd: repo, schemaDir: SCHEMA_DIR }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).reason).toMatch(reason);
  });
});
