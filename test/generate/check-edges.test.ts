/**
 * The build-step rough edges a user hits first, each through the built CLI: `--check` answers exactly
 * "would generate change any byte?" (formatting differences and prettier config changes included),
 * nothing location-dependent is written, file-system failures are one-line user errors checked before
 * generating, and an extension that does not target the spec is an error unless skipping is asked for.
 *
 * Generation is kept to `--artifacts types maps` of one version (seconds, not tens of seconds).
 */
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, cli, snapshotDir, tempDir } from '../helpers/generate.js';

const FAST = ['--spec', '2025-06-18', '--artifacts', 'types', 'maps'];
const ACME = join(ROOT, 'schema', 'examples', 'acme-jobs.extension.json');
const errorLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('error: '));

let pristine: string;
beforeAll(async () => {
  pristine = join(tempDir('edges-pristine'), 'out');
  const { code, stderr } = await cli(['generate', ...FAST, '--out', pristine], { cwd: join(pristine, '..') });
  expect(stderr).toBe('');
  expect(code).toBe(0);
});

function freshCopy(name: string): string {
  const dir = join(tempDir(`edges-${name}`), 'out');
  cpSync(pristine, dir, { recursive: true });
  return dir;
}

describe('--check answers "would generate change any byte?"', () => {
  it('a trailing space in a generated file is stale; generate rewrites exactly that file; then up to date', async () => {
    const out = freshCopy('space');
    const file = join(out, 'maps.ts');
    writeFileSync(file, `${readFileSync(file, 'utf8')} `);
    const before = snapshotDir(out);
    const stale = await cli(['generate', ...FAST, '--out', out, '--check']);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/^\s+changed: maps\.ts$/m);
    expect(snapshotDir(out)).toEqual(before);
    const gen = await cli(['generate', ...FAST, '--out', out]);
    expect(gen.stdout).toMatch(/\(1 written, \d+ unchanged\)/);
    expect((await cli(['generate', ...FAST, '--out', out, '--check'])).code).toBe(0);
  });

  it('a new .prettierrc for the out dir makes --check stale (no fast-path "up to date"); after generate, up to date', async () => {
    const out = freshCopy('prettierrc');
    writeFileSync(join(out, '..', '.prettierrc.json'), '{ "printWidth": 60, "singleQuote": false }\n');
    const stale = await cli(['generate', ...FAST, '--out', out, '--check']);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/changed: maps\.ts/);
    expect((await cli(['generate', ...FAST, '--out', out])).code).toBe(0);
    const fresh = await cli(['generate', ...FAST, '--out', out, '--check']);
    expect(fresh.stdout).toMatch(/up to date/);
    expect(fresh.code).toBe(0);
  });

  it('the same project in two folders writes the same bytes, manifest included (no absolute paths)', async () => {
    const project = (name: string) => {
      const dir = tempDir(`edges-${name}`);
      mkdirSync(join(dir, 'ext'));
      cpSync(ACME, join(dir, 'ext', 'acme.json'));
      writeFileSync(
        join(dir, 'mcp-typegen.config.json'),
        JSON.stringify({
          targets: [
            { spec: '2025-06-18', out: 'gen', extensions: ['ext/acme.json'], artifacts: ['types'], format: false },
          ],
        }),
      );
      return dir;
    };
    const [a, b] = [project('where-a'), project('where-b')];
    const runs = await Promise.all([a, b].map((cwd) => cli(['generate'], { cwd })));
    expect(runs.map((r) => [r.code, r.stderr])).toEqual([
      [0, ''],
      [0, ''],
    ]);
    expect(snapshotDir(join(a, 'gen'))).toEqual(snapshotDir(join(b, 'gen')));
    expect(readFileSync(join(a, 'gen', '.mcp-typegen.json'), 'utf8')).not.toContain(ROOT);
  });
});

describe('file-system failures are one-line user errors, found before generating', () => {
  it('--out is a file, or runs through a file: exit 2 naming the path and the meaning, nothing written', async () => {
    const dir = tempDir('edges-fs');
    writeFileSync(join(dir, 'a-file'), 'x');
    const [isFile, through] = await Promise.all([
      cli(['generate', ...FAST, '--out', join(dir, 'a-file')]),
      cli(['generate', ...FAST, '--out', join(dir, 'a-file', 'out')]),
    ]);
    for (const run of [isFile, through]) {
      expect(run.code).toBe(2);
      expect(run.stderr).not.toContain('internal error');
      expect(errorLines(run.stderr)).toHaveLength(1);
    }
    expect(errorLines(isFile.stderr)[0]).toBe(
      `error: ${join(dir, 'a-file')}: the output directory is a file, not a directory`,
    );
    expect(errorLines(through.stderr)[0]).toBe(
      `error: ${join(dir, 'a-file')}: ENOTDIR (a part of the output path is a file, not a directory)`,
    );
    expect(readFileSync(join(dir, 'a-file'), 'utf8')).toBe('x');
  });

  it('a read-only out dir: exit 2 with EACCES (permission denied)', async () => {
    const dir = tempDir('edges-ro');
    mkdirSync(join(dir, 'out'));
    chmodSync(join(dir, 'out'), 0o555);
    // Root writes anywhere (CI runs as root): there, the CLI runs as "nobody", whom the mode bits do stop.
    const asRoot = process.getuid?.() === 0;
    chmodSync(dir, 0o755); // mkdtemp makes it 0700: nobody could not even reach out/
    const run = await cli(['generate', ...FAST, '--out', join(dir, 'out')], {
      ...(asRoot ? { user: { uid: 65534, gid: 65534 } } : {}),
      env: { MCP_TYPEGEN_CACHE: join(dir, 'cache') },
    });
    expect(run.code).toBe(2);
    expect(errorLines(run.stderr)).toEqual([
      `error: ${join(dir, 'out')}: cannot write the output directory: EACCES (permission denied)`,
    ]);
  });
});

describe('config and extensions', () => {
  it('two targets with the same out: exit 2 naming both', async () => {
    const dir = tempDir('edges-same-out');
    writeFileSync(
      join(dir, 'mcp-typegen.config.json'),
      JSON.stringify({
        targets: [
          { name: 'client', spec: '2025-06-18', out: 'src/mcp' },
          { name: 'server', spec: '2025-11-25', out: './src/mcp/' },
        ],
      }),
    );
    const run = await cli(['generate'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(errorLines(run.stderr)).toEqual([
      `error: ${join(dir, 'mcp-typegen.config.json')}#/targets/1/out: targets "client" and "server" have the same "out" (./src/mcp/): one would overwrite the other`,
    ]);
  });

  it('init in a subdirectory of a configured project points at the existing config and writes nothing', async () => {
    const dir = tempDir('edges-init');
    writeFileSync(join(dir, 'mcp-typegen.config.json'), '{ "targets": [{ "spec": "2025-06-18", "out": "gen" }] }\n');
    mkdirSync(join(dir, 'packages', 'app'), { recursive: true });
    const run = await cli(['init'], { cwd: join(dir, 'packages', 'app') });
    expect(run.code).toBe(2);
    expect(errorLines(run.stderr)).toEqual([
      `error: ${join(dir, 'mcp-typegen.config.json')}: already configures ${join(dir, 'packages', 'app')} (found upward from it): init wrote nothing`,
    ]);
    expect(snapshotDir(join(dir, 'packages'))).toEqual({});
  });

  it('an extension that does not target the spec: exit 2; --skip-untargeted skips it with a warning', async () => {
    const dir = tempDir('edges-untargeted');
    const args = ['generate', '--spec', '2024-11-05', '--ext', ACME, '--artifacts', 'types', '--no-format'];
    const [refused, skipped] = await Promise.all([
      cli([...args, '--out', join(dir, 'a')]),
      cli([...args, '--skip-untargeted', '--out', join(dir, 'b')]),
    ]);
    expect(refused.code).toBe(2);
    expect(errorLines(refused.stderr)).toEqual([
      `error: ${ACME}#/targets: extension acme/jobs does not target MCP 2024-11-05 (it targets 2025-06-18, 2025-11-25, 2026-07-28)`,
    ]);
    expect(snapshotDir(join(dir, 'a'))).toEqual({});
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain('extension acme/jobs does not target MCP 2024-11-05; skipped');
  });

  it('--version prints the tool version, not the project package.json', async () => {
    const dir = tempDir('edges-version');
    writeFileSync(join(dir, 'package.json'), '{ "name": "someone-else", "version": "9.9.9" }\n');
    const run = await cli(['--version'], { cwd: dir });
    const own = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(run.stdout.trim()).toBe(own);
  });
});
