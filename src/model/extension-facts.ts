/**
 * The protocol facts of a model with extensions applied: the extensions' methods (by id), what advertising one
 * commits a server to (`mandatory`, `setting`), their result defaults and their Mcp-Name sources.
 */
import type { JsonSchema } from '../load/schema-types.js';
import { compareStrings } from '../load/order.js';
import type { ExtensionSpec } from '../extensions/types.js';
import { resultDefaultsOf, type ExtensionRules } from './protocol-facts.js';
import type { MethodInfo, ProtocolModel } from './types.js';

/** The protocol facts with the extensions' methods, their result defaults and Mcp-Name sources. */
export function factsWith(
  model: ProtocolModel,
  applicable: readonly { spec: ExtensionSpec }[],
  definitions: Record<string, JsonSchema>,
  methods: readonly MethodInfo[],
): ProtocolModel['facts'] {
  // Extension methods that name their Mcp-Name source join the transport facts (header era only).
  const nameSources = { ...model.facts.transport.nameSources };
  if (model.facts.transport.metadataHeaders) {
    for (const e of applicable) for (const m of e.spec.methods) if (m.nameFrom) nameSources[m.method] = m.nameFrom;
  }
  const extensionMethods = Object.fromEntries(
    applicable
      .map((e) => [e.spec.id, e.spec.methods.map((m) => m.method).sort(compareStrings)] as const)
      .sort(([a], [b]) => compareStrings(a, b)),
  );
  // The `extensions` capability exists in every version an extension is generated for (see ExtensionMerge.add).
  const { extensions: _present, ...capabilityVersions } = model.facts.capabilityVersions;
  const vendorDefaults = resultDefaultsOf(
    definitions,
    methods.filter((m) => m.source !== 'mcp'),
  );
  const resultDefaults = Object.fromEntries(
    Object.entries({ ...model.facts.resultDefaults, ...vendorDefaults }).sort(([a], [b]) => compareStrings(a, b)),
  );
  const extensionRules = rulesOf(applicable);
  const extensionTargets = model.features.perRequestMeta ? targetsOf(applicable) : undefined;
  return {
    ...model.facts,
    capabilityVersions,
    resultDefaults,
    extensions: extensionMethods,
    ...(extensionRules === undefined ? {} : { extensionRules }),
    ...(extensionTargets === undefined ? {} : { extensionTargets }),
    transport: { ...model.facts.transport, nameSources },
  };
}

/** The extensions' `mandatory` and `setting` methods, by extension id (undefined when no file has any). */
function rulesOf(applicable: readonly { spec: ExtensionSpec }[]): Record<string, ExtensionRules> | undefined {
  const rules = applicable
    .map(({ spec }) => {
      const mandatory = spec.methods.filter((m) => m.mandatory).map((m) => m.method);
      const settings = spec.methods.flatMap((m) => (m.setting === undefined ? [] : [[m.method, m.setting] as const]));
      return [spec.id, { mandatory, settings: Object.fromEntries(settings) }] as const;
    })
    .filter(([, r]) => r.mandatory.length > 0 || Object.keys(r.settings).length > 0)
    .sort(([a], [b]) => compareStrings(a, b));
  return rules.length === 0 ? undefined : Object.fromEntries(rules);
}

/** The extensions that target only some versions, by id (undefined when every one targets every version). */
function targetsOf(applicable: readonly { spec: ExtensionSpec }[]): Record<string, string[]> | undefined {
  const targeted = applicable
    .flatMap(({ spec }) => (spec.targets === null ? [] : [[spec.id, [...spec.targets].sort(compareStrings)] as const]))
    .sort(([a], [b]) => compareStrings(a, b));
  return targeted.length === 0 ? undefined : Object.fromEntries(targeted);
}
