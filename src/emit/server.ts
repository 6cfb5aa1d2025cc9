/**
 * server.ts: `McpServerHandlers` (one member per request and notification the server receives, typed
 * from the maps), `createServer(handlers, options)` taking any subset of them, and the tables the
 * runtime dispatcher needs (compiled validators, results, extension methods). Written in prettier's layout
 * (layout.ts).
 */
import { defaultedFields } from '../model/protocol-facts.js';
import type { MethodInfo, ProtocolModel } from '../model/types.js';
import { runtimeCheck, runtimeCheckImport, type RuntimeRef } from './runtime-ref.js';
import { TABLES, optionsType, paramsType } from './tables.js';
import { channelServerClasses, channelsOf } from './channels.js';
import { docs, hardline, printStatements, quote, type Doc, type Statement } from './layout.js';
import { and, objectType, ref, text, union, type TypeMember, type TypeNode } from './layout-types.js';
import {
  array,
  atom,
  call,
  classDecl,
  constDecl,
  functionDecl,
  moduleDecl,
  object,
  str,
  typeAlias,
  type Expr,
} from './layout-code.js';

/** Answered by the runtime's lifecycle, not by user handlers. */
const LIFECYCLE = new Set([
  'initialize',
  'ping',
  'server/discover',
  'notifications/cancelled',
  'notifications/progress',
]);

function received(model: ProtocolModel, table: 'ClientRequests' | 'ClientNotifications'): MethodInfo[] {
  const select = TABLES.find((t) => t.name === table)!.select;
  return model.methods.filter(select);
}

/** Does the server have a handler for some notification (not one the lifecycle handles)? */
function receivesNotifications(model: ProtocolModel): boolean {
  return received(model, 'ClientNotifications').some((m) => !LIFECYCLE.has(m.method));
}

function handlersInterface(model: ProtocolModel): TypeNode {
  const rows: TypeMember[] = [];
  for (const m of [...received(model, 'ClientRequests'), ...received(model, 'ClientNotifications')]) {
    if (LIFECYCLE.has(m.method)) continue;
    const params = m.paramsRequired ? paramsType(m, model) : union([paramsType(m, model), text('undefined')]);
    const d = model.definitions[m.definition]?.description;
    const results = handlerResult(model, m);
    const returns =
      m.kind === 'request' ? union([...results, ref('Promise', union(results))]) : text('void | Promise<void>');
    const ctx = text(m.kind === 'request' ? 'ServerContext' : 'NotificationContext');
    rows.push({
      name: m.method,
      doc: typeof d === 'string' ? `\`${m.method}\`: ${d}` : `\`${m.method}\``,
      type: {
        kind: 'fn',
        params: [
          { name: 'params', type: params },
          { name: 'ctx', type: ctx },
        ],
        returns,
      },
    });
  }
  return objectType(rows, true);
}

/** A handler's result type: each result definition with the fields the runtime fills in made optional. */
function handlerResult(model: ProtocolModel, m: MethodInfo): TypeNode[] {
  const members = (m.result ?? []).map((name) => {
    const fields = defaultedFields(model.definitions[name]);
    const type =
      fields.length === 0
        ? text(`T.${name}`)
        : ref('WithDefaults', text(`T.${name}`), union(fields.map((f) => text(quote(f)))));
    return withDiscriminant(type, m.discriminants?.[name], model.facts.resultDefaults[m.method]);
  });
  return members.length > 0 ? members : [text('never')];
}

/**
 * A result variant of a request an extension added variants to, pinned to its discriminant value
 * (`CallToolResult` → `resultType: 'complete'`): the schema's plain `string` would let a misspelled
 * `resultType: 'tsak'` pass as some variant. Optional where the runtime fills in that very value.
 */
export function withDiscriminant(
  type: TypeNode,
  values: Record<string, string | number | boolean> | undefined,
  defaults: Readonly<Record<string, unknown>> = {},
): TypeNode {
  if (values === undefined) return type;
  const members = Object.entries(values).map(([property, value]) => ({
    name: property,
    optional: defaults[property] === value,
    type: text(typeof value === 'string' ? quote(value) : String(value)),
  }));
  return and(type, objectType(members));
}

/** Whether some handler's result type uses WithDefaults (its import is left out otherwise: noUnusedLocals). */
function usesDefaults(model: ProtocolModel): boolean {
  return received(model, 'ClientRequests').some((m) =>
    (m.result ?? []).some((name) => defaultedFields(model.definitions[name]).length > 0),
  );
}

/** Whether handlers can ask for input (2026-07-28 on): ServerContext then carries the typed `inputs` helper. */
function asksForInput(model: ProtocolModel): boolean {
  return model.features.inputRequests && model.definitions['InputRequiredResult'] !== undefined;
}

/** The imports of server.ts: only what it uses (an unused import fails noUnusedLocals). */
function serverImports(model: ProtocolModel, importExt: string, runtime: RuntimeRef): Doc[] {
  const inputs = asksForInput(model);
  const channels = channelsOf(model).length > 0;
  return [
    moduleDecl('import', true, { namespace: 'T' }, `./types${importExt}`),
    moduleDecl(
      'import',
      true,
      [
        ...(channels ? ['ClientNotifications', 'ClientRequests'] : []),
        ...(inputs ? ['InputRequests'] : []),
        'ServerNotifications',
        'ServerRequests',
      ],
      `./maps${importExt}`,
    ),
    moduleDecl(
      'import',
      false,
      ['CLIENT_NOTIFICATION_METHODS', 'CLIENT_REQUEST_METHODS', 'PROTOCOL'],
      `./maps${importExt}`,
    ),
    moduleDecl('import', false, ['paramsValidators', 'resultValidators'], `./validators${importExt}`),
    moduleDecl(
      'import',
      false,
      [
        'McpServerBase',
        ...(channels ? ['ChannelServer', 'type PeerOptions', 'type Transport'] : []),
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
      runtime.core,
    ),
    ...runtimeCheck(runtime, 'server.ts'),
  ];
}

/** A null-prototype frozen record (no inherited key can pass for a method). */
const frozenRecord = (props: { name: string; value: Expr }[]): Expr =>
  call(
    'Object.freeze',
    call(
      'Object.setPrototypeOf',
      object(
        props.map((p) => ({ ...p, computed: p.name === '__proto__' })),
        true,
      ),
      atom('null'),
    ),
  );

/** TABLES: what the server base reads about this version's methods (results, required params, extensions). */
function serverTables(model: ProtocolModel): Doc {
  const requests = received(model, 'ClientRequests');
  const results = requests.map((m) => ({ name: m.method, value: array((m.result ?? []).map(str)) }));
  const required = [...requests, ...received(model, 'ClientNotifications')].filter((m) => m.paramsRequired);
  const extensions = model.methods
    .filter((m) => m.source !== 'mcp')
    .map((m) => ({ name: m.method, value: str(m.source) }));
  const tables = object(
    [
      { name: 'paramsValidators' },
      { name: 'resultValidators' },
      { name: 'results', value: frozenRecord(results) },
      { name: 'requestMethods', value: atom('CLIENT_REQUEST_METHODS') },
      { name: 'notificationMethods', value: atom('CLIENT_NOTIFICATION_METHODS') },
      { name: 'extensionMethods', value: frozenRecord(extensions) },
      { name: 'paramsRequired', value: call('Object.freeze', array(required.map((m) => str(m.method)))) },
    ],
    true,
  );
  return constDecl('TABLES', tables, { type: 'ServerTables', exported: false });
}

/**
 * ServerContext: HandlerContext plus the session, and where handlers can ask for input the typed `inputs`
 * helper (its ask pinned to 'input_required', so it fits a handler result whose variants are pinned too).
 */
function serverContext(model: ProtocolModel): Doc {
  const inputs = asksForInput(model);
  const members: TypeMember[] = [{ name: 'session', readonly: true, type: text('SessionInfo') }];
  if (inputs) {
    const ask = and(
      text('T.InputRequiredResult'),
      objectType([{ name: 'resultType', type: text("'input_required'") }]),
    );
    members.push({ name: 'inputs', readonly: true, type: ref('InputsHelper', text('InputRequests'), ask) });
  }
  const doc =
    'What a request handler gets besides params: cancellation signal, progress, typed notify/request to the client, `_meta`, and the session' +
    (inputs
      ? '; and `inputs(params, { name: { method, params } })`, which asks the client for named inputs (an input-required result to return) or hands back its answers, typed by method.'
      : '.');
  const type = and(ref('HandlerContext', text('ServerRequests'), text('ServerNotifications')), objectType(members));
  return [docs(doc), hardline, typeAlias('ServerContext', type)];
}

export function emitServer(model: ProtocolModel, importExt: string, runtime: RuntimeRef): string {
  const handlersDoc =
    `Handlers for every request and notification a server receives in spec ${model.version ?? '(unknown version)'}.\n` +
    '`createServer` takes any subset; lifecycle methods (initialize, ping, server/discover, cancellation, progress) are handled for you.';
  const handlerParams = [
    { name: 'handlers', type: ref('Partial', text('McpServerHandlers')) },
    { name: 'options', type: optionsType(model, 'McpServerOptions', 'ServerCapabilities') },
  ];
  const statements: Statement[] = [
    ...serverImports(model, importExt, runtime).map((doc) => ({ doc })),
    { doc: serverContext(model) },
    { doc: [docs(handlersDoc), hardline, typeAlias('McpServerHandlers', handlersInterface(model))] },
    { doc: serverTables(model) },
    {
      doc: classDecl({
        name: 'McpServer',
        extends: ref('McpServerBase', text('McpServerHandlers')),
        doc: 'A typed MCP server: call `connect(transport)` once per connection.',
        properties: [],
        ctor: {
          params: handlerParams,
          body: [{ expression: call('super', ...['PROTOCOL', 'TABLES', 'handlers', 'options'].map(atom)) }],
        },
        methods: [],
      }),
      blankBefore: true,
    },
    {
      doc: functionDecl({
        name: 'createServer',
        doc: 'Create a server from any subset of the handlers; its capabilities follow from the handlers given.',
        params: handlerParams,
        returns: text('McpServer'),
        body: [{ return: call('new McpServer', atom('handlers'), atom('options')) }],
      }),
      blankBefore: true,
    },
    ...channelServerClasses(model).map((doc) => ({ doc, blankBefore: true })),
  ];
  return printStatements(statements);
}
