/**
 * The config file: the option table is the one definition (schema, yargs, API), multi-target runs,
 * flag overrides, and every invalid config with its exact one-line error and exit code 2.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { TARGET_OPTIONS, configJsonSchema, optionJsonSchema } from '../../src/config/options.js';
import { DIFF_OPTIONS } from '../../src/cli/diff-options.js';
import { main } from '../../src/cli/main.js';
import { captureOut, REPO_ROOT, runCli, SCHEMA_DIR, tempDir } from '../cli/helpers.js';

const schema = JSON.parse(readFileSync(join(REPO_ROOT, 'schema', 'config.schema.json'), 'utf8')) as {
  properties: Record<string, Record<string, unknown>>;
  $defs: { target: { properties: Record<string, Record<string, unknown>> } };
};
const strip = ({ description: _d, ...rest }: Record<string, unknown>) => rest;

describe('one definition of each option', () => {
  it('schema/config.schema.json is generated from the option table (update with vitest -u)', async () => {
    await expect(`${JSON.stringify(configJsonSchema(), null, 2)}\n`).toMatchFileSnapshot(
      join(REPO_ROOT, 'schema', 'config.schema.json'),
    );
  });

  it("the config schema's target properties are the option table (plus name); defaults exclude per-target keys", () => {
    const props = schema.$defs.target.properties;
    expect(Object.keys(props).sort()).toEqual(['name', ...TARGET_OPTIONS.map((o) => o.key)].sort());
    for (const o of TARGET_OPTIONS) expect(strip(props[o.key]!), o.key).toEqual(optionJsonSchema(o));
    const top = Object.keys(schema.properties).filter((k) => k !== '$schema' && k !== 'targets');
    expect(top.sort()).toEqual(
      TARGET_OPTIONS.map((o) => o.key)
        .filter((k) => !['out', 'schema', 'sha256'].includes(k))
        .sort(),
    );
  });

  it('every option has a CLI flag that generate --help lists; every diff option is in diff --help', async () => {
    const [generate, diff] = await Promise.all([runCli(['generate', '--help']), runCli(['diff', '--help'])]);
    for (const o of TARGET_OPTIONS) expect(generate.stdout).toContain(`--${o.flag}`);
    for (const o of DIFF_OPTIONS) expect(diff.stdout).toContain(`--${o.flag}`);
  });

  it('the repo root config is valid and lists the five versions and the acme-jobs targets', () => {
    const file = join(REPO_ROOT, 'mcp-typegen.config.json');
    const config = parseConfig(readFileSync(file, 'utf8'), file);
    expect(config.targets.map((t) => t.name)).toEqual([
      '2024-11-05',
      '2025-03-26',
      '2025-06-18',
      '2025-11-25',
      '2026-07-28',
      'acme-jobs/2025-06-18',
      'acme-jobs/2025-11-25',
      'acme-jobs/2026-07-28',
    ]);
    expect(config.targets[5]!.out).toBe(join(REPO_ROOT, 'generated', 'acme-jobs', '2025-06-18'));
    expect(config.targets[5]!.extensions).toEqual([join(REPO_ROOT, 'schema', 'examples', 'acme-jobs.extension.json')]);
  });
});

/** Run main in-process with a config text; returns exit code and the captured error lines. */
async function runWithConfig(configText: string, extra: string[] = []) {
  const dir = tempDir('config');
  const file = join(dir, 'mcp-typegen.config.json');
  writeFileSync(file, configText);
  const out = captureOut();
  const code = await main(['generate', '--config', file, ...extra], out);
  return { code, out, file, dir };
}

describe('invalid configs: one line with the pointer, exit 2', () => {
  const valid = { targets: [{ spec: '2025-11-25', out: 'out', artifacts: ['types'], format: false }] };
  const cases: [string, unknown, (file: string) => string][] = [
    [
      'unknown top-level key',
      { ...valid, outDir: 'x' },
      (f) => `${f}#/outDir: unknown key "outDir": did you mean "out", in each target?`,
    ],
    [
      'unknown key in a target',
      { targets: [{ ...valid.targets[0], output: 'x' }] },
      (f) => `${f}#/targets/0/output: unknown key "output": did you mean "out"?`,
    ],
    [
      'wrong type',
      { targets: [{ ...valid.targets[0], singleFile: 'yes' }] },
      (f) => `${f}#/targets/0/singleFile: must be a boolean`,
    ],
    [
      'wrong array type',
      { targets: [{ ...valid.targets[0], extensions: 'a.json' }] },
      (f) => `${f}#/targets/0/extensions: must be an array`,
    ],
    [
      'bad enum',
      { targets: [{ ...valid.targets[0], artifacts: ['typez'] }] },
      (f) =>
        `${f}#/targets/0/artifacts/0: must be one of "types", "maps", "client", "server", "validators", "sdk", "sdk-v1"`,
    ],
    [
      'missing spec and schema',
      { targets: [{ out: 'out' }] },
      (f) => `${f}#/targets/0: a target needs "spec" (a version name) or "schema" (a file)`,
    ],
    ['missing out', { targets: [{ spec: '2025-11-25' }] }, (f) => `${f}#/targets/0: missing required key "out"`],
    [
      'out is "-"',
      { targets: [{ ...valid.targets[0], out: '-' }] },
      (f) => `${f}#/targets/0/out: must name a directory: writing to standard output ("-") is not supported`,
    ],
    ['missing targets', { spec: '2025-11-25' }, (f) => `${f}#: missing required key "targets"`],
    ['empty targets', { targets: [] }, (f) => `${f}#/targets: must have at least 1 item(s)`],
    [
      'spec and schema together',
      { targets: [{ ...valid.targets[0], schema: 's.json' }] },
      (f) => `${f}#/targets/0/schema: "spec" and "schema" cannot be used together`,
    ],
    [
      'duplicate names',
      {
        targets: [
          { ...valid.targets[0], name: 'a' },
          { ...valid.targets[0], name: 'a' },
        ],
      },
      (f) => `${f}#/targets/1/name: duplicate target name "a"`,
    ],
  ];
  for (const [title, config, expected] of cases) {
    it(title, async () => {
      const { code, out, file, dir } = await runWithConfig(JSON.stringify(config, null, 2));
      expect(out.errors).toEqual([expected(file)]);
      expect(code).toBe(2);
      expect(existsSync(join(dir, 'out'))).toBe(false);
    });
  }

  it('bad JSON names the line and column', async () => {
    const { code, out, file } = await runWithConfig('{\n  "targets": [\n    { "spec": "2025-11-25", }\n  ]\n}\n');
    expect(code).toBe(2);
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid JSON at line 3, column 29: `),
    );
  });

  // Issue 43: a missing input file the config names is reported at its place in the config (it named the file only).
  const base = { spec: '2025-11-25', out: 'out', artifacts: ['types'], format: false, schemaDir: SCHEMA_DIR };
  const missing: [string, unknown, string][] = [
    [
      'a schema file',
      { targets: [{ schema: 'nope.json', out: 'out' }] },
      '#/targets/0/schema: nope.json: schema file not found',
    ],
    [
      'an extension file of a target',
      { targets: [{ ...base, extensions: ['io.modelcontextprotocol/tasks', 'sub/nope.extension.json'] }] },
      '#/targets/0/extensions/1: sub/nope.extension.json: extension file not found',
    ],
    [
      'an extension file of the defaults',
      {
        extensions: ['nope.extension.json'],
        targets: [
          { ...base, name: 'a' },
          { ...base, name: 'b', out: 'b' },
        ],
      },
      '#/extensions/0: nope.extension.json: extension file not found',
    ],
    [
      'a pairing file',
      { targets: [{ ...base }, { ...base, out: 'b', name: 'b', pairing: 'nope.pairing.json' }] },
      '#/targets/1/pairing: nope.pairing.json: pairing file not found',
    ],
    [
      'a snapshot file',
      { targets: [{ ...base, tools: 'nope.snapshot.json' }] },
      '#/targets/0/tools: nope.snapshot.json: snapshot file not found',
    ],
  ];
  for (const [what, config, expected] of missing) {
    it(`${what} that does not exist: the config file and the pointer`, async () => {
      const { code, out, file, dir } = await runWithConfig(JSON.stringify(config));
      expect(out.errors).toEqual([`${file}${expected}`]);
      expect(code).toBe(2);
      expect(existsSync(join(dir, 'out'))).toBe(false);
    });
  }

  it("a missing file the flags override is not the config's error", async () => {
    const pairing = join(tempDir('pairing'), 'pairing.json');
    writeFileSync(pairing, '{ "pairs": {} }');
    const { code, out } = await runWithConfig(JSON.stringify({ targets: [{ ...base, pairing: 'nope.json' }] }), [
      '--pairing',
      pairing,
    ]);
    expect(out.errors).toEqual([]);
    expect(code).toBe(0);
  });

  it('an unknown spec version: the config file and the pointer', async () => {
    const { code, out, dir, file } = await runWithConfig(
      JSON.stringify({ schemaDir: SCHEMA_DIR, targets: [{ spec: '1999-01-01', out: 'out' }] }),
    );
    expect(code).toBe(2);
    expect(out.errors).toEqual([`${file}#/targets/0/spec: unknown spec version "1999-01-01"`]);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('a config file that does not exist', async () => {
    const out = captureOut();
    const dir = tempDir('config');
    expect(await main(['generate', '--config', join(dir, 'missing.json')], out)).toBe(2);
    expect(out.errors).toEqual([`${join(dir, 'missing.json')}: config file not found`]);
  });

  it('--out with several targets, and an unknown --target, are usage errors', async () => {
    const two = JSON.stringify({
      schemaDir: SCHEMA_DIR,
      targets: [
        { spec: '2025-11-25', out: 'a' },
        { spec: '2025-06-18', out: 'b' },
      ],
    });
    const a = await runWithConfig(two, ['--out', 'x']);
    expect(a.code).toBe(2);
    expect(a.out.errors).toEqual(['--out would send 2 targets to one directory']);
    const b = await runWithConfig(two, ['--target', 'nope']);
    expect(b.code).toBe(2);
    expect(b.out.errors).toEqual([`no target named "nope" in ${b.file}`]);
  });
});

describe('multi-target runs and flag overrides', () => {
  it('runs every target, paths relative to the config file, and --check agrees', async () => {
    const config = {
      $schema: join(REPO_ROOT, 'schema', 'config.schema.json'),
      schemaDir: SCHEMA_DIR,
      format: false,
      targets: [
        { name: 'one', spec: '2025-11-25', out: 'gen/one', artifacts: ['types'] },
        {
          name: 'two',
          schema: join(SCHEMA_DIR, '2025-06-18', 'schema.json'),
          out: 'gen/two',
          artifacts: ['maps'],
          importExtension: '',
        },
      ],
    };
    const { code, out, dir, file } = await runWithConfig(JSON.stringify(config));
    expect(out.errors).toEqual([]);
    expect(code).toBe(0);
    expect(out.lines.filter((l) => /^(one|two): \d+ methods → /.test(l))).toHaveLength(2);
    expect(existsSync(join(dir, 'gen/one/types.ts'))).toBe(true);
    expect(existsSync(join(dir, 'gen/one/maps.ts'))).toBe(false);
    expect(readFileSync(join(dir, 'gen/two/maps.ts'), 'utf8')).toMatch(/from ["']\.\/types["']/);
    const check = captureOut();
    expect(await main(['generate', '--config', file, '--check'], check)).toBe(0);
  });

  it('flags override each target: --import-extension, --artifacts, --spec, and --target picks one', async () => {
    const config = {
      schemaDir: SCHEMA_DIR,
      format: false,
      targets: [
        { name: 'a', spec: '2025-11-25', out: 'a', artifacts: ['types'] },
        { name: 'b', spec: '2025-11-25', out: 'b', artifacts: ['types'] },
      ],
    };
    const { code, out, dir } = await runWithConfig(JSON.stringify(config), [
      '--target',
      'b',
      '--artifacts',
      'maps',
      '--import-extension',
      '.ts',
      '--spec',
      '2025-06-18',
    ]);
    expect(out.errors).toEqual([]);
    expect(code).toBe(0);
    expect(existsSync(join(dir, 'a'))).toBe(false);
    const maps = readFileSync(join(dir, 'b', 'maps.ts'), 'utf8');
    expect(maps).toMatch(/from ["']\.\/types\.ts["']/);
    expect(maps).toContain('MCP 2025-06-18');
  });

  it('is found upward from the cwd when no schema flag is given', async () => {
    const dir = tempDir('config-up');
    writeFileSync(
      join(dir, 'mcp-typegen.config.json'),
      JSON.stringify({
        schemaDir: SCHEMA_DIR,
        targets: [{ spec: '2025-11-25', out: 'gen', artifacts: ['types'], format: false }],
      }),
    );
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'sub', 'deeper'), { recursive: true });
    const run = await runCli(['generate'], { cwd: join(dir, 'sub', 'deeper') });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^2025-11-25: \d+ methods → .*gen \(2 written, 0 unchanged\) in \d+ ms\n$/);
    expect(existsSync(join(dir, 'gen', 'types.ts'))).toBe(true);
  });
});

describe('"out" that cannot be an output directory (issue 36)', () => {
  const file = join(REPO_ROOT, 'test', '.tmp', 'cfg', 'mcp-typegen.config.json');
  const refused = (out: string) => {
    try {
      parseConfig(JSON.stringify({ targets: [{ spec: '2025-11-25', out }] }), file);
    } catch (error) {
      return error as Error & { pointer?: string; reason?: string };
    }
    throw new Error(`"out": ${JSON.stringify(out)} was accepted`);
  };

  it('the config file itself: refused at /targets/0/out', () => {
    const error = refused('mcp-typegen.config.json');
    expect(error.pointer).toBe('/targets/0/out');
    expect(error.reason).toBe('"out" is this config file, not a directory');
  });

  it('a newline or NUL in it: refused at /targets/0/out', () => {
    for (const out of ['a\nb', 'a\u0000b'])
      expect(refused(out).reason).toBe('"out" holds a control character or line break');
  });
});
