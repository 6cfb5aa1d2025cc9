/**
 * The runtime validators agree with the types on the cases the type tests pin down: a vendor `_meta`
 * key validates, a wrong value for a known key does not, in requests, results and notifications of every
 * version; and the repairs (json-value-has-null, meta-on-all-params) reach the validators too.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { VERSIONS, generated, tempDir, type Version } from '../helpers/generate.js';

interface Validator {
  (data: unknown): boolean;
}
interface Validators {
  paramsValidators: Record<string, Validator>;
  resultValidators: Record<string, Validator>;
  [name: string]: unknown;
}

const loaded = new Map<Version, Validators>();

beforeAll(async () => {
  const dir = tempDir('types-fidelity-validators');
  for (const version of VERSIONS) {
    const result = await generated(version, { artifacts: ['validators'], format: false });
    const file = join(dir, `${version}.js`);
    writeFileSync(file, result.files.find((f) => f.path === 'validators.js')!.contents);
    loaded.set(version, (await import(pathToFileURL(file).href)) as Validators);
  }
});

const vendor = { 'com.acme/trace': 'abc', 'com.acme/attempt': 2 };
/** The `_meta` keys a 2026-07-28 request needs on the wire. */
const wire = (version: Version) =>
  version === '2026-07-28'
    ? { 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientCapabilities': {} }
    : {};
const result = (version: Version, fields: object) =>
  version === '2026-07-28' ? { resultType: 'complete', ...fields } : fields;

describe('validators agree with the types on _meta', () => {
  for (const version of VERSIONS) {
    it(`${version}: requests — vendor keys validate, a wrong progressToken does not`, () => {
      const validate = loaded.get(version)!.paramsValidators['tools/call']!;
      expect(validate({ name: 't', _meta: { ...wire(version), progressToken: 1, ...vendor } })).toBe(true);
      expect(validate({ name: 't', _meta: { ...wire(version), progressToken: { no: 1 }, ...vendor } })).toBe(false);
      expect(validate({ name: 't', _meta: 'not an object' })).toBe(false);
    });

    it(`${version}: results — vendor keys and extra fields validate, a non-object _meta does not`, () => {
      const validate = loaded.get(version)!.resultValidators.CallToolResult!;
      expect(validate(result(version, { content: [], _meta: vendor, 'com.acme/extra': 1 }))).toBe(true);
      expect(validate(result(version, { content: [], _meta: 42 }))).toBe(false);
    });

    it(`${version}: notifications — vendor keys validate, a non-object _meta does not`, () => {
      const validate = loaded.get(version)!.paramsValidators['notifications/progress']!;
      expect(validate({ progressToken: 1, progress: 1, _meta: vendor })).toBe(true);
      expect(validate({ progressToken: 1, progress: 1, _meta: 42 })).toBe(false);
    });
  }

  it('2026-07-28: the known keys of results and notifications are checked, vendor keys are not', () => {
    const v = loaded.get('2026-07-28')!;
    const toolResult = v.resultValidators.CallToolResult!;
    const serverInfo = { name: 's', version: '1' };
    expect(
      toolResult(
        result('2026-07-28', { content: [], _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo, ...vendor } }),
      ),
    ).toBe(true);
    expect(
      toolResult(result('2026-07-28', { content: [], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's' } } })),
    ).toBe(false);
    const progress = v.paramsValidators['notifications/progress']!;
    const note = (id: unknown) => ({
      progressToken: 1,
      progress: 1,
      _meta: { 'io.modelcontextprotocol/subscriptionId': id, ...vendor },
    });
    expect(progress(note(7))).toBe(true);
    expect(progress(note({ id: 7 }))).toBe(false);
    // Without the protocol version the wire params are incomplete (the client adds it).
    expect(v.paramsValidators['tools/call']!({ name: 't', _meta: vendor })).toBe(false);
  });

  it('2026-07-28 (json-value-has-null): null and fractions are JSON values for the validators too', () => {
    const capabilities = loaded.get('2026-07-28')!.ClientCapabilities as Validator;
    expect(capabilities({ experimental: { 'com.acme/x': { on: null, ratio: 0.5 } } })).toBe(true);
    expect(capabilities({ experimental: { 'com.acme/x': 1 } })).toBe(false);
  });
});
