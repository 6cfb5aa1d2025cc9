/** The CLI as a user runs it: diff exit codes and git baselines, init, completion, console rules, API = CLI bytes. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, generate, write } from '../../src/index.js';
import { TARGET_OPTIONS } from '../../src/config/options.js';
import { DIFF_OPTIONS } from '../../src/cli/diff-options.js';
import { outsideTempDir, REPO_ROOT, runCli, SCHEMA_DIR, tempDir } from './helpers.js';

function allFiles(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

describe('diff', () => {
  const sd = ['--schema-dir', SCHEMA_DIR];
  it('2025-11-25 → 2026-07-28 is breaking: exit 1; --fail-on none: exit 0', async () => {
    const a = await runCli(['diff', '2025-11-25', '2026-07-28', ...sd]);
    expect(a.stderr).toBe('');
    expect(a.code).toBe(1);
    expect(a.stdout).toContain('mcp-typegen diff: 2025-11-25 → 2026-07-28');
    const b = await runCli(['diff', '2025-11-25', '2026-07-28', '--fail-on', 'none', '--format', 'json', ...sd]);
    expect(b.code).toBe(0);
    const report = JSON.parse(b.stdout) as { facts: unknown[] };
    expect(report.facts.length).toBeGreaterThan(0);
  });

  it('a version against itself: exit 0; markdown and github formats render', async () => {
    const a = await runCli(['diff', '2025-11-25', '2025-11-25', '--fail-on', 'any', '--format', 'markdown', ...sd]);
    expect(a.code).toBe(0);
    const g = await runCli([
      'diff',
      '2025-06-18',
      '2025-11-25',
      '--format',
      'github',
      '--side',
      'client',
      '--fail-on',
      'none',
      ...sd,
    ]);
    expect(g.code).toBe(0);
    expect(g.stdout).toMatch(/^::(error|warning|notice)/m);
  });

  it('a missing file, a bad --fail-on and a bad ignore file exit 2 with one error line', async () => {
    const a = await runCli(['diff', 'nope.json', '2025-11-25', ...sd]);
    expect(a.code).toBe(2);
    expect(a.stderr.split('\n')[0]).toBe(
      `error: ${join(REPO_ROOT, 'nope.json')}: file not found (nor a known spec version, nor git:<ref>:<path>)`,
    );
    const b = await runCli(['diff', '2025-11-25', '2026-07-28', '--fail-on', 'sometimes', ...sd]);
    expect(b.code).toBe(2);
    const dir = tempDir('diff');
    writeFileSync(join(dir, 'ignore.json'), JSON.stringify([{ rule: 'no-such-rule' }]));
    const c = await runCli(['diff', '2025-11-25', '2026-07-28', '--ignore', join(dir, 'ignore.json'), ...sd]);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain(`${join(dir, 'ignore.json')}#/0/rule: unknown rule "no-such-rule"`);
  });

  it('--rules lists every rule with its reason', async () => {
    const { rules } = await import('../../src/diff/index.js');
    const a = await runCli(['diff', '--rules']);
    expect(a.code).toBe(0);
    for (const r of rules()) expect(a.stdout).toContain(r.id);
  });

  it('a git:<ref>:<path> baseline from a temporary repository', async () => {
    const dir = tempDir('diff-git');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
        cwd: dir,
        stdio: 'pipe',
      });
    git('init', '-q');
    writeFileSync(join(dir, 'schema.json'), readFileSync(join(SCHEMA_DIR, '2025-11-25', 'schema.json')));
    git('add', 'schema.json');
    git('commit', '-q', '-m', 'baseline');
    const same = await runCli(['diff', 'git:HEAD:schema.json', 'schema.json', '--fail-on', 'any'], { cwd: dir });
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    writeFileSync(join(dir, 'schema.json'), readFileSync(join(SCHEMA_DIR, '2026-07-28', 'schema.json')));
    const changed = await runCli(['diff', 'git:HEAD:schema.json', 'schema.json'], { cwd: dir });
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('git:HEAD:schema.json → schema.json');
    const bad = await runCli(['diff', 'git:no-such-ref:schema.json', 'schema.json'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: git:no-such-ref:schema.json: cannot read from git: /);
  });
});

describe('init', () => {
  it('writes a config and an extension that generate accepts, and never overwrites', async () => {
    const dir = outsideTempDir('init');
    const a = await runCli(['init'], { cwd: dir });
    expect(a.code).toBe(0);
    expect(existsSync(join(dir, 'mcp-typegen.config.json'))).toBe(true);
    expect(existsSync(join(dir, 'mcp.extension.json'))).toBe(true);
    const gen = await runCli(['generate', '--schema-dir', SCHEMA_DIR, '--artifacts', 'types', '--no-format'], {
      cwd: dir,
    });
    expect(gen.stderr).toBe('');
    expect(gen.code).toBe(0);
    expect(readFileSync(join(dir, 'src', 'mcp', 'types.ts'), 'utf8')).toContain('Generated by mcp-typegen');
    const again = await runCli(['init'], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr.split('\n')[0]).toBe(
      `error: ${join(dir, 'mcp-typegen.config.json')}: already exists: init never overwrites a file`,
    );
  });

  it('adds the runtime package to the dependencies and the output to .prettierignore, keeping what is there', async () => {
    const dir = outsideTempDir('init-runtime');
    writeFileSync(join(dir, 'package.json'), '{\n    "name": "app",\n    "dependencies": { "left-pad": "1.3.0" }\n}\n');
    writeFileSync(join(dir, '.prettierignore'), 'dist');
    expect((await runCli(['init'], { cwd: dir })).code).toBe(0);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const version = (
      JSON.parse(readFileSync(join(REPO_ROOT, 'packages', 'runtime', 'package.json'), 'utf8')) as { version: string }
    ).version;
    expect(pkg.dependencies).toEqual({ 'left-pad': '1.3.0', '@mcp-typegen/runtime': `^${version}` });
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toMatch(/^ {4}"name"/m);
    expect(readFileSync(join(dir, '.prettierignore'), 'utf8')).toBe('dist\nsrc/mcp/\n');
  });

  it('chooses the validators as TypeScript for a tsc build without allowJs, and says how to set ESM in a CommonJS package', async () => {
    const dir = outsideTempDir('init-tsc');
    writeFileSync(join(dir, 'package.json'), '{ "name": "app" }\n');
    writeFileSync(
      join(dir, 'tsconfig.json'),
      '{ "compilerOptions": { "outDir": "dist", "isolatedDeclarations": true } }\n',
    );
    const a = await runCli(['init'], { cwd: dir });
    expect(a.code).toBe(0);
    const config = JSON.parse(readFileSync(join(dir, 'mcp-typegen.config.json'), 'utf8')) as {
      targets: { jsModules: string }[];
    };
    expect(config.targets[0]?.jsModules).toBe('ts');
    expect(a.stdout).toContain(`${join(dir, 'tsconfig.json')} emits with tsc without "allowJs"`);
    expect(a.stdout).toContain('has no "type": "module"');
    expect(a.stdout).toContain('npm pkg set type=module');

    // A bundler project (noEmit) keeps validators.js, and an ES module package hears nothing about ESM.
    const bundled = outsideTempDir('init-bundler');
    writeFileSync(join(bundled, 'package.json'), '{ "name": "app", "type": "module" }\n');
    writeFileSync(join(bundled, 'tsconfig.json'), '{ "compilerOptions": { "noEmit": true } }\n');
    const b = await runCli(['init'], { cwd: bundled });
    expect(b.code).toBe(0);
    expect(readFileSync(join(bundled, 'mcp-typegen.config.json'), 'utf8')).toContain('"jsModules": "js"');
    expect(b.stdout).not.toContain('"type": "module"');
  });

  it('names the extension file when only it exists, and writes nothing', async () => {
    const dir = outsideTempDir('init');
    writeFileSync(join(dir, 'mcp.extension.json'), '{}');
    const a = await runCli(['init'], { cwd: dir });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain(`${join(dir, 'mcp.extension.json')}: already exists`);
    expect(existsSync(join(dir, 'mcp-typegen.config.json'))).toBe(false);
  });
});

describe('console', () => {
  it('completion prints a shell script', async () => {
    const a = await runCli(['completion']);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain('###-begin-mcp-typegen-completions-###');
  });

  it('--quiet prints nothing on success; errors are one line plus a hint, without colour', async () => {
    const dir = tempDir('console');
    const q = await runCli([
      'generate',
      '--spec',
      '2025-11-25',
      '--schema-dir',
      SCHEMA_DIR,
      '--out',
      join(dir, 'q'),
      '--artifacts',
      'types',
      '--no-format',
      '--quiet',
    ]);
    expect(q.code).toBe(0);
    expect(q.stdout + q.stderr).toBe('');
    const v = await runCli([
      'generate',
      '--spec',
      '2025-11-25',
      '--schema-dir',
      SCHEMA_DIR,
      '--out',
      join(dir, 'v'),
      '--artifacts',
      'types',
      '--no-format',
      '--verbose',
    ]);
    expect(v.stdout).toContain('  wrote types.ts');
    const e = await runCli(['generate', '--spec', '1999-01-01', '--schema-dir', SCHEMA_DIR, '--out', join(dir, 'e')]);
    expect(e.code).toBe(2);
    const lines = e.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`error: ${join(SCHEMA_DIR, '1999-01-01', 'schema.json')}: unknown spec version "1999-01-01"`);
    expect(lines[1]).toMatch(/^ {2}hint: known versions: /);
    expect(e.stderr).not.toContain('\u001b[');
  });

  it('unknown flags are usage errors (exit 2)', async () => {
    const a = await runCli(['generate', '--spec', '2025-11-25', '--bogus']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/^error: unknown option --bogus\n/);
  });

  it('a repeated single-value option is one usage line, exit 2', async () => {
    const dir = tempDir('repeated');
    const a = await runCli(['generate', '--spec', '2025-11-25', '-o', join(dir, 'a'), '-o', join(dir, 'b')]);
    expect(a.code).toBe(2);
    expect(a.stderr.trimEnd().split('\n')[0]).toBe('error: --out was given more than once');
    expect(existsSync(join(dir, 'a')) || existsSync(join(dir, 'b'))).toBe(false);
  });

  it("each command's --help lists its options from the option tables", async () => {
    const generateHelp = await runCli(['generate', '--help']);
    expect(generateHelp.code).toBe(0);
    for (const o of TARGET_OPTIONS) expect(generateHelp.stdout).toContain(`--${o.flag}`);
    const diffHelp = await runCli(['diff', '--help']);
    expect(diffHelp.code).toBe(0);
    for (const o of DIFF_OPTIONS) expect(diffHelp.stdout).toContain(`--${o.flag}`);
    for (const command of ['methods', 'schemas', 'init']) {
      const help = await runCli([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toContain(`mcp-typegen ${command}`);
    }
  });
});

describe('programmatic API', () => {
  const cases: [string, string[], Parameters<typeof generate>[0]][] = [
    [
      'multi-file, .ts imports',
      ['--artifacts', 'maps', '--import-extension', '.ts'],
      { artifacts: ['maps'], importExtension: '.ts' },
    ],
    [
      'single file with client and server',
      ['--artifacts', 'client', 'server', '--single-file'],
      { artifacts: ['client', 'server'], singleFile: true },
    ],
  ];
  for (const [title, flags, options] of cases) {
    it(`writes the same bytes as the CLI: ${title}`, async () => {
      const dir = tempDir('api');
      const cliOut = join(dir, 'cli');
      const apiOut = join(dir, 'api');
      const run = await runCli([
        'generate',
        '--spec',
        '2025-11-25',
        '--schema-dir',
        SCHEMA_DIR,
        '--out',
        cliOut,
        ...flags,
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const result = await generate({ spec: '2025-11-25', schemaDir: SCHEMA_DIR, outDir: apiOut, ...options });
      await write(result, apiOut);
      const a = allFiles(cliOut);
      const b = allFiles(apiOut);
      expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
      for (const [path, bytes] of a) expect(b.get(path)!.equals(bytes), path).toBe(true);
      expect(await check({ spec: '2025-11-25', schemaDir: SCHEMA_DIR, outDir: cliOut, ...options })).toEqual([]);
      if (options.singleFile) {
        expect(a.has('types.ts')).toBe(false);
        expect(a.has('maps.ts')).toBe(false);
        expect(a.has('index.ts')).toBe(true);
        expect(a.has('validators.js')).toBe(true);
        expect(a.has('validators.d.ts')).toBe(true);
      }
    });
  }

  it('check reports a stale file after an edit', async () => {
    const dir = tempDir('api-check');
    const options = {
      spec: '2025-11-25',
      schemaDir: SCHEMA_DIR,
      outDir: dir,
      artifacts: ['types' as const],
      format: false,
    };
    await write(await generate(options), dir);
    expect(await check(options)).toEqual([]);
    writeFileSync(join(dir, 'types.ts'), readFileSync(join(dir, 'types.ts'), 'utf8') + '\nexport type Extra = 1;\n');
    expect((await check(options)).map((s) => [s.path, s.reason])).toEqual([['types.ts', 'changed']]);
  });
});

describe('what the CLI prints', () => {
  it('nothing from json-schema-to-typescript, even with VERBOSE set in the environment (CI systems set it)', async () => {
    const out = join(outsideTempDir('verbose'), 'mcp');
    const run = await runCli(
      ['generate', '--spec', '2025-11-25', '--schema-dir', SCHEMA_DIR, '--artifacts', 'types', '-o', out, '-q'],
      { env: { VERBOSE: '1' } },
    );
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(out, 'types.ts'), 'utf8')).toContain('export interface Tool ');
  });
});
