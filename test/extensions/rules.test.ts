import { describe, expect, it } from 'vitest';
import { loadExtensionFile } from '../../src/extensions/load.js';
import {
  MCP_NAMESPACES,
  checkExtensions,
  isReservedPrefix,
  isValidPrefix,
  mcpNamespaceOf,
} from '../../src/extensions/rules.js';
import { appliesTo, type ExtensionSpec } from '../../src/extensions/types.js';
import { VERSIONS, inputErrorOf } from './helpers.js';
import { R, context, knownMcpMethods, rows } from './rule-cases.js';

async function load(...fixtures: string[]): Promise<ExtensionSpec[]> {
  return Promise.all(fixtures.map(loadOne));
}

function loadOne(fixture: string): Promise<ExtensionSpec> {
  return loadExtensionFile(fixture.includes('/') ? fixture : `${R}/${fixture}`);
}

describe('checkExtensions: every rule fails with its exact file, pointer and reason', () => {
  it.each(rows)('%j', async (fixtures, file, pointer, reason, ctx) => {
    const specs = await load(...fixtures);
    expect(await inputErrorOf(() => checkExtensions(specs, ctx ?? context()))).toEqual({
      file: `${R}/${file}`,
      pointer,
      reason,
    });
  });
});

describe('checkExtensions: accepted inputs', () => {
  it('accepts the acme-jobs example for every version it targets, and with the method union only', async () => {
    const spec = await loadOne('schema/examples/acme-jobs.extension.json');
    for (const version of VERSIONS.filter((v) => appliesTo(spec, v))) {
      expect(() => checkExtensions([spec], context(version))).not.toThrow();
    }
    expect(() => checkExtensions([spec], { knownMcpMethods, knownVersions: new Set(VERSIONS) })).not.toThrow();
  });

  it('the example really needs its targets: mcp:ContentBlock is missing before 2025-06-18', async () => {
    const spec = await loadOne('schema/examples/acme-jobs.extension.json');
    const unfiltered = { ...spec, targets: null };
    expect(await inputErrorOf(() => checkExtensions([unfiltered], context('2025-03-26')))).toEqual({
      file: 'schema/examples/acme-jobs.extension.json',
      pointer: '/definitions/AcmeJob/properties/output/items/$ref',
      reason: '"mcp:ContentBlock" refers to "ContentBlock", which is not an MCP definition in 2025-03-26',
    });
    // With its real targets it is simply skipped for 2025-03-26.
    expect(() => checkExtensions([spec], context('2025-03-26'))).not.toThrow();
  });

  it('accepts an official extension adding a method in an MCP namespace and under its own prefix', async () => {
    const specs = await load('valid-official.json');
    expect(specs[0]?.official).toBe(true);
    expect(() => checkExtensions(specs, context())).not.toThrow();
  });

  it('an official extension may use a namespace the target does not define: tasks/ and notifications/tasks on 2026-07-28', async () => {
    const specs = await load('official-collides-mcp.json', 'official-notifications-namespace.json');
    expect(() => checkExtensions(specs, context('2026-07-28'))).not.toThrow();
    expect(await inputErrorOf(() => checkExtensions(specs, context('2025-11-25')))).toMatchObject({
      pointer: '/methods/tasks~1get',
    });
  });

  it('loading alone (no target) checks no method against MCP', async () => {
    const specs = await load('official-collides-mcp.json', 'official-defined-namespace.json');
    expect(() => checkExtensions(specs, { knownVersions: new Set(VERSIONS) })).not.toThrow();
  });

  it('accepts the documented name shapes', async () => {
    const specs = await load('valid-names.json', 'valid-no-params.json');
    expect(() => checkExtensions(specs, context())).not.toThrow();
  });

  it('allows the same methods in files whose targets do not overlap (one file per spec generation)', async () => {
    const specs = await load('dup-old-a.json', 'dup-new-b.json');
    expect(() => checkExtensions(specs, { knownMcpMethods })).not.toThrow();
  });

  it('with a version, only the extensions that target it are checked', async () => {
    const specs = await load('dup-old-a.json', 'dup-overlap-b.json');
    expect(() => checkExtensions(specs, context('2024-11-05'))).not.toThrow();
    expect(await inputErrorOf(() => checkExtensions(specs, context('2025-03-26')))).toMatchObject({
      file: `${R}/dup-overlap-b.json`,
      pointer: '/extension',
    });
  });

  it('without MCP definition names, mcp: refs and definition names are not checked against MCP', async () => {
    for (const fixture of ['ref-mcp-unknown.json', 'definition-collides-mcp.json']) {
      const specs = await load(fixture);
      expect(() => checkExtensions(specs, { knownMcpMethods }), fixture).not.toThrow();
    }
  });

  it('keeps the built-in namespace list even when the caller passes no MCP methods', async () => {
    const specs = await load('method-mcp-namespace.json');
    expect(await inputErrorOf(() => checkExtensions(specs, { knownMcpMethods: new Set() }))).toMatchObject({
      pointer: '/methods/tools~1acme.search',
    });
  });
});

describe('name helpers', () => {
  it.each([
    ['acme', true],
    ['com.acme', true],
    ['com.acme-corp2', true],
    ['a', true],
    ['A1.b-2.C', true],
    ['', false],
    ['-acme', false],
    ['acme-', false],
    ['1acme', false],
    ['com.1acme', false],
    ['ac_me', false],
    ['com..acme', false],
    ['com.', false],
  ])('isValidPrefix(%j) = %s', (prefix, ok) => {
    expect(isValidPrefix(prefix)).toBe(ok);
  });

  it.each([
    ['io.modelcontextprotocol', true],
    ['dev.mcp', true],
    ['IO.ModelContextProtocol', true],
    ['com.acme.mcp', false],
    ['mcp', false],
    ['modelcontextprotocol', false],
    ['com.acme', false],
  ])('isReservedPrefix(%j) = %s', (prefix, reserved) => {
    expect(isReservedPrefix(prefix)).toBe(reserved);
  });

  it('knows every namespace of the five MCP versions', () => {
    for (const method of knownMcpMethods) expect(mcpNamespaceOf(method), method).not.toBeNull();
    expect(MCP_NAMESPACES).toContain('subscriptions/');
    expect(mcpNamespaceOf('Tools/x')).toBe('tools/');
    expect(mcpNamespaceOf('pingpong/x')).toBeNull();
    expect(mcpNamespaceOf('ping/x')).toBe('ping');
    expect(mcpNamespaceOf('acme/tools/x')).toBeNull();
  });
});
