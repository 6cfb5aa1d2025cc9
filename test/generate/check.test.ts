/**
 * `generate --check` and determinism, through the built CLI: exit codes, what is listed, that --check
 * never writes, that formatting-only differences are drift (generate would rewrite them), and the
 * manifest-hash fast path.
 *
 * The --check cases use `--artifacts types maps` (a regeneration in seconds); determinism is checked on
 * every artifact, where ajv's standalone code and the runtime templates are included.
 */
import { readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, fileHash, snapshotDir, tempDir } from '../helpers/generate.js';

const SPEC = '2025-11-25';
const FAST = ['--spec', SPEC, '--artifacts', 'types', 'maps'];
const MANIFEST = '.mcp-typegen.json';

/** A fresh copy of the generated output, so each case starts from a clean, up-to-date directory. */
let pristine: string;
function freshCopy(name: string): string {
  const dir = join(tempDir(`check-${name}`), 'out');
  cpSync(pristine, dir, { recursive: true });
  return dir;
}

const check = (out: string) => cli(['generate', ...FAST, '--out', out, '--check'], { cwd: join(out, '..') });

beforeAll(async () => {
  pristine = join(tempDir('check-pristine'), 'out');
  const { code, stderr } = await cli(['generate', ...FAST, '--out', pristine], { cwd: join(pristine, '..') });
  expect(stderr).toBe('');
  expect(code).toBe(0);
});

describe('generate --check', () => {
  it('exits 0 on output that generate just wrote', async () => {
    const out = freshCopy('clean');
    const before = snapshotDir(out);
    const { code, stdout, stderr } = await check(out);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/up to date/);
    expect(code).toBe(0);
    expect(snapshotDir(out)).toEqual(before);
  });

  it('a one-byte edit of a generated file: exit 1, lists the file, writes nothing', async () => {
    const out = freshCopy('edited');
    const file = join(out, 'types.ts');
    const text = readFileSync(file, 'utf8');
    const at = text.indexOf("jsonrpc: '2.0'");
    expect(at).toBeGreaterThan(0);
    writeFileSync(file, `${text.slice(0, at)}jsonrpc: '2.1'${text.slice(at + "jsonrpc: '2.0'".length)}`);
    const before = snapshotDir(out);
    const { code, stdout } = await check(out);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^\s+changed: types\.ts$/m);
    expect(stdout).not.toMatch(/maps\.ts/);
    expect(stdout).toContain('- ');
    expect(snapshotDir(out)).toEqual(before);
  });

  it('a deleted file: exit 1, listed as missing, writes nothing', async () => {
    const out = freshCopy('deleted');
    rmSync(join(out, 'maps.ts'));
    const before = snapshotDir(out);
    const { code, stdout } = await check(out);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^\s+missing: maps\.ts$/m);
    expect(snapshotDir(out)).toEqual(before);
  });

  it('a missing output directory: exit 1, and it is not created', async () => {
    const out = join(tempDir('check-nothing'), 'out');
    const { code, stdout } = await check(out);
    expect(code).toBe(1);
    expect(stdout).toMatch(/missing: types\.ts/);
    expect(snapshotDir(out)).toEqual({});
  });

  it('a file that differs only by formatting is stale: generate would rewrite it (never normalised on disk)', async () => {
    const out = freshCopy('reformatted');
    const file = join(out, 'maps.ts');
    const original = readFileSync(file, 'utf8');
    // Re-indented with tabs and double quotes: the same code, laid out differently.
    const reindented = await prettier.format(original, { parser: 'babel-ts', useTabs: true, singleQuote: false });
    expect(reindented).not.toBe(original);
    writeFileSync(file, reindented);
    const before = snapshotDir(out);
    const { code, stdout } = await check(out);
    expect(stdout).toMatch(/changed: maps\.ts/);
    expect(code).toBe(1);
    expect(snapshotDir(out)).toEqual(before);
  });

  it('fast path: with the inputs hash and every file hash matching the manifest, it answers without regenerating', async () => {
    const out = freshCopy('fast');
    // Change a file AND record its new hash: only the fast path (which trusts the manifest) can call
    // this up to date; a regeneration would see the edit.
    const file = join(out, 'types.ts');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nexport type Tampered = 1;\n`);
    const manifest = JSON.parse(readFileSync(join(out, MANIFEST), 'utf8')) as {
      inputsHash: string;
      files: Record<string, string>;
    };
    manifest.files['types.ts'] = fileHash(file);
    writeFileSync(join(out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    const fast = await check(out);
    expect(fast.code).toBe(0);
    expect(fast.stdout).toMatch(/up to date/);

    // A different inputs hash (as after a schema or tool change) forces the full comparison.
    manifest.inputsHash = '0'.repeat(64);
    writeFileSync(join(out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    const slow = await check(out);
    expect(slow.code).toBe(1);
    expect(slow.stdout).toMatch(/changed: types\.ts/);
  });
});

describe('determinism', () => {
  it('two runs of generate (every artifact) write identical bytes; a third into the same dir changes nothing', async () => {
    const a = join(tempDir('determinism-a'), 'out');
    const b = join(tempDir('determinism-b'), 'out');
    const first = await cli(['generate', '--spec', SPEC, '--out', a], { cwd: join(a, '..') });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const second = await cli(['generate', '--spec', SPEC, '--out', b], { cwd: join(b, '..') });
    expect(second.code).toBe(0);
    const snapA = snapshotDir(a);
    expect(Object.keys(snapA)).toEqual(
      expect.arrayContaining([MANIFEST, 'index.ts', 'types.ts', 'maps.ts', 'validators.js', 'validators.d.ts']),
    );
    expect(snapshotDir(b)).toEqual(snapA);

    const again = await cli(['generate', '--spec', SPEC, '--out', a], { cwd: join(a, '..') });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/\b0 written\b/);
    expect(snapshotDir(a)).toEqual(snapA);
  }, 240_000);
});
