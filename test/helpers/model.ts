/** A ProtocolModel built by hand around some definitions (emitter tests that need no real schema). */
import { EMPTY_FACTS } from '../../src/model/protocol-facts.js';
import type { ProtocolModel } from '../../src/model/types.js';

export function handBuiltModel(definitions: Record<string, unknown>): ProtocolModel {
  return {
    version: null,
    protocolVersion: null,
    dialect: '2020-12',
    defsKeyword: '$defs',
    facts: EMPTY_FACTS,
    definitions: definitions as ProtocolModel['definitions'],
    methods: [],
    features: {
      batches: false,
      initialize: true,
      perRequestMeta: false,
      inputRequests: false,
      capabilityExtensions: false,
    },
  };
}
