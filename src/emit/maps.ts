/**
 * maps.ts: the method tables — per direction, method → { params, paramsRequired, result } as types,
 * the same facts as `as const` runtime values, and helpers (ParamsOf, ResultOf, RequestOf, …).
 * Built with ts-morph from structures, one whole file at a time.
 */
import { StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import type { Direction, MethodInfo, ProtocolModel } from '../model/types.js';
import { printFile } from './ts-project.js';
import { docComment, propertyKey, stringLiteral } from './ts-names.js';

interface Table {
  name: string;
  doc: string;
  listName: string;
  select: (m: MethodInfo) => boolean;
}

const byDirection = (kind: MethodInfo['kind'], direction: Direction) => (m: MethodInfo) =>
  m.kind === kind && m.directions.includes(direction);

export const TABLES: readonly Table[] = [
  { name: 'ClientRequests', listName: 'CLIENT_REQUEST_METHODS', doc: 'Requests the client sends to the server.', select: byDirection('request', 'client->server') },
  { name: 'ServerRequests', listName: 'SERVER_REQUEST_METHODS', doc: 'Requests the server sends to the client.', select: byDirection('request', 'server->client') },
  {
    name: 'InputRequests',
    listName: 'INPUT_REQUEST_METHODS',
    doc: 'Input requests the server embeds in an InputRequiredResult; the client answers them in `inputResponses` when it retries.',
    select: byDirection('request', 'input'),
  },
  { name: 'ClientNotifications', listName: 'CLIENT_NOTIFICATION_METHODS', doc: 'Notifications the client sends to the server.', select: byDirection('notification', 'client->server') },
  { name: 'ServerNotifications', listName: 'SERVER_NOTIFICATION_METHODS', doc: 'Notifications the server sends to the client.', select: byDirection('notification', 'server->client') },
];

/** Helper types: [name with type parameter, type, doc]. */
const ALIASES: readonly (readonly [string, string, string])[] = [
  ['ClientRequestMethod', 'keyof ClientRequests & string', 'Methods the client may request.'],
  ['ServerRequestMethod', 'keyof ServerRequests & string', 'Methods the server may request.'],
  ['InputRequestMethod', 'keyof InputRequests & string', 'Input requests the server may embed in an InputRequiredResult.'],
  ['ClientNotificationMethod', 'keyof ClientNotifications & string', 'Notifications the client may send.'],
  ['ServerNotificationMethod', 'keyof ServerNotifications & string', 'Notifications the server may send.'],
  ['Requests', 'ClientRequests & ServerRequests & InputRequests', 'Every request, whoever sends it.'],
  ['Notifications', 'ClientNotifications & ServerNotifications', 'Every notification, whoever sends it.'],
  ['RequestMethod', 'keyof Requests & string', 'Every request method.'],
  ['NotificationMethod', 'keyof Notifications & string', 'Every notification method.'],
  ['Method', 'RequestMethod | NotificationMethod', 'Every method.'],
  ['ParamsOf<M extends Method>', 'M extends RequestMethod ? Requests[M]["params"] : M extends NotificationMethod ? Notifications[M]["params"] : never', 'The params type of a method.'],
  ['ResultOf<M extends RequestMethod>', 'Requests[M]["result"]', 'The result type of a request method.'],
  [
    'RequestOf<M extends RequestMethod>',
    '{ jsonrpc: "2.0"; id: T.RequestId; method: M } & (Requests[M]["paramsRequired"] extends true ? { params: Requests[M]["params"] } : { params?: Requests[M]["params"] })',
    'A JSON-RPC request for one method: the envelope with the literal method and its params.',
  ],
  [
    'NotificationOf<M extends NotificationMethod>',
    '{ jsonrpc: "2.0"; method: M } & (Notifications[M]["paramsRequired"] extends true ? { params: Notifications[M]["params"] } : { params?: Notifications[M]["params"] })',
    'A JSON-RPC notification for one method: no id, so it is never answered.',
  ],
  ['ResponseOf<M extends RequestMethod>', '{ jsonrpc: "2.0"; id: T.RequestId; result: ResultOf<M> }', 'A successful JSON-RPC response to a request of method M.'],
];

/** The TypeScript type of a method's params, relative to `import type * as T from './types.js'`. */
export function paramsType(m: MethodInfo): string {
  if (m.params === null) return 'undefined';
  if (m.params.startsWith('#')) return `NonNullable<T.${m.definition}["params"]>`;
  return `T.${m.params}`;
}

export function resultType(m: MethodInfo): string {
  return (m.result ?? []).map((r) => `T.${r}`).join(' | ') || 'never';
}

function tableType(model: ProtocolModel, table: Table): string {
  const rows = model.methods.filter(table.select);
  if (rows.length === 0) return 'Record<never, never>';
  const lines = rows.map((m) => {
    const spec =
      m.kind === 'request'
        ? `{ params: ${paramsType(m)}; paramsRequired: ${m.paramsRequired}; result: ${resultType(m)} }`
        : `{ params: ${paramsType(m)}; paramsRequired: ${m.paramsRequired} }`;
    const description = model.definitions[m.definition]?.description;
    return `${docComment(typeof description === 'string' ? description : undefined, '  ')}  ${propertyKey(m.method, true)}: ${spec};`;
  });
  return `{\n${lines.join('\n')}\n}`;
}

function constList(values: string[]): string {
  return `[${values.map(stringLiteral).join(', ')}] as const`;
}

function methodsConst(model: ProtocolModel): string {
  const rows = model.methods.map((m) => {
    const fields = [
      `kind: ${stringLiteral(m.kind)}`,
      `directions: ${constListInner(m.directions)}`,
      `definition: ${stringLiteral(m.definition)}`,
      `params: ${m.params === null ? 'null' : stringLiteral(m.params)}`,
      `paramsRequired: ${m.paramsRequired}`,
      ...(m.result ? [`result: ${constListInner(m.result)}`] : []),
      `source: ${stringLiteral(m.source)}`,
    ];
    // A computed key: in an object literal a plain "__proto__" key would set the prototype.
    const key = m.method === '__proto__' ? `[${stringLiteral(m.method)}]` : stringLiteral(m.method);
    return `  ${key}: { ${fields.join(', ')} },`;
  });
  return `{\n${rows.join('\n')}\n} as const`;
}

function constListInner(values: readonly string[]): string {
  return `[${values.map(stringLiteral).join(', ')}]`;
}

/** Every name maps.ts exports, so index.ts can re-export them without clashing with definition names. */
export function mapsExports(): { types: string[]; values: string[] } {
  return {
    types: [
      ...TABLES.map((t) => t.name),
      ...ALIASES.map(([name]) => name.replace(/<.*$/, '')),
    ],
    values: [...TABLES.map((t) => t.listName), 'METHODS', 'PROTOCOL'],
  };
}

export function emitMaps(model: ProtocolModel, importExt: string): string {
  const statements: StatementStructures[] = [
    { kind: StructureKind.ImportDeclaration, isTypeOnly: true, namespaceImport: 'T', moduleSpecifier: `./types${importExt}` },
  ];
  for (const table of TABLES) {
    statements.push({ kind: StructureKind.TypeAlias, isExported: true, name: table.name, type: tableType(model, table), docs: [table.doc] });
  }
  statements.push(
    ...typeAliases(ALIASES),
  );
  for (const table of TABLES) {
    statements.push(constStatement(table.listName, constList(model.methods.filter(table.select).map((m) => m.method)), `Runtime list: ${table.doc}`));
  }
  statements.push(constStatement('METHODS', methodsConst(model), 'Every method with its kind, directions, params and result definitions (the protocol model).'));
  statements.push(
    constStatement(
      'PROTOCOL',
      `{ version: ${model.version === null ? 'null' : stringLiteral(model.version)}, protocolVersion: ${
        model.protocolVersion === null ? 'null' : stringLiteral(model.protocolVersion)
      }, features: { ${Object.entries(model.features)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')} } } as const`,
      'The spec version these maps were generated from, and the protocol features it has.',
    ),
  );
  return printFile('maps.ts', statements);
}

function typeAliases(rows: readonly (readonly [string, string, string])[]): StatementStructures[] {
  return rows.map(([name, type, doc]) => {
    const match = /^(\w+)(?:<(.+)>)?$/.exec(name)!;
    const [, bare, param] = match;
    const [paramName, constraint] = param ? param.split(' extends ') : [];
    return {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: bare!,
      type,
      docs: [doc],
      typeParameters: paramName ? [{ name: paramName, constraint }] : [],
    };
  });
}

function constStatement(name: string, initializer: string, doc: string): StatementStructures {
  return {
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name, initializer }],
    docs: [doc],
  };
}
