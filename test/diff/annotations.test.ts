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

interface Fact {
  rule: string;
  location: { oldPointer: string | null; newPointer: string | null; side: 'old' | 'new'; method: string };
  verdicts: { client: string; server: string };
}

/**
 * Each annotation with the fact it stands for: the renderer annotates breaking facts, then potentially
 * breaking ones, each in report order — the JSON report's facts filtered the same way.
 */
async function annotatedFacts(args: string[], cwd: string): Promise<[Annotation, Fact][]> {
  const flags = ['--fail-on', 'none'];
  const gh = await runCli(['diff', ...args, '--format', 'github', '--max-annotations', '1000', ...flags], { cwd });
  expect(gh.stderr).toBe('');
  const js = await runCli(['diff', ...args, '--format', 'json', ...flags], { cwd });
  const facts = (JSON.parse(js.stdout) as { facts: Fact[] }).facts;
  const worst = (f: Fact, v: string) => f.verdicts.client === v || f.verdicts.server === v;
  const ordered = [
    ...facts.filter((f) => worst(f, 'breaking')),
    ...facts.filter((f) => !worst(f, 'breaking') && worst(f, 'potentially-breaking')),
  ];
  const all = annotations(gh.stdout);
  expect(all.length).toBe(ordered.length);
  return all.map((a, i) => {
    const fact = ordered[i];
    if (fact === undefined) throw new Error(`no fact for annotation ${i}`);
    expect(a.title.startsWith(`${fact.rule} (`)).toBe(true);
    return [a, fact];
  });
}

describe('annotations point at the right line', () => {
  test('git baseline → working tree (the README CI form), run from a subdirectory', async () => {
    const cwd = join(repo, 'spec');
    const pairs = await annotatedFacts(['git:HEAD:spec/schema.json', 'schema.json'], cwd);
    const newText = readFileSync(join(repo, 'spec', 'schema.json'), 'utf8');
    let located = 0;
    for (const [a, fact] of pairs) {
      const { side, newPointer } = fact.location;
      if (a.file === undefined) {
        // A removal with no place left in the new file: no file, the message says where it was.
        expect(side).toBe('old');
        expect(a.message).toMatch(/\(in the old schema git:HEAD:spec\/schema\.json, line \d+\)/);
        continue;
      }
      located++;
      // The only file in the working tree is the new schema; its path is from the repository root.
      expect(a.file).toBe('spec/schema.json');
      // An addition or change at its own node; a removal at the node it was removed from.
      expect(newPointer, a.title).not.toBeNull();
      expect(lineHolds(newText, a.line ?? 0, newPointer ?? ''), `${a.title} at line ${a.line}`).toBe(true);
      if (side === 'old') expect(a.message).toMatch(/\(in the old schema git:HEAD:spec\/schema\.json, line \d+\)/);
    }
    expect(located).toBeGreaterThan(5);
    expect(pairs.some(([a, f]) => f.rule === 'method-removed' && a.file === undefined)).toBe(true);
  });

  test('two working-tree files: a removal at its line in the old file, the rest in the new one', async () => {
    const cwd = join(repo, 'spec');
    const pairs = await annotatedFacts(['old.json', 'schema.json'], cwd);
    const texts = {
      old: readFileSync(join(repo, 'spec', 'old.json'), 'utf8'),
      new: readFileSync(join(repo, 'spec', 'schema.json'), 'utf8'),
    };
    for (const [a, fact] of pairs) {
      const { side } = fact.location;
      const pointer = side === 'old' ? fact.location.oldPointer : fact.location.newPointer;
      expect(a.file).toBe(side === 'old' ? 'spec/old.json' : 'spec/schema.json');
      expect(lineHolds(texts[side], a.line ?? 0, pointer ?? ''), `${a.title} at ${a.file}:${a.line}`).toBe(true);
    }
    expect(pairs.filter(([, f]) => f.location.side === 'old').length).toBeGreaterThan(0);
    expect(pairs.filter(([, f]) => f.location.side === 'new').length).toBeGreaterThan(0);
  });
});
