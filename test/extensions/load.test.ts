import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { extensionMetaSchemaPath, loadExtensionFile, parseExtension } from '../../src/extensions/load.js';
import { FIXTURES, ROOT, inputErrorOf } from './helpers.js';

const EXAMPLE = 'schema/examples/acme-jobs.extension.json';

describe('the acme-jobs example', () => {
  it('loads into normalized plain data', async () => {
    const spec = await loadExtensionFile(EXAMPLE);
    expect(spec.file).toBe(EXAMPLE);
    expect(spec.id).toBe('acme/jobs');
    expect(spec.prefix).toBe('acme');
    expect(spec.official).toBe(false);
    expect(spec.version).toBe('1.2.0');
    expect(spec.targets).toEqual(['2025-06-18', '2025-11-25', '2026-07-28']);
    expect(Object.keys(spec.definitions)).toEqual([
      'AcmeJob',
      'AcmeJobId',
      'AcmeJobState',
      'AcmePriority',
      'AcmeRequestMeta',
    ]);
    expect(spec.settings).toMatchObject({ type: 'object', properties: { maxConcurrentJobs: { type: 'integer' } } });
    // Sorted by method string; params/result kept as written.
    expect(
      spec.methods.map(({ method, kind, directions, paramsRequired, pointer, result }) => ({
        method,
        kind,
        directions,
        paramsRequired,
        pointer,
        hasResult: result !== undefined,
      })),
    ).toEqual([
      {
        method: 'acme/jobs.cancel',
        kind: 'request',
        directions: ['client->server'],
        paramsRequired: true,
        pointer: '/methods/acme~1jobs.cancel',
        hasResult: true,
      },
      {
        method: 'acme/jobs.finished',
        kind: 'notification',
        directions: ['server->client'],
        paramsRequired: true,
        pointer: '/methods/acme~1jobs.finished',
        hasResult: false,
      },
      {
        method: 'acme/jobs.list',
        kind: 'request',
        directions: ['client->server'],
        paramsRequired: false,
        pointer: '/methods/acme~1jobs.list',
        hasResult: true,
      },
      {
        method: 'acme/jobs.start',
        kind: 'request',
        directions: ['client->server'],
        paramsRequired: true,
        pointer: '/methods/acme~1jobs.start',
        hasResult: true,
      },
      {
        method: 'acme/jobs.status',
        kind: 'request',
        directions: ['client->server'],
        paramsRequired: true,
        pointer: '/methods/acme~1jobs.status',
        hasResult: true,
      },
    ]);
    const start = spec.methods.find((m) => m.method === 'acme/jobs.start')!;
    expect(start.params).toMatchObject({
      required: ['pipeline'],
      properties: { _meta: { $ref: '#/definitions/AcmeRequestMeta' } },
    });
    expect(start.result).toEqual({
      type: 'object',
      properties: { job: { $ref: '#/definitions/AcmeJob' } },
      required: ['job'],
    });
    expect(spec.definitions.AcmeJob).toMatchObject({ properties: { output: { items: { $ref: 'mcp:ContentBlock' } } } });
    expect(spec.definitions.AcmeRequestMeta).toMatchObject({
      properties: { progressToken: { $ref: 'mcp:ProgressToken' } },
    });
    // Plain data: survives a JSON round trip unchanged.
    expect(JSON.parse(JSON.stringify(spec))).toEqual(spec);
  });

  it('is valid against the meta-schema with a plain Ajv2020 (what editors see)', () => {
    const ajv = new Ajv2020Module.default({ strict: false, validateFormats: false });
    const validate = ajv.compile(JSON.parse(readFileSync(extensionMetaSchemaPath(), 'utf8')) as object);
    expect(validate(JSON.parse(readFileSync(join(ROOT, EXAMPLE), 'utf8')))).toBe(true);
  });

  it('points its $schema at the meta-schema', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, EXAMPLE), 'utf8')) as { $schema: string };
    expect(join(ROOT, 'schema', 'examples', doc.$schema)).toBe(extensionMetaSchemaPath());
  });
});

describe('normalization defaults', () => {
  it('paramsRequired defaults from required properties (also through a local $ref), both -> two directions, no params -> null', () => {
    const spec = parseExtension(
      'x.json',
      JSON.stringify({
        extension: 'acme/x',
        description: 'd',
        methods: {
          'acme/b': { kind: 'notification', direction: 'both' },
          'acme/a': {
            kind: 'request',
            direction: 'server->client',
            params: { $ref: '#/definitions/P' },
            result: { type: 'object' },
          },
          'acme/c': {
            kind: 'request',
            direction: 'client->server',
            params: { type: 'object', required: ['x'] },
            paramsRequired: false,
            result: {},
          },
        },
        definitions: { P: { type: 'object', required: ['id'] } },
      }),
    );
    expect(spec.methods).toEqual([
      {
        method: 'acme/a',
        kind: 'request',
        directions: ['server->client'],
        params: { $ref: '#/definitions/P' },
        paramsRequired: true,
        paramsRequiredGiven: false,
        cacheable: false,
        mandatory: false,
        result: { type: 'object' },
        pointer: '/methods/acme~1a',
      },
      {
        method: 'acme/b',
        kind: 'notification',
        directions: ['client->server', 'server->client'],
        params: null,
        paramsRequired: false,
        paramsRequiredGiven: false,
        cacheable: false,
        mandatory: false,
        pointer: '/methods/acme~1b',
      },
      {
        method: 'acme/c',
        kind: 'request',
        directions: ['client->server'],
        params: { type: 'object', required: ['x'] },
        paramsRequired: false,
        paramsRequiredGiven: true,
        cacheable: false,
        mandatory: false,
        result: {},
        pointer: '/methods/acme~1c',
      },
    ]);
    expect(spec).toMatchObject({ targets: null, settings: null, version: null, official: false, prefix: 'acme' });
  });

  it('ignores a leading BOM', () => {
    expect(parseExtension('bom.json', '\ufeff{"extension":"acme/x","description":"d"}').methods).toEqual([]);
  });
});

const L = `${FIXTURES}/load`;

describe('meta-schema errors: first error, with its pointer', () => {
  it.each([
    ['missing-extension.json', '', 'missing required property "extension"'],
    ['unknown-property.json', '/method', 'unknown property "method": did you mean "methods"?'],
    ['method-unknown-property.json', '/methods/acme~1jobs.start/response', 'unknown property "response"'],
    ['bad-kind.json', '/methods/acme~1jobs.start/kind', 'must be one of "request", "notification"'],
    [
      'bad-direction.json',
      '/methods/acme~1jobs.start/direction',
      'must be one of "client->server", "server->client", "both", "input"',
    ],
    ['request-without-result.json', '/methods/acme~1jobs.start', 'missing required property "result"'],
    ['notification-with-result.json', '/methods/acme~1jobs.done/result', 'a notification has no result'],
    ['params-required-without-params.json', '/methods/acme~1jobs.ping', '"paramsRequired" requires "params"'],
    ['params-not-object.json', '/methods/acme~1jobs.start/params', 'must be a JSON Schema object'],
    [
      'bad-nested-schema.json',
      '/methods/acme~1jobs.start/params/properties/n/type',
      'must be one of "array", "boolean", "integer", "null", "number", "object", "string"',
    ],
    ['settings-not-object.json', '/settings/type', 'settings must be an object schema ("type": "object")'],
    ['bad-target.json', '/targets/1', 'must match pattern "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"'],
  ])('%s', async (fixture, pointer, reason) => {
    const file = `${L}/${fixture}`;
    expect(await inputErrorOf(() => loadExtensionFile(file))).toEqual({ file, pointer, reason });
  });
});

describe('invalid JSON reports line and column', () => {
  it.each([
    ['invalid-json-trailing-comma.json', 'invalid JSON at line 4, column 1: trailing comma'],
    ['invalid-json-truncated.json', 'invalid JSON at line 4, column 1: unexpected end of input'],
  ])('%s', async (fixture, reason) => {
    const file = `${L}/${fixture}`;
    expect(await inputErrorOf(() => loadExtensionFile(file))).toEqual({ file, pointer: undefined, reason });
  });

  it.each([
    [
      '{\n  "extension": "acme/x",\n  "description": nope\n}',
      'invalid JSON at line 3, column 19: unexpected character "o"',
    ],
    ['{"a": [1, 2,]}', 'invalid JSON at line 1, column 13: trailing comma'],
    ['{"a": "x\ny"}', 'invalid JSON at line 1, column 9: control character in string'],
    ['{"a": "\\q"}', 'invalid JSON at line 1, column 9: invalid escape'],
    ['{"a": 01}', 'invalid JSON at line 1, column 8: unexpected character "1"'],
    ['{"a": 1} x', 'invalid JSON at line 1, column 10: unexpected character "x"'],
    ["{'a': 1}", 'invalid JSON at line 1, column 2: unexpected character "\'"'],
    ['\r\n\r\n  {"a": tru}', 'invalid JSON at line 3, column 12: unexpected character "}"'],
    ['', 'invalid JSON at line 1, column 1: unexpected end of input'],
  ])('%j', async (text, reason) => {
    expect(await inputErrorOf(() => parseExtension('t.json', text))).toEqual({
      file: 't.json',
      pointer: undefined,
      reason,
    });
  });

  it('a missing file is an InputError too', async () => {
    const file = `${L}/does-not-exist.json`;
    expect(await inputErrorOf(() => loadExtensionFile(file))).toEqual({
      file,
      pointer: undefined,
      reason: 'extension file not found',
    });
  });
});
