/**
 * What extensions do to the protocol model (no emission): cross-file `$ref`s load the shared file once,
 * `paramsRequired` follows `mcp:` refs and oneOf/anyOf/allOf, the `input` direction, official ids.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModelFor } from '../../src/cli/methods-command.js';
import { ROOT, SCHEMA_DIR, inputErrorOf } from './helpers.js';

const A = join(ROOT, 'test', 'fixtures', 'extensions', 'augment');

function model(spec: string, extensions: string[]) {
  return loadModelFor({ spec, schemaDir: SCHEMA_DIR, cwd: ROOT, extensions, outDir: join(ROOT, 'test', '.tmp') });
}

describe('extensions in the model', () => {
  it('two extensions $ref one shared file: it is loaded once, its definition merged once', async () => {
    const { model: m, extensions } = await model('2025-11-25', [
      join(A, 'uses-a.extension.json'),
      join(A, 'uses-b.extension.json'),
    ]);
    expect(extensions.map((e) => e.spec.id)).toEqual(['com.acme/a', 'com.acme/b', 'com.acme/common']);
    expect(m.definitions.AcmeShared).toMatchObject({ required: ['id'] });
    expect(m.definitions.ComAcmeAGetRequestParams).toEqual({ $ref: '#/$defs/AcmeShared' });
    expect(m.definitions.ComAcmeBGetResult).toEqual({ $ref: '#/$defs/AcmeShared' });
    // Params required through the other file's definition.
    expect(m.methods.find((x) => x.method === 'com.acme/a.get')).toMatchObject({ paramsRequired: true });
  });

  it('paramsRequired follows mcp: refs, oneOf (every branch), anyOf and allOf', async () => {
    const { model: m } = await model('2025-11-25', [join(A, 'params-required.extension.json')]);
    const required = Object.fromEntries(
      m.methods.filter((x) => x.source === 'com.acme/p').map((x) => [x.method, x.paramsRequired]),
    );
    expect(required).toEqual({
      'com.acme/p.all': true,
      'com.acme/p.call': true,
      'com.acme/p.either': true,
      'com.acme/p.maybe': false,
    });
    expect(m.definitions.ComAcmePCallRequest!.required).toContain('params');
    expect(m.definitions.ComAcmePMaybeRequest!.required).not.toContain('params');
  });

  it('a vendor input request on 2026-07-28 joins InputRequest/InputResponse; 2025-11-25 has no input requests', async () => {
    const file = join(A, 'input-direction.extension.json');
    const { model: m } = await model('2026-07-28', [file]);
    expect(m.methods.find((x) => x.method === 'com.acme/ask.confirm')).toMatchObject({ directions: ['input'] });
    expect(m.definitions.InputRequest!.anyOf).toContainEqual({ $ref: '#/$defs/ComAcmeAskConfirmRequest' });
    expect(m.definitions.InputResponse!.anyOf).toContainEqual({ $ref: '#/$defs/ComAcmeAskConfirmResult' });
    expect(await inputErrorOf(() => model('2025-11-25', [file]))).toEqual({
      file,
      pointer: '/methods/com.acme~1ask.confirm/direction',
      reason: 'direction "input" needs input requests (InputRequiredResult), which MCP 2025-11-25 does not have',
    });
  });

  it('an official id stands for the shipped file; a local file of that name would win', async () => {
    const { extensions } = await model('2026-07-28', ['io.modelcontextprotocol/tasks']);
    expect(extensions[0]!.file).toBe('io.modelcontextprotocol/tasks');
    expect(extensions[0]!.spec.file).toBe(join(ROOT, 'schema', 'extensions', 'tasks.extension.json'));
  });
});
