/**
 * A snapshot read as a protocol model, so `diff` compares two tool surfaces with the schema diff's own
 * rules, frame, renderers and exit codes: each tool, prompt and resource template is a client->server
 * request (the client calls it, the server implements it) whose params are its arguments (a tool's
 * inputSchema; a prompt's arguments as an object of strings; a template's URI variables) and, for a tool,
 * whose result is its structured result (its outputSchema; none: any object). A tool removed is then
 * `method-removed` (breaking for the client), an argument made required `property-became-required`, and
 * so on.
 *
 * Each definition is named after its place in the snapshot file (`tools/echo/inputSchema`), so a fact's
 * pointer maps back to the line of the file it came from (`snapshotPointer`).
 */
import type { JsonSchema } from '../load/schema-types.js';
import { escapePointerToken, unescapePointerToken } from '../load/pointer.js';
import { compareStrings } from '../load/order.js';
import type { MethodInfo, ProtocolModel } from '../model/types.js';
import type { ProtocolFacts } from '../model/protocol-facts.js';
import { objectSchema, promptArguments, rebase, templateVariables } from '../load/snapshot-arguments.js';
import type { Snapshot } from '../load/snapshot-file.js';

const DEFS = '$defs';

/** What each list is called in a method string of the diff (`tool echo`). */
const NOUNS = { tools: 'tool', prompts: 'prompt', resourceTemplates: 'resource template' } as const;

export function snapshotModel(snapshot: Snapshot): ProtocolModel {
  const definitions: Record<string, JsonSchema> = {};
  const methods: MethodInfo[] = [];
  const define = (name: string, schema: JsonSchema) => {
    definitions[name] = rebase(schema, `#/${DEFS}/${escapePointerToken(name)}`);
    return name;
  };
  for (const list of ['tools', 'prompts', 'resourceTemplates'] as const) {
    for (const [key, entry] of Object.entries(snapshot[list] ?? {})) {
      const at = `${list}/${escapePointerToken(key)}`;
      const definition = define(at, entry);
      const params =
        list === 'tools'
          ? define(`${at}/inputSchema`, objectSchema(entry.inputSchema))
          : list === 'prompts'
            ? define(`${at}/arguments`, promptArguments(entry.arguments))
            : define(`${at}/uriTemplate`, templateVariables(String(entry.uriTemplate)));
      const result = list === 'tools' ? [define(`${at}/outputSchema`, objectSchema(entry.outputSchema))] : undefined;
      methods.push({
        method: `${NOUNS[list]} ${key}`,
        kind: 'request',
        directions: ['client->server'],
        definition,
        params: { kind: 'definition', name: params },
        paramsRequired: true,
        ...(result ? { result } : {}),
        source: 'mcp',
      });
    }
  }
  methods.sort((a, b) => compareStrings(a.method, b.method));
  return {
    version: snapshot.protocolVersion ?? null,
    protocolVersion: snapshot.protocolVersion ?? null,
    dialect: '2020-12',
    defsKeyword: DEFS,
    definitions,
    methods,
    features: {
      batches: false,
      initialize: false,
      perRequestMeta: false,
      inputRequests: false,
      capabilityExtensions: false,
    },
    facts: NO_FACTS,
  };
}

/** The pointer into the snapshot file a model pointer (`#/$defs/tools~1echo~1inputSchema/properties/x`) stands for. */
export function snapshotPointer(pointer: string): string {
  const prefix = `#/${DEFS}/`;
  if (!pointer.startsWith(prefix)) return pointer;
  const rest = pointer.slice(prefix.length);
  const cut = rest.indexOf('/');
  const name = unescapePointerToken(cut < 0 ? rest : rest.slice(0, cut));
  return `#/${name}${cut < 0 ? '' : rest.slice(cut)}`;
}

/** A snapshot's model carries no version facts: the diff of two surfaces reads none. */
const NO_FACTS: ProtocolFacts = {
  versions: [],
  methodVersions: {},
  capabilityVersions: {},
  modernErrorCodes: [],
  resultDefaults: {},
  lifecycleMethods: [],
  handshakeRequests: [],
  capabilityOf: {},
  metaKeys: {},
  errorCodes: {},
  transport: { sessions: false, metadataHeaders: false, nameSources: {} },
} as ProtocolFacts;
