/**
 * One list of a target's inputs (src/inputs.ts) serves `--check`'s hash and watch's file list. Changing any
 * one input in turn must make `--check` miss its fast path and report stale output, and must be a file watch
 * mode watches; with nothing changed, `--check` takes the fast path (also when an extension `$ref`s another
 * file, which it once never did).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTarget, isTargetUpToDateFast, runWrite } from '../../src/run/generate.js';
import { resolveTargets } from '../../src/run/targets.js';
import { inputsOf } from '../../src/run/watch.js';
import { captureOut, REPO_ROOT, tempDir } from '../cli/helpers.js';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures');
const editJson = (file: string, edit: (value: Record<string, any>) => void) => {
  const value = JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
  edit(value);
  writeFileSync(file, JSON.stringify(value, null, 2));
};

/**
 * A project with every kind of input: a schema, an extension that $refs a second file, a pairing file, a tools
 * snapshot, a config.
 */
function project() {
  const dir = tempDir('inputs');
  const file = (name: string) => join(dir, name);
  cpSync(join(FIXTURES, 'schemas', 'minimal.schema.json'), file('schema.json'));
  editJson(file('schema.json'), (s) => {
    s.$defs.OtherResult = { type: 'object', properties: { other: { type: 'string' } } };
    // tools/call, which the tools snapshot needs.
    s.$defs.CallToolRequest = {
      type: 'object',
      properties: {
        method: { const: 'tools/call' },
        params: { type: 'object', properties: { name: { type: 'string' } } },
      },
      required: ['method', 'params'],
    };
    s.$defs.CallToolResult = { type: 'object', properties: { content: { type: 'array' } } };
    s.$defs.ClientRequest.anyOf.push({ $ref: '#/$defs/CallToolRequest' });
  });
  for (const name of ['uses-a.extension.json', 'shared.extension.json'])
    cpSync(join(FIXTURES, 'extensions', 'augment', name), file(name));
  for (const name of ['uses-a.extension.json', 'shared.extension.json'])
    editJson(file(name), (e) => {
      e.$schema = join(REPO_ROOT, 'schema', 'extension.schema.json');
    });
  writeFileSync(file('pairing.json'), JSON.stringify({ pairs: { ping: 'EmptyResult' } }));
  const echo = { name: 'echo', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } };
  writeFileSync(file('tools.json'), JSON.stringify({ mcpSnapshot: 1, server: {}, tools: { echo } }));
  const config = {
    targets: [
      {
        name: 'inputs',
        schema: 'schema.json',
        out: 'out',
        extensions: ['uses-a.extension.json'],
        pairing: 'pairing.json',
        tools: 'tools.json',
        artifacts: ['types', 'maps'],
      },
    ],
  };
  writeFileSync(file('mcp-typegen.config.json'), JSON.stringify(config, null, 2));
  return { dir, file, configFile: file('mcp-typegen.config.json') };
}

const CHANGES: [input: string, file: string, change: (file: string) => void][] = [
  [
    'the schema',
    'schema.json',
    (f) =>
      editJson(f, (s) => {
        s.$defs.Probe = { type: 'object', properties: { probe: { type: 'string' } } };
      }),
  ],
  [
    'an extension file',
    'uses-a.extension.json',
    (f) =>
      editJson(f, (e) => {
        e.methods['com.acme/a.get'].result = { type: 'object', properties: { n: { type: 'integer' } } };
      }),
  ],
  [
    'a file an extension reaches through $ref',
    'shared.extension.json',
    (f) =>
      editJson(f, (e) => {
        e.definitions.AcmeShared.properties.added = { type: 'boolean' };
      }),
  ],
  [
    'the pairing file',
    'pairing.json',
    (f) =>
      editJson(f, (p) => {
        p.pairs.ping = 'OtherResult';
      }),
  ],
  [
    'the tools snapshot',
    'tools.json',
    (f) =>
      editJson(f, (t) => {
        t.tools.echo.inputSchema.required = ['message'];
      }),
  ],
  [
    'an option in the config file',
    'mcp-typegen.config.json',
    (f) =>
      editJson(f, (c) => {
        c.targets[0].importExtension = '.ts';
      }),
  ],
  ['the prettier config', '.prettierrc.json', (f) => writeFileSync(f, JSON.stringify({ semi: false }))],
];

describe('a target’s inputs', () => {
  it('unchanged: --check takes the fast path, with an extension that $refs another file', async () => {
    const { dir, configFile } = project();
    const { targets } = await resolveTargets({ config: configFile, options: {}, policy: {} }, dir);
    expect(await runWrite(targets, captureOut())).toBe(0);
    expect(await isTargetUpToDateFast(targets[0]!)).toBe(true);
    expect(await checkTarget(targets[0]!)).toEqual([]);
  });

  it.each(CHANGES)('changed: %s makes --check stale and is watched', async (_input, name, change) => {
    const { dir, file, configFile } = project();
    // The prettier config is watched once it exists; created here so the first run formats with it absent.
    const flags = { config: configFile, options: {}, policy: {} };
    const before = (await resolveTargets(flags, dir)).targets;
    expect(await runWrite(before, captureOut())).toBe(0);
    if (name !== '.prettierrc.json') expect(await inputsOf(before, configFile)).toContain(file(name));

    change(file(name));
    const after = (await resolveTargets(flags, dir)).targets;
    expect(await inputsOf(after, configFile)).toContain(file(name));
    expect(await isTargetUpToDateFast(after[0]!)).toBe(false);
    expect((await checkTarget(after[0]!)).length).toBeGreaterThan(0);
  });
});
