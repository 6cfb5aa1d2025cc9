/**
 * GitHub annotations land on the right line of the file they name: every `file=`/`line=` of a real
 * diff is checked against that file, in the README's CI form (a git baseline against the working tree)
 * and with two working-tree files, run from a subdirectory (paths are from the repository root).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { runCli, SCHEMA_DIR, tempDir } from '../cli/helpers.js';

interface Annotation {
  file: string | undefined;
  line: number | undefined;
  title: string;
  message: string;
}

function annotations(stdout: string): Annotation[] {
  return stdout
    .split('\n')
    .filter((l) => /^::(error|warning) /.test(l))
    .map((l) => {
      const [, props = '', message = ''] = /^::\w+ ([^:]*)::(.*)$/.exec(l) ?? [];
      const values = new Map(
        props.split(',').map((p) => [p.slice(0, p.indexOf('=')), decodeURIComponent(p.slice(p.indexOf('=') + 1))]),
      );
      const line = values.get('line');
      return {
        file: values.get('file'),
        line: line === undefined ? undefined : Number(line),
        title: values.get('title') ?? '',
        message: decodeURIComponent(message),
      };
    });
}

/** The JSON key or array item a pointer ends at must be on the annotated line. */
function lineHolds(text: string, line: number, pointer: string): boolean {
  const token = decodeURIComponent(pointer.split('/').at(-1) ?? '')
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
  const at = text.split('\n')[line - 1] ?? '';
  return /^\d+$/.test(token) ? at.trim() !== '' : at.includes(JSON.stringify(token));
}

const repo = tempDir('annotations');
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: repo, stdio: 'pipe' });
const schema = (version: string) => readFileSync(join(SCHEMA_DIR, version, 'schema.json'), 'utf8');

beforeAll(() => {
  git('init', '-q');
  mkdirSync(join(repo, 'spec'));
  writeFileSync(join(repo, 'spec', 'schema.json'), schema('2025-11-25'));
  git('add', '.');
  git('commit', '-q', '-m', 'baseline');
  writeFileSync(join(repo, 'spec', 'schema.json'), schema('2026-07-28'));
  writeFileSync(join(repo, 'spec', 'old.json'), schema('2025-11-25'));
});

/** Every annotation with a file: the file is in the repository and the line holds the fact's location. */
async function checkAll(args: string[], cwd: string): Promise<{ all: Annotation[]; json: { facts: Fact[] } }> {
  const gh = await runCli(['diff', ...args, '--format', 'github', '--max-annotations', '1000', '--fail-on', 'none'], {
    cwd,
  });
  expect(gh.stderr).toBe('');
  const js = await runCli(['diff', ...args, '--format', 'json', '--fail-on', 'none'], { cwd });
  const json = JSON.parse(js.stdout) as { facts: Fact[] };
  const all = annotations(gh.stdout);
  return { all, json };
}

interface Fact {
  rule: string;
  location: { oldPointer: string | null; newPointer: string | null; side: 'old' | 'new'; method: string };
}

describe('annotations point at the right line', () => {
  test('git baseline → working tree (the README CI form), run from a subdirectory', async () => {
    const cwd = join(repo, 'spec');
    const { all, json } = await checkAll(['git:HEAD:spec/schema.json', 'schema.json'], cwd);
    const located = all.filter((a) => a.file !== undefined);
    expect(located.length).toBeGreaterThan(5);
    const newText = readFileSync(join(repo, 'spec', 'schema.json'), 'utf8');
    for (const a of located) {
      // The only file in the working tree is the new schema; paths are from the repository root.
      expect(a.file).toBe('spec/schema.json');
      expect(a.line).toBeGreaterThan(0);
      expect(newText.split('\n').length).toBeGreaterThanOrEqual(a.line ?? 0);
    }
    // Each located annotation's line holds the new-side pointer of a fact it could stand for.
    const pointers = json.facts.map((f) => f.location.newPointer).filter((p): p is string => p !== null);
    for (const a of located)
      expect(
        pointers.some((p) => lineHolds(newText, a.line ?? 0, p)),
        `${a.title} at line ${a.line}`,
      ).toBe(true);
    // Removals say where they were in the old schema.
    const removed = all.filter((a) => a.title.startsWith('method-removed'));
    expect(removed.length).toBeGreaterThan(0);
    for (const a of removed) expect(a.message).toMatch(/\(in the old schema git:HEAD:spec\/schema\.json, line \d+\)/);
  });

  test('two working-tree files: a removal at its line in the old file, the rest in the new one', async () => {
    const cwd = join(repo, 'spec');
    const { all, json } = await checkAll(['old.json', 'schema.json'], cwd);
    const texts: Record<string, string> = {
      'spec/old.json': readFileSync(join(repo, 'spec', 'old.json'), 'utf8'),
      'spec/schema.json': readFileSync(join(repo, 'spec', 'schema.json'), 'utf8'),
    };
    const located = all.filter((a) => a.file !== undefined);
    expect(located.length).toBeGreaterThan(5);
    expect(new Set(located.map((a) => a.file))).toEqual(new Set(['spec/old.json', 'spec/schema.json']));
    const pointers = (side: 'old' | 'new') =>
      json.facts
        .filter((f) => f.location.side === side)
        .map((f) => (side === 'old' ? f.location.oldPointer : f.location.newPointer))
        .filter((p): p is string => p !== null);
    for (const a of located) {
      const side = a.file === 'spec/old.json' ? 'old' : 'new';
      const text = texts[a.file ?? ''] ?? '';
      expect(
        pointers(side).some((p) => lineHolds(text, a.line ?? 0, p)),
        `${a.title} at ${a.file}:${a.line}`,
      ).toBe(true);
    }
    for (const a of located.filter((x) => x.title.startsWith('method-removed'))) expect(a.file).toBe('spec/old.json');
  });
});
