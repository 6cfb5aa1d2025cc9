/**
 * server.ts: `McpServerHandlers` (one member per request and notification the server receives, typed
 * from the maps), `createServer(handlers, options)` taking any subset of them, and the tables the
 * runtime dispatcher needs (compiled validators, results, extension methods). Built with ts-morph.
 */
import { StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import { defaultedFields } from '../model/protocol-facts.js';
import type { MethodInfo, ProtocolModel } from '../model/types.js';
import { runtimeCheck, runtimeCheckImport, type RuntimeRef } from './runtime-ref.js';
import { TABLES, paramsType } from './tables.js';
import { channelServerClasses, channelsOf } from './channels.js';
import { docComment, propertyKey, stringLiteral } from './ts-names.js';
import { printFile } from './ts-project.js';

/** Answered by the runtime's lifecycle, not by user handlers. */
const LIFECYCLE = new Set([
  'initialize',
  'ping',
  'server/discover',
  'notifications/cancelled',
  'notifications/progress',
]);

/** An object-literal key: computed for "__proto__", which as a plain key would set the prototype. */
function objectKey(name: string): string {
  return name === '__proto__' ? `[${stringLiteral(name)}]` : stringLiteral(name);
}

function received(model: ProtocolModel, table: 'ClientRequests' | 'ClientNotifications'): MethodInfo[] {
  const select = TABLES.find((t) => t.name === table)!.select;
  return model.methods.filter(select);
}

/** Does the server have a handler for some notification (not one the lifecycle handles)? */
function receivesNotifications(model: ProtocolModel): boolean {
  return received(model, 'ClientNotifications').some((m) => !LIFECYCLE.has(m.method));
}

function handlersInterface(model: ProtocolModel): string {
  const rows: string[] = [];
  for (const m of [...received(model, 'ClientRequests'), ...received(model, 'ClientNotifications')]) {
    if (LIFECYCLE.has(m.method)) continue;
    const params = m.paramsRequired ? paramsType(m, model) : `${paramsType(m, model)} | undefined`;
    const d = model.definitions[m.definition]?.description;
    const doc = docComment(typeof d === 'string' ? `\`${m.method}\`: ${d}` : `\`${m.method}\``, '  ');
    const result = handlerResult(model, m);
    const signature =
      m.kind === 'request'
        ? `(params: ${params}, ctx: ServerContext) => ${result} | Promise<${result}>`
        : `(params: ${params}, ctx: NotificationContext) => void | Promise<void>`;
    rows.push(`${doc}  ${propertyKey(m.method, true)}: ${signature};`);
  }
  return `{\n${rows.join('\n')}\n}`;
}

/** A handler's result type: each result definition with the fields the runtime fills in made optional. */
function handlerResult(model: ProtocolModel, m: MethodInfo): string {
  const members = (m.result ?? []).map((name) => {
    const fields = defaultedFields(model.definitions[name]);
    const type =
      fields.length === 0 ? `T.${name}` : `WithDefaults<T.${name}, ${fields.map(stringLiteral).join(' | ')}>`;
    return withDiscriminant(type, m.discriminants?.[name], model.facts.resultDefaults[m.method]);
  });
  return members.join(' | ') || 'never';
}

/**
 * A result variant of a request an extension added variants to, pinned to its discriminant value
 * (`CallToolResult` → `resultType: 'complete'`): the schema's plain `string` would let a misspelled
 * `resultType: 'tsak'` pass as some variant. Optional where the runtime fills in that very value.
 */
export function withDiscriminant(
  type: string,
  values: Record<string, string | number | boolean> | undefined,
  defaults: Readonly<Record<string, unknown>> = {},
): string {
  if (values === undefined) return type;
  const members = Object.entries(values).map(
    ([property, value]) =>
      `${propertyKey(property)}${defaults[property] === value ? '?' : ''}: ${JSON.stringify(value)}`,
  );
  return `(${type} & { ${members.join('; ')} })`;
}

/** Whether some handler's result type uses WithDefaults (its import is left out otherwise: noUnusedLocals). */
function usesDefaults(model: ProtocolModel): boolean {
  return received(model, 'ClientRequests').some((m) =>
    (m.result ?? []).some((name) => defaultedFields(model.definitions[name]).length > 0),
  );
}

/** The options, with `capabilities` typed as this version's ServerCapabilities (extension settings included). */
function optionsType(model: ProtocolModel): string {
  return 'ServerCapabilities' in model.definitions
    ? 'McpServerOptions & { capabilities?: T.ServerCapabilities }'
    : 'McpServerOptions';
}

/** Whether handlers can ask for input (2026-07-28 on): ServerContext then carries the typed `inputs` helper. */
function asksForInput(model: ProtocolModel): boolean {
  return model.features.inputRequests && model.definitions['InputRequiredResult'] !== undefined;
}

/** The imports of server.ts: only what it uses (an unused import fails noUnusedLocals). */
function serverImports(model: ProtocolModel, importExt: string, runtime: RuntimeRef): (StatementStructures | string)[] {
  const inputs = asksForInput(model);
  return [
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      namespaceImport: 'T',
      moduleSpecifier: `./types${importExt}`,
    },
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      namedImports: [
        ...(channelsOf(model).length > 0 ? ['ClientNotifications', 'ClientRequests'] : []),
        ...(inputs ? ['InputRequests'] : []),
        'ServerNotifications',
        'ServerRequests',
      ],
      moduleSpecifier: `./maps${importExt}`,
    },
    {
      kind: StructureKind.ImportDeclaration,
      namedImports: ['CLIENT_NOTIFICATION_METHODS', 'CLIENT_REQUEST_METHODS', 'PROTOCOL'],
      moduleSpecifier: `./maps${importExt}`,
    },
    {
      kind: StructureKind.ImportDeclaration,
      namedImports: ['paramsValidators', 'resultValidators'],
      moduleSpecifier: `./validators${importExt}`,
    },
    {
      kind: StructureKind.ImportDeclaration,
      namedImports: [
        'McpServerBase',
        ...(channelsOf(model).length > 0 ? ['ChannelServer', 'type PeerOptions', 'type Transport'] : []),
        'type McpServerOptions',
        'type ServerTables',
        'type SessionInfo',
        'type HandlerContext',
        ...(inputs ? ['type InputsHelper'] : []),
        ...(usesDefaults(model) ? ['type WithDefaults'] : []),
        // Only where a notification handler uses it: an unused import fails noUnusedLocals.
        ...(receivesNotifications(model) ? ['type NotificationContext'] : []),
        ...runtimeCheckImport(runtime),
      ],
      moduleSpecifier: runtime.core,
    },
    ...runtimeCheck(runtime, 'server.ts'),
  ];
}

/** TABLES: what the server base reads about this version's methods (results, required params, extensions). */
function serverTables(model: ProtocolModel): StatementStructures {
  const requests = received(model, 'ClientRequests');
  const results = `{\n${requests.map((m) => `  ${objectKey(m.method)}: [${(m.result ?? []).map(stringLiteral).join(', ')}],`).join('\n')}\n}`;
  const required = [...requests, ...received(model, 'ClientNotifications')]
    .filter((m) => m.paramsRequired)
    .map((m) => stringLiteral(m.method));
  const extensions = model.methods.filter((m) => m.source !== 'mcp');
  const extensionMethods = `{\n${extensions.map((m) => `  ${objectKey(m.method)}: ${stringLiteral(m.source)},`).join('\n')}\n}`;
  const lit = (text: string) => `Object.freeze(Object.setPrototypeOf(${text}, null))`;
  return {
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [
      {
        name: 'TABLES',
        type: 'ServerTables',
        initializer: `{
  paramsValidators,
  resultValidators,
  results: ${lit(results)},
  requestMethods: CLIENT_REQUEST_METHODS,
  notificationMethods: CLIENT_NOTIFICATION_METHODS,
  extensionMethods: ${lit(extensionMethods)},
  paramsRequired: Object.freeze([${required.join(', ')}]),
}`,
      },
    ],
  };
}

/**
 * ServerContext: HandlerContext plus the session, and where handlers can ask for input the typed `inputs`
 * helper (its ask pinned to 'input_required', so it fits a handler result whose variants are pinned too).
 */
function serverContext(model: ProtocolModel): StatementStructures {
  const inputs = asksForInput(model);
  return {
    kind: StructureKind.TypeAlias,
    isExported: true,
    name: 'ServerContext',
    docs: [
      'What a request handler gets besides params: cancellation signal, progress, typed notify/request to the client, `_meta`, and the session' +
        (inputs
          ? '; and `inputs(params, { name: { method, params } })`, which asks the client for named inputs (an input-required result to return) or hands back its answers, typed by method.'
          : '.'),
    ],
    type: `HandlerContext<ServerRequests, ServerNotifications> & { readonly session: SessionInfo${
      inputs
        ? "; readonly inputs: InputsHelper<InputRequests, T.InputRequiredResult & { resultType: 'input_required' }>"
        : ''
    } }`,
  };
}

export function emitServer(model: ProtocolModel, importExt: string, runtime: RuntimeRef): string {
  const statements: (StatementStructures | string)[] = [
    ...serverImports(model, importExt, runtime),
    serverContext(model),
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: 'McpServerHandlers',
      docs: [
        `Handlers for every request and notification a server receives in spec ${model.version ?? '(unknown version)'}.\n` +
          '`createServer` takes any subset; lifecycle methods (initialize, ping, server/discover, cancellation, progress) are handled for you.',
      ],
      type: handlersInterface(model),
    },
    serverTables(model),
    {
      kind: StructureKind.Class,
      isExported: true,
      name: 'McpServer',
      extends: 'McpServerBase<McpServerHandlers>',
      docs: ['A typed MCP server: call `connect(transport)` once per connection.'],
      ctors: [
        {
          parameters: [
            { name: 'handlers', type: 'Partial<McpServerHandlers>' },
            { name: 'options', type: optionsType(model) },
          ],
          statements: ['super(PROTOCOL, TABLES, handlers, options);'],
        },
      ],
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: 'createServer',
      docs: ['Create a server from any subset of the handlers; its capabilities follow from the handlers given.'],
      parameters: [
        { name: 'handlers', type: 'Partial<McpServerHandlers>' },
        { name: 'options', type: optionsType(model) },
      ],
      returnType: 'McpServer',
      statements: ['return new McpServer(handlers, options);'],
    },
    ...channelServerClasses(model),
  ];
  return printFile('server.ts', statements);
}
