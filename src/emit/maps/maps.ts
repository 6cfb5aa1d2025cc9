/**
 * maps.ts: the method tables — per direction, method → { params, paramsRequired, result } as types,
 * the same facts as `as const` runtime values, and helpers (ParamsOf, ResultOf, RequestOf, …), as ts-morph
 * statement structures (ts-structures.ts).
 */
import { paramsRefText, type ProtocolModel } from '../../model/types.js';
import { settingsStatements } from './settings.js';
import { ALIASES, resultType, tableMethods, tablesOf, type Table } from './tables.js';
import { paramsType } from '../types/params-names.js';
import type { Statement } from '../shared/ts-project.js';
import { constDecl, importDecl, typeAlias } from '../shared/ts-structures.js';
import { arrayLiteral, jsonLiteral, objectLiteral, objectType, str, type TypeMember } from '../shared/ts-text.js';

function tableType(model: ProtocolModel, table: Table): string {
  const rows = tableMethods(model, table);
  if (rows.length === 0) return 'Record<never, never>';
  const members = rows.map((m): TypeMember => {
    const fields: TypeMember[] = [
      { name: 'params', type: paramsType(m, model) },
      { name: 'paramsRequired', type: String(m.paramsRequired) },
      ...(m.kind === 'request' ? [{ name: 'result', type: resultType(m) }] : []),
      // Task-augmented (2025-11-25): what a request sent with `params.task` gets instead (RequestSpec).
      ...(m.taskResult !== undefined ? [{ name: 'taskResult', type: `T.${m.taskResult}` }] : []),
    ];
    const description = model.definitions[m.definition]?.description;
    return {
      name: m.method,
      type: objectType(fields),
      ...(typeof description === 'string' && description !== '' ? { doc: description } : {}),
    };
  });
  return objectType(members, true);
}

const strings = (values: readonly string[]): string => arrayLiteral(values.map((v) => str(v)));

function methodsConst(model: ProtocolModel): string {
  return objectLiteral(
    model.methods.map((m) => ({
      name: m.method,
      // A computed key: in an object literal a plain "__proto__" key would set the prototype.
      computed: m.method === '__proto__',
      value: objectLiteral([
        { name: 'kind', value: str(m.kind) },
        { name: 'directions', value: strings(m.directions) },
        { name: 'definition', value: str(m.definition) },
        { name: 'params', value: m.params === null ? 'null' : str(paramsRefText(m.params)) },
        { name: 'paramsRequired', value: String(m.paramsRequired) },
        ...(m.result ? [{ name: 'result', value: strings(m.result) }] : []),
        { name: 'source', value: str(m.source) },
      ]),
    })),
    true,
  );
}

/**
 * Facts only a server reads (templates/protocol.ts ServerProtocolFacts) and facts no runtime reads: left out
 * of output generated with a client and no server, so a browser client does not bundle them.
 */
const SERVER_ONLY_FACTS = [
  'capabilityVersions',
  'lifecycleMethods',
  'handshakeRequests',
  'capabilityOf',
  'extensionTargets',
];
/**
 * The `_meta` keys and error codes a client reads (templates/client-base.ts); the rest of each table only in
 * output with a server. Users compare codes with ERROR_CODES, which lists every one.
 */
const CLIENT_FACT_KEYS: Partial<Record<string, readonly string[]>> = {
  metaKeys: ['protocolVersion', 'clientInfo', 'clientCapabilities', 'serverInfo'],
  errorCodes: ['UnsupportedProtocolVersionError', 'HeaderMismatchError'],
  // `sessions` and `metadataHeaders` are read by no runtime.
  transport: ['nameSources'],
};

function factsFor(facts: ProtocolModel['facts'], withServerFacts: boolean): unknown {
  if (withServerFacts) return facts;
  const kept = Object.entries(facts).filter(([name]) => !SERVER_ONLY_FACTS.includes(name));
  return Object.fromEntries(
    kept.map(([name, value]) => {
      const keys = CLIENT_FACT_KEYS[name];
      if (keys === undefined) return [name, value];
      return [name, Object.fromEntries(Object.entries(value as object).filter(([key]) => keys.includes(key)))];
    }),
  );
}

function protocolConst(model: ProtocolModel, withServerFacts: boolean): string {
  const orNull = (v: string | null) => (v === null ? 'null' : str(v));
  const features = Object.entries(model.features).map(([name, v]) => ({ name, value: String(v) }));
  return `${objectLiteral([
    { name: 'version', value: orNull(model.version) },
    { name: 'protocolVersion', value: orNull(model.protocolVersion) },
    { name: 'features', value: objectLiteral(features) },
    { name: 'facts', value: jsonLiteral(factsFor(model.facts, withServerFacts)) },
  ])} as const`;
}

/** `withServerFacts`: false for output with a client and no server (see SERVER_ONLY_FACTS). */
export function mapsStatements(model: ProtocolModel, importExt: string, withServerFacts = true): Statement[] {
  const statements: Statement[] = [importDecl(true, { namespace: 'T' }, `./types${importExt}`)];
  const tables = tablesOf(model);
  for (const table of tables) statements.push(typeAlias(table.name, tableType(model, table), table.doc));
  for (const [name, type, doc] of ALIASES) statements.push(typeAlias(name, type, doc));
  for (const table of tables) {
    const methods = tableMethods(model, table).map((m) => m.method);
    statements.push(constDecl(table.listName, `${strings(methods)} as const`, { doc: `Runtime list: ${table.doc}` }));
  }
  statements.push(
    constDecl('METHODS', `${methodsConst(model)} as const`, {
      doc: 'Every method with its kind, directions, params and result definitions (the protocol model).',
    }),
    constDecl('PROTOCOL', protocolConst(model, withServerFacts), {
      doc: 'The spec version these maps were generated from, its protocol features, and the facts the runtime reads (lifecycle, capabilities, meta keys, error codes, transport rules).',
    }),
    // A literal of its own, not PROTOCOL's table: a client's PROTOCOL lists only the codes the client reads, and
    // a bundle that never names ERROR_CODES leaves it out.
    constDecl('ERROR_CODES', `${jsonLiteral(model.facts.errorCodes)} as const`, {
      doc: "This version's JSON-RPC error codes by their schema definition name (`ERROR_CODES.InvalidParamsError`): compare a `ProtocolError`'s `code` with these, or throw them, instead of writing the numbers.",
    }),
  );
  statements.push(...settingsStatements(model));
  return statements;
}
