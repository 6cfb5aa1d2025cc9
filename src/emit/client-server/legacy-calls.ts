/**
 * The client requests every legacy version has and 2026-07-28 removed (`ping`, `logging/setLevel`,
 * `resources/subscribe`/`unsubscribe`): what a modern client that fell back to a legacy server may still
 * call (client-eras.ts types them). No ts-morph here: peer-exports.ts lists the exports from it on `--check` too.
 */
import type { ProtocolModel } from '../../model/types.js';

export interface LegacyCall {
  method: string;
  /** The member path on the client: `['logging', 'setLevel']`. */
  path: [string] | [string, string];
  params: (model: ProtocolModel) => string;
  paramsRequired: boolean;
  doc: string;
}

const META = '_meta?: { [key: string]: unknown }';

/** The client requests every legacy version has and 2026-07-28 removed, as the 2025-11-25 schema types them. */
const LEGACY_CALLS: readonly LegacyCall[] = [
  {
    method: 'ping',
    path: ['ping'],
    params: () => `{ ${META} }`,
    paramsRequired: false,
    doc: '`ping` (legacy servers only): check that the server is still alive.',
  },
  {
    method: 'logging/setLevel',
    path: ['logging', 'setLevel'],
    params: (model) =>
      `{ level: ${Object.hasOwn(model.definitions, 'LoggingLevel') ? 'T.LoggingLevel' : 'string'}; ${META} }`,
    paramsRequired: true,
    doc: '`logging/setLevel` (legacy servers only): the lowest level of log messages the server should send.',
  },
  {
    method: 'resources/subscribe',
    path: ['resources', 'subscribe'],
    params: () => `{ uri: string; ${META} }`,
    paramsRequired: true,
    doc: '`resources/subscribe` (legacy servers only): be told when this resource changes.',
  },
  {
    method: 'resources/unsubscribe',
    path: ['resources', 'unsubscribe'],
    params: () => `{ uri: string; ${META} }`,
    paramsRequired: true,
    doc: '`resources/unsubscribe` (legacy servers only): stop notifications for this resource.',
  },
];

/** The legacy calls this client lacks: only for a modern client that can fall back to a legacy version. */
export function legacyCallsOf(model: ProtocolModel): LegacyCall[] {
  const fallsBack = model.facts.versions.some((v) => v.era === 'legacy');
  if (!model.features.perRequestMeta || !fallsBack) return [];
  const own = new Set(model.methods.map((m) => m.method));
  return LEGACY_CALLS.filter((c) => !own.has(c.method));
}
