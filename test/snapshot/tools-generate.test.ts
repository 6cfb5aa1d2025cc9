/**
 * `generate` with `tools`, on the small golden fixture schema (fast): the one naming function (odd names,
 * case twins, names taken by the generated code, numbered deterministically, with a warning), bad snapshots
 * refused at their file and pointer (exit 2 on the command line), deterministic output, and the compiled
 * validators' behaviour (a draft-07 tuple checked as draft-07 means it).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { generate } from '../../src/generate.js';
import { typeNamer } from '../../src/emit/shared/tool-surface.js';
import { ajvClass } from '../../src/emit/validators/ajv-class.js';
import { REPO_ROOT, runCli, tempDir } from '../cli/helpers.js';
import { buildWithTools, GOLDEN_FIXTURE } from './tools-build.js';

const SCHEMA = join(GOLDEN_FIXTURE, 'schema.json');

/** A snapshot file of these tools, written to a fresh directory. */
function snapshotFile(tools: Record<string, object>): string {
  const file = join(tempDir('tools-generate'), 'tools.json');
  const entries = Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, { name, ...tool }]));
  writeFileSync(file, JSON.stringify({ mcpSnapshot: 1, server: { name: 't' }, tools: entries }));
  return file;
}

const run = (tools: string) => generate({ schema: SCHEMA, tools, cwd: REPO_ROOT, outDir: tempDir('tools-out') });
const object = (properties: object = {}) => ({ inputSchema: { type: 'object', properties } });

describe('naming', () => {
  it('PascalCase of the name plus the kind; a taken name gets the first free number, and a warning', () => {
    const warnings: string[] = [];
    const name = typeNamer(new Set(['EchoArguments', 'McpClient']), warnings);
    expect(name('echo', 'toolArguments', 'tool echo')).toBe('EchoArguments2');
    expect(name('Echo', 'toolArguments', 'tool Echo')).toBe('EchoArguments3');
    expect(name('get-user.v2', 'toolArguments', 'tool get-user.v2')).toBe('GetUserV2Arguments');
    expect(name('get_user_v2', 'toolArguments', 'tool get_user_v2')).toBe('GetUserV2Arguments2');
    expect(name('123', 'toolArguments', 'tool 123')).toBe('Tool123Arguments');
    expect(name('1st-tool', 'toolArguments', 'tool 1st-tool')).toBe('Tool1StToolArguments');
    expect(name('1-Tool', 'toolArguments', 'tool 1-Tool')).toBe('Tool1ToolArguments');
    expect(name('---', 'toolArguments', 'tool ---')).toBe('ToolArguments');
    expect(name('__proto__', 'promptArguments', 'prompt __proto__')).toBe('ProtoPromptArguments');
    expect(name('constructor', 'toolArguments', 'tool constructor')).toBe('ConstructorArguments');
    expect(name('class', 'toolOutput', 'tool class')).toBe('ClassStructuredContent');
    expect(warnings).toEqual([
      'tool echo: its type is named EchoArguments2 (EchoArguments is taken)',
      'tool Echo: its type is named EchoArguments3 (EchoArguments is taken)',
      'tool get_user_v2: its type is named GetUserV2Arguments2 (GetUserV2Arguments is taken)',
    ]);
  });

  it('the golden fixture: the case twin is numbered with a warning, the same bytes twice', async () => {
    const tools = join(GOLDEN_FIXTURE, 'tools.snapshot.json');
    const [first, second] = [await run(tools), await run(tools)];
    expect(first.warnings).toContain('tool echo: its type is named EchoArguments2 (EchoArguments is taken)');
    expect(second.files).toEqual(first.files);
  });

  it('names that meet in PascalCase: each its own type, the later (sorted) numbered; calls keyed as spelled', async () => {
    const { files, warnings } = await run(snapshotFile({ get_user: object(), 'get-user': object() }));
    const tools = files.find((f) => f.path === 'tools.ts')?.contents ?? '';
    expect(tools).toContain("'get-user': { arguments: V.GetUserArguments }");
    expect(tools).toContain('get_user: { arguments: V.GetUserArguments2 }');
    expect(warnings).toContain('tool get_user: its type is named GetUserArguments2 (GetUserArguments is taken)');
  });
});

describe('bad snapshots: one error naming the file and the pointer', () => {
  it.each([
    [
      'a $ref out of the schema',
      { t: object({ a: { $ref: 'https://example.com/a.json' } }) },
      '/tools/t/inputSchema/properties/a/$ref',
      /a \$ref outside the schema cannot be resolved/,
    ],
    [
      'a dangling $ref',
      { t: object({ a: { $ref: '#/properties/b' } }) },
      '/tools/t/inputSchema/properties/a/$ref',
      /dangling \$ref/,
    ],
    [
      'a pattern no validator can compile',
      { t: object({ a: { type: 'string', pattern: '(' } }) },
      '/tools/t/inputSchema',
      /no validator can be compiled from this schema/,
    ],
    [
      'not a snapshot entry',
      { t: { inputSchema: { type: 'string' } } },
      '/tools/t/inputSchema/type',
      /must be equal to constant/,
    ],
  ])('%s', async (_name, tools, pointer, reason) => {
    const file = snapshotFile(tools);
    const error = await run(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ file, pointer, reason: expect.stringMatching(reason) });
  });

  it('on the command line: exit 2, one line', async () => {
    const file = snapshotFile({ t: object({ a: { $ref: 'https://example.com/a.json' } }) });
    const cli = await runCli(['generate', '--schema', SCHEMA, '--tools', file, '--out', tempDir('tools-cli')]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(`${file}#/tools/t/inputSchema/properties/a/$ref: a $ref outside the schema`);
  });
});

it('the validators: draft-07 tuples and dependencies checked as draft-07 means them; $defs and pointer refs resolve', async () => {
  const tuple = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
      card: { type: 'string' },
      other: { $ref: '#/properties/card' },
      home: { $ref: '#/definitions/Address' },
    },
    dependencies: { card: ['billing'] },
    definitions: { Address: { type: 'object', required: ['city'] } },
  };
  const build = await buildWithTools('tools-validators', {
    spec: undefined,
    schema: SCHEMA,
    tools: snapshotFile({ t: { inputSchema: tuple } }),
  });
  const { TArguments } = await build.load('tool-validators.js');
  expect(TArguments({ pair: ['a', 1] })).toBe(true);
  expect(TArguments({ pair: ['a', 'b'] })).toBe(false);
  expect(TArguments({ pair: ['a', 1, 2] })).toBe(false);
  expect(TArguments({ card: 'x' })).toBe(false);
  expect(TArguments({ card: 'x', billing: 'y' })).toBe(true);
  expect(TArguments({ other: 3 })).toBe(false);
  expect(TArguments({ home: {} })).toBe(false);
  expect(TArguments({ home: { city: 'Porto' } })).toBe(true);
});

it('the validators as Standard Schemas: every issue at once, each at the offending value, an extra property by its name', async () => {
  const schema = {
    type: 'object',
    properties: {
      city: { type: 'string' },
      days: { type: 'integer', minimum: 1 },
      units: { type: 'object', properties: { temp: { enum: ['c', 'f'] } }, additionalProperties: false },
      tags: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } },
    },
    required: ['city'],
    dependentRequired: { days: ['units'] },
    additionalProperties: false,
  };
  const build = await buildWithTools('tools-standard-schema', {
    spec: undefined,
    schema: SCHEMA,
    tools: snapshotFile({ forecast: { inputSchema: schema } }),
  });
  type Standard = { '~standard': { validate(value: unknown): { issues?: { message: string; path: unknown[] }[] } } };
  const { ForecastArguments } = (await build.load('tool-validators.js')) as Record<string, Standard>;
  const issues = (value: unknown) => ForecastArguments!['~standard'].validate(value).issues;
  expect(issues({ city: 'Porto', days: 2, units: { temp: 'c' } })).toBeUndefined();
  expect(issues({ days: 0, units: { temp: 'k', wind: 'kmh' }, extra: true, tags: { Bad: 1 } })).toEqual([
    { message: "must have required property 'city'", path: ['city'] },
    { message: 'must NOT have additional properties', path: ['extra'] },
    { message: 'must be >= 1', path: ['days'] },
    { message: 'must NOT have additional properties', path: ['units', 'wind'] },
    { message: 'must be equal to one of the allowed values', path: ['units', 'temp'] },
    // The name's own check is about the object; the error that follows names the property.
    { message: 'must match pattern "^[a-z]+$"', path: ['tags'] },
    { message: 'property name must be valid', path: ['tags', 'Bad'] },
  ]);
  expect(issues({ city: 'Porto', days: 2 })).toEqual([
    { message: 'must have property units when property days is present', path: ['units'] },
  ]);
});

it('a oneOf told apart by a tag: the errors are those of the branch the tag picks', async () => {
  const shape = {
    type: 'object',
    properties: {
      shape: {
        oneOf: [
          {
            type: 'object',
            properties: { kind: { const: 'circle' }, radius: { type: 'number' } },
            required: ['kind', 'radius'],
          },
          {
            type: 'object',
            properties: { kind: { enum: ['square', 'box'] }, side: { type: 'number' } },
            required: ['kind', 'side'],
          },
        ],
      },
    },
    required: ['shape'],
  };
  const build = await buildWithTools('tools-discriminator', {
    spec: undefined,
    schema: SCHEMA,
    tools: snapshotFile({ draw: { inputSchema: shape } }),
  });
  type Standard = { '~standard': { validate(value: unknown): { issues?: { message: string; path: unknown[] }[] } } };
  const { DrawArguments } = (await build.load('tool-validators.js')) as Record<string, Standard>;
  const issues = (value: unknown) => DrawArguments!['~standard'].validate(value).issues;
  expect(issues({ shape: { kind: 'square', side: 2 } })).toBeUndefined();
  expect(issues({ shape: { kind: 'circle', radius: 1 } })).toBeUndefined();
  // Not the circle's "radius required" first: the square's own error, alone.
  expect(issues({ shape: { kind: 'square', side: 'two' } })).toEqual([
    { message: 'must be number', path: ['shape', 'side'] },
  ]);
  expect(issues({ shape: { kind: 'box' } })).toEqual([
    { message: "must have required property 'side'", path: ['shape', 'side'] },
  ]);
  expect(issues({ shape: { kind: 'hexagon' } })?.[0]?.message).toBe('value of tag "kind" must be in oneOf');
  expect(issues({ shape: { kind: 'circle', radius: 1, side: 2 } })).toBeUndefined();
});

it('tool-schemas.js: each validator carries its JSON Schema in both dialects, and both mean what the validator means', async () => {
  const draft07 = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
      card: { type: 'string' },
      home: { $ref: '#/definitions/Address' },
    },
    dependencies: { card: ['billing'] },
    definitions: { Address: { type: 'object', required: ['city'] } },
  };
  const modern = {
    type: 'object',
    properties: {
      pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
      card: { type: 'string' },
      home: { $ref: '#/$defs/Address' },
    },
    dependentRequired: { card: ['billing'] },
    $defs: { Address: { type: 'object', required: ['city'] } },
  };
  const build = await buildWithTools('tools-schemas', {
    spec: undefined,
    schema: SCHEMA,
    tools: snapshotFile({ old: { inputSchema: draft07 }, new: { inputSchema: modern, outputSchema: modern } }),
  });
  type Converter = (options: { target: string }) => Record<string, unknown>;
  type WithJson = {
    '~standard': { validate(value: unknown): { issues?: unknown[] }; jsonSchema: { input: Converter } };
  };
  const { toolSchemas } = (await build.load('tool-schemas.js')) as {
    toolSchemas: Record<string, { inputSchema: WithJson; outputSchema?: WithJson }>;
  };
  expect(Object.keys(toolSchemas).sort()).toEqual(['new', 'old']);
  expect(Object.keys(toolSchemas.new!).sort()).toEqual(['inputSchema', 'outputSchema']);
  const [Ajv07, Ajv2020] = [ajvClass('draft-07'), ajvClass('2020-12')];
  const values = [
    {},
    { pair: ['a', 1] },
    { pair: ['a', 'b'] },
    { pair: ['a', 1, 2] },
    { card: 'x' },
    { card: 'x', billing: 'y' },
    { home: {} },
    { home: { city: 'Porto' } },
  ];
  for (const name of ['old', 'new']) {
    const schema = toolSchemas[name]!.inputSchema['~standard'];
    const in07 = schema.jsonSchema.input({ target: 'draft-07' });
    const in2020 = schema.jsonSchema.input({ target: 'draft-2020-12' });
    expect(in07.$schema, 'the draft-07 form says nothing of its dialect: the consumer asked for it').toBeUndefined();
    const check07 = new Ajv07({ strict: false }).compile(in07);
    const check2020 = new Ajv2020({ strict: false }).compile(in2020);
    for (const value of values) {
      const valid = schema.validate(value).issues === undefined;
      expect([name, value, check07(value)]).toEqual([name, value, valid]);
      expect([name, value, check2020(value)]).toEqual([name, value, valid]);
    }
    // Each call answers a fresh copy: a consumer that edits it (the AI SDK adds additionalProperties) edits its own.
    expect(schema.jsonSchema.input({ target: 'draft-07' })).not.toBe(in07);
    expect(() => schema.jsonSchema.input({ target: 'openapi-3.0' })).toThrow(/no JSON Schema for target openapi-3.0/);
  }
  expect(toolSchemas.old!.inputSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' })).toMatchObject({
    properties: { pair: { prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } },
    dependentRequired: { card: ['billing'] },
  });
  expect(toolSchemas.new!.inputSchema['~standard'].jsonSchema.input({ target: 'draft-07' })).toMatchObject({
    properties: {
      pair: { items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
      home: { $ref: '#/definitions/Address' },
    },
    dependencies: { card: ['billing'] },
    definitions: { Address: { type: 'object', required: ['city'] } },
  });
});
