/**
 * The manifest's per-version method lists (schema/mcp-versions.json, which the runtime's negotiation reads
 * through PROTOCOL.facts) equal what the model finds in each official schema; and the facts a version's
 * output carries follow from them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { versionFacts } from '../../src/model/version-facts.js';
import { versionManifestFacts } from '../../src/model/version-methods.js';
import { ROOT } from '../helpers/paths.js';

const manifest = JSON.parse(readFileSync(join(ROOT, 'schema', 'mcp-versions.json'), 'utf8')) as {
  versions: {
    version: string;
    methods: string[];
    batches: boolean;
    serverCapabilities: string[];
    senders: Record<string, string[]>;
  }[];
};

describe('schema/mcp-versions.json method lists', () => {
  it.each(manifest.versions.map((v) => v.version))(
    '%s: equal to the schema (else run scripts/version-facts.mjs)',
    async (version) => {
      const { methods, batches, serverCapabilities, senders } = manifest.versions.find((v) => v.version === version)!;
      expect({ methods, batches, serverCapabilities, senders }).toEqual(await versionManifestFacts(version));
    },
  );
});

describe('versionFacts', () => {
  const own = (version: string) => manifest.versions.find((v) => v.version === version)!.methods;

  it('2026-07-28 speaks every known version, newest first, with eras', () => {
    const { versions } = versionFacts('2026-07-28', own('2026-07-28'));
    expect(versions).toEqual([
      { version: '2026-07-28', era: 'modern' },
      { version: '2025-11-25', era: 'legacy' },
      { version: '2025-06-18', era: 'legacy' },
      { version: '2025-03-26', era: 'legacy', batches: true },
      { version: '2024-11-05', era: 'legacy' },
    ]);
  });

  it('lists only the methods some older version lacks, with the versions that have them', () => {
    const { methodVersions } = versionFacts('2025-11-25', own('2025-11-25'));
    expect(methodVersions['tasks/get']).toEqual(['2025-11-25']);
    expect(methodVersions['elicitation/create']).toEqual(['2025-11-25', '2025-06-18']);
    expect(methodVersions).not.toHaveProperty('tools/call');
  });

  it('lists the server capabilities some older version lacks', () => {
    const own = manifest.versions.find((v) => v.version === '2025-11-25')!.serverCapabilities;
    const { capabilityVersions } = versionFacts('2025-11-25', [], false, own);
    expect(capabilityVersions).toEqual({
      completions: ['2025-11-25', '2025-06-18', '2025-03-26'],
      tasks: ['2025-11-25'],
    });
  });

  it('an unknown version speaks only itself; no version, nothing', () => {
    expect(versionFacts('2099-01-01', ['initialize'])).toEqual({
      versions: [{ version: '2099-01-01', era: 'legacy' }],
      methodVersions: {},
      capabilityVersions: {},
    });
    expect(versionFacts(null, [])).toEqual({ versions: [], methodVersions: {}, capabilityVersions: {} });
  });
});
