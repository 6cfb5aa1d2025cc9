/**
 * maps.ts: the method tables — per direction, method → { params, paramsRequired, result } as types,
 * the same facts as `as const` runtime values, and helpers (ParamsOf, ResultOf, RequestOf, …).
 * Built with ts-morph from structures, one whole file at a time.
 */
import { StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import { paramsRefText, type ProtocolModel } from '../model/types.js';
import { ALIASES, TABLES, paramsType, resultType, type Table } from './tables.js';
import { printFile } from './ts-project.js';
import { docComment, propertyKey, stringLiteral } from './ts-names.js';

function tableType(model: ProtocolModel, table: Table): string {
  const rows = model.methods.filter(table.select);
  if (rows.length === 0) return 'Record<never, never>';
  const lines = rows.map((m) => {
    const spec =
      m.kind === 'request'
        ? `{ params: ${paramsType(m, model)}; paramsRequired: ${m.paramsRequired}; result: ${resultType(m)} }`
        : `{ params: ${paramsType(m, model)}; paramsRequired: ${m.paramsRequired} }`;
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
      `params: ${m.params === null ? 'null' : stringLiteral(paramsRefText(m.params))}`,
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

export function emitMaps(model: ProtocolModel, importExt: string): string {
  const statements: StatementStructures[] = [
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      namespaceImport: 'T',
      moduleSpecifier: `./types${importExt}`,
    },
  ];
  for (const table of TABLES) {
    statements.push({
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: table.name,
      type: tableType(model, table),
      docs: [table.doc],
    });
  }
  statements.push(...typeAliases(ALIASES));
  for (const table of TABLES) {
    statements.push(
      constStatement(
        table.listName,
        constList(model.methods.filter(table.select).map((m) => m.method)),
        `Runtime list: ${table.doc}`,
      ),
    );
  }
  statements.push(
    constStatement(
      'METHODS',
      methodsConst(model),
      'Every method with its kind, directions, params and result definitions (the protocol model).',
    ),
  );
  statements.push(
    constStatement(
      'PROTOCOL',
      `{ version: ${model.version === null ? 'null' : stringLiteral(model.version)}, protocolVersion: ${
        model.protocolVersion === null ? 'null' : stringLiteral(model.protocolVersion)
      }, features: { ${Object.entries(model.features)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')} }, facts: ${JSON.stringify(model.facts)} } as const`,
      'The spec version these maps were generated from, its protocol features, and the facts the runtime reads (lifecycle, capabilities, meta keys, error codes, transport rules).',
    ),
  );
  // Typed explicitly: isolatedDeclarations (which the strictest settings use) needs a type on every export.
  statements.push(
    constStatement(
      'ERROR_CODES',
      'PROTOCOL.facts.errorCodes',
      "This version's JSON-RPC error codes by their schema definition name (`ERROR_CODES.InvalidParamsError`): compare a `ProtocolError`'s `code` with these, or throw them, instead of writing the numbers.",
      "(typeof PROTOCOL)['facts']['errorCodes']",
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

function constStatement(name: string, initializer: string, doc: string, type?: string): StatementStructures {
  return {
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [type === undefined ? { name, initializer } : { name, initializer, type }],
    docs: [doc],
  };
}
