/**
 * maps.ts: the method tables — per direction, method → { params, paramsRequired, result } as types,
 * the same facts as `as const` runtime values, and helpers (ParamsOf, ResultOf, RequestOf, …).
 * Written in prettier's layout (layout.ts).
 */
import { paramsRefText, type ProtocolModel } from '../model/types.js';
import { ALIASES, TABLES, paramsType, resultType, type Table } from './tables.js';
import { docs, hardline, join, printStatements, type Statement } from './layout.js';
import { objectType, text, type TypeMember, type TypeNode } from './layout-types.js';
import { array, asConst, atom, constDecl, moduleDecl, object, str, typeAlias, type Expr } from './layout-code.js';

function tableType(model: ProtocolModel, table: Table): TypeNode {
  const rows = model.methods.filter(table.select);
  if (rows.length === 0) return text('Record<never, never>');
  const members = rows.map((m): TypeMember => {
    const fields: TypeMember[] = [
      { name: 'params', type: paramsType(m, model) },
      { name: 'paramsRequired', type: text(String(m.paramsRequired)) },
      ...(m.kind === 'request' ? [{ name: 'result', type: resultType(m) }] : []),
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

const strings = (values: readonly string[]): Expr => array(values.map(str));

function methodsConst(model: ProtocolModel): Expr {
  return object(
    model.methods.map((m) => ({
      name: m.method,
      // A computed key: in an object literal a plain "__proto__" key would set the prototype.
      computed: m.method === '__proto__',
      value: object([
        { name: 'kind', value: str(m.kind) },
        { name: 'directions', value: strings(m.directions) },
        { name: 'definition', value: str(m.definition) },
        { name: 'params', value: m.params === null ? atom('null') : str(paramsRefText(m.params)) },
        { name: 'paramsRequired', value: atom(String(m.paramsRequired)) },
        ...(m.result ? [{ name: 'result', value: strings(m.result) }] : []),
        { name: 'source', value: str(m.source) },
      ]),
    })),
    true,
  );
}

/** A JSON value (the protocol facts) as a literal. */
function jsonLiteral(value: unknown): Expr {
  if (typeof value === 'string') return str(value);
  if (Array.isArray(value)) return array(value.map(jsonLiteral));
  if (value !== null && typeof value === 'object')
    return object(Object.entries(value).map(([name, v]) => ({ name, value: jsonLiteral(v) })));
  return atom(JSON.stringify(value));
}

/**
 * Facts only a server reads (templates/protocol.ts ServerProtocolFacts) and facts no runtime reads: left out
 * of output generated with a client and no server, so a browser client does not bundle them.
 */
const SERVER_ONLY_FACTS = ['capabilityVersions', 'lifecycleMethods', 'handshakeRequests', 'capabilityOf'];
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

function protocolConst(model: ProtocolModel, withServerFacts: boolean): Expr {
  const orNull = (v: string | null) => (v === null ? atom('null') : str(v));
  return asConst(
    object([
      { name: 'version', value: orNull(model.version) },
      { name: 'protocolVersion', value: orNull(model.protocolVersion) },
      {
        name: 'features',
        value: object(Object.entries(model.features).map(([name, v]) => ({ name, value: atom(String(v)) }))),
      },
      { name: 'facts', value: jsonLiteral(factsFor(model.facts, withServerFacts)) },
    ]),
  );
}

/** The fixed helper types, kept in their layout (tables.ts). */
function aliasStatements(): Statement[] {
  return ALIASES.map(([name, type, doc]) => ({
    doc: [docs(doc), hardline, join(hardline, `export type ${name} = ${type};`.split('\n'))],
  }));
}

/** `withServerFacts`: false for output with a client and no server (see SERVER_ONLY_FACTS). */
export function emitMaps(model: ProtocolModel, importExt: string, withServerFacts = true): string {
  const statements: Statement[] = [{ doc: moduleDecl('import', true, { namespace: 'T' }, `./types${importExt}`) }];
  for (const table of TABLES)
    statements.push({ doc: [docs(table.doc), hardline, typeAlias(table.name, tableType(model, table))] });
  statements.push(...aliasStatements());
  for (const table of TABLES) {
    const methods = model.methods.filter(table.select).map((m) => m.method);
    statements.push({
      doc: [docs(`Runtime list: ${table.doc}`), hardline, constDecl(table.listName, asConst(strings(methods)))],
    });
  }
  statements.push({
    doc: [
      docs('Every method with its kind, directions, params and result definitions (the protocol model).'),
      hardline,
      constDecl('METHODS', asConst(methodsConst(model))),
    ],
  });
  statements.push({
    doc: [
      docs(
        'The spec version these maps were generated from, its protocol features, and the facts the runtime reads (lifecycle, capabilities, meta keys, error codes, transport rules).',
      ),
      hardline,
      constDecl('PROTOCOL', protocolConst(model, withServerFacts)),
    ],
  });
  // A literal of its own, not PROTOCOL's table: a client's PROTOCOL lists only the codes the client reads, and
  // a bundle that never names ERROR_CODES leaves it out.
  statements.push({
    doc: [
      docs(
        "This version's JSON-RPC error codes by their schema definition name (`ERROR_CODES.InvalidParamsError`): compare a `ProtocolError`'s `code` with these, or throw them, instead of writing the numbers.",
      ),
      hardline,
      constDecl('ERROR_CODES', asConst(jsonLiteral(model.facts.errorCodes))),
    ],
  });
  return printStatements(statements);
}
