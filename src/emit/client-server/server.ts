/**
 * server.ts: `McpServerHandlers` (one member per request and notification the server receives, typed
 * from the maps), `createServer(handlers, options)` taking any subset of them, and the tables the
 * runtime dispatcher needs (compiled validators, results, extension methods). Built as ts-morph statement
 * structures (ts-structures.ts).
 */
import { defaultedFields } from '../../model/protocol-facts.js';
import type { MethodInfo, ProtocolModel } from '../../model/types.js';
import { runtimeCheck, runtimeCheckImport, type RuntimeRef } from '../shared/runtime-ref.js';
import { channelTable, hasExtensionSettings, methodsOfTable, optionsType } from '../maps/tables.js';
import { paramsType } from '../types/params-names.js';
import { CHANNEL_DIRECTIONS, channelServerClasses, channelsOf } from './channels.js';
import { validatorsNamespaceImport } from '../validators/validator-refs.js';
import { settingsCheck } from '../maps/settings.js';
import type { Statement } from '../shared/ts-project.js';
import { jsModuleSpecifier } from '../shared/ts-names.js';
import { classDecl, constDecl, functionDecl, importDecl, typeAlias } from '../shared/ts-structures.js';
import {
  and,
  arrayLiteral,
  call,
  fnType,
  objectLiteral,
  objectType,
  ref,
  str,
  union,
  type Prop,
  type TypeMember,
} from '../shared/ts-text.js';

/** Answered by the runtime's lifecycle, not by user handlers. */
const LIFECYCLE = new Set([
  'initialize',
  'ping',
  'server/discover',
  'notifications/cancelled',
  'notifications/progress',
]);

function received(model: ProtocolModel, name: 'ClientRequests' | 'ClientNotifications'): MethodInfo[] {
  return methodsOfTable(model, name);
}

/** Does the server have a handler for some notification (not one the lifecycle handles)? */
function receivesNotifications(model: ProtocolModel): boolean {
  return received(model, 'ClientNotifications').some((m) => !LIFECYCLE.has(m.method));
}

/** `ctx.auth` of every handler: who is calling, as the HTTP server's `auth` gate verified it. */
const AUTH_MEMBER: TypeMember = {
  name: 'auth',
  readonly: true,
  type: union(['AuthInfo', 'undefined']),
  doc: "Who is calling, as the HTTP transport's `auth` gate verified the request's access token; undefined on a transport without one.",
};

function handlersInterface(model: ProtocolModel): string {
  const rows: TypeMember[] = [];
  for (const m of [...received(model, 'ClientRequests'), ...received(model, 'ClientNotifications')]) {
    if (LIFECYCLE.has(m.method)) continue;
    const params = m.paramsRequired ? paramsType(m, model) : union([paramsType(m, model), 'undefined']);
    const d = model.definitions[m.definition]?.description;
    const results = handlerResult(model, m);
    const returns = m.kind === 'request' ? union([...results, ref('Promise', union(results))]) : 'void | Promise<void>';
    const { doc: _doc, ...auth } = AUTH_MEMBER;
    const ctx = m.kind === 'request' ? 'ServerContext' : and('NotificationContext', objectType([auth]));
    rows.push({
      name: m.method,
      doc: typeof d === 'string' ? `\`${m.method}\`: ${d}` : `\`${m.method}\``,
      type: fnType(
        [
          { name: 'params', type: params },
          { name: 'ctx', type: ctx },
        ],
        returns,
      ),
    });
  }
  return objectType(rows, true);
}

/**
 * A handler's result type: each result definition with the fields the runtime fills in made optional, and
 * for a task-augmented request the created task too.
 */
function handlerResult(model: ProtocolModel, m: MethodInfo): string[] {
  const members = (m.result ?? []).map((name) => {
    const fields = defaultedFields(model.definitions[name], model.definitions);
    const type = fields.length === 0 ? `T.${name}` : ref('WithDefaults', `T.${name}`, union(fields.map((f) => str(f))));
    return withDiscriminant(type, m.discriminants?.[name], model.facts.resultDefaults[m.method]);
  });
  // A task-augmented request sent with `task` is answered with the created task (2025-11-25).
  if (m.taskResult !== undefined) members.push(`T.${m.taskResult}`);
  return members.length > 0 ? members : ['never'];
}

/**
 * A result variant of a request an extension added variants to, pinned to its discriminant value
 * (`CallToolResult` → `resultType: 'complete'`): the schema's plain `string` would let a misspelled
 * `resultType: 'tsak'` pass as some variant. Optional where the runtime fills in that very value.
 */
export function withDiscriminant(
  type: string,
  values: Record<string, string | number | boolean | null> | undefined,
  defaults: Readonly<Record<string, unknown>> = {},
): string {
  if (values === undefined) return type;
  const members = Object.entries(values).map(([property, value]) => ({
    name: property,
    optional: value === null || defaults[property] === value,
    type: value === null ? 'undefined' : typeof value === 'string' ? str(value) : String(value),
  }));
  return and(type, objectType(members));
}

/** Whether some handler's result type uses WithDefaults (its import is left out otherwise: noUnusedLocals). */
function usesDefaults(model: ProtocolModel): boolean {
  return received(model, 'ClientRequests').some((m) =>
    (m.result ?? []).some((name) => defaultedFields(model.definitions[name], model.definitions).length > 0),
  );
}

/** Whether handlers can ask for input (2026-07-28 on): ServerContext then carries the typed `inputs` helper. */
function asksForInput(model: ProtocolModel): boolean {
  return model.features.inputRequests && model.definitions['InputRequiredResult'] !== undefined;
}

/** The imports of server.ts: only what it uses (an unused import fails noUnusedLocals). */
function serverImports(model: ProtocolModel, importExt: string, runtime: RuntimeRef): Statement[] {
  const inputs = asksForInput(model);
  const channels = channelsOf(model).length > 0;
  return [
    importDecl(true, { namespace: 'T' }, `./types${importExt}`),
    importDecl(
      true,
      [
        ...new Set([
          ...(channels ? CHANNEL_DIRECTIONS.map((name) => channelTable(model, name)) : []),
          ...(inputs ? ['InputRequests'] : []),
          'ServerNotifications',
          'ServerRequests',
        ]),
      ].sort(),
      `./maps${importExt}`,
    ),
    importDecl(false, ['CLIENT_NOTIFICATION_METHODS', 'CLIENT_REQUEST_METHODS', 'PROTOCOL'], `./maps${importExt}`),
    // validators.js is JavaScript whatever the other files' extension (`.ts` for type stripping).
    importDecl(false, ['paramsValidators', 'resultValidators'], jsModuleSpecifier('validators', importExt)),
    ...validatorsNamespaceImport(importExt, true, channels || hasExtensionSettings(model)),
    importDecl(
      false,
      [
        'McpServerBase',
        ...(channels ? ['ChannelServer', 'type PeerOptions', 'type Transport'] : []),
        'type McpServerOptions',
        'type ServerTables',
        'type SessionInfo',
        'type AuthInfo',
        'type HandlerContext',
        ...(inputs ? ['type InputsHelper'] : []),
        ...(usesDefaults(model) ? ['type WithDefaults'] : []),
        ...(hasExtensionSettings(model) ? ['checkExtensionSettings'] : []),
        // Only where a notification handler uses it: an unused import fails noUnusedLocals.
        ...(receivesNotifications(model) ? ['type NotificationContext'] : []),
        ...runtimeCheckImport(runtime),
      ],
      runtime.core,
    ),
    ...runtimeCheck(runtime, 'server.ts'),
  ];
}

/**
 * A call annotated `@__PURE__`: a bundler may drop it when nothing reads its value (a browser bundle of a
 * channel end leaves TABLES, and the validators only it references, out).
 */
const pureCall = (fn: string, ...args: string[]): string => `/* @__PURE__ */ ${call(fn, ...args)}`;

/** A null-prototype frozen record (no inherited key can pass for a method). */
export const frozenRecord = (props: { name: string; value: string }[]): string =>
  pureCall(
    'Object.freeze',
    pureCall(
      'Object.setPrototypeOf',
      objectLiteral(
        props.map((p) => ({ ...p, computed: p.name === '__proto__' })),
        true,
      ),
      'null',
    ),
  );

/** TABLES: what the server base reads about this version's methods (results, required params, extensions). */
function serverTables(model: ProtocolModel): Statement {
  const requests = received(model, 'ClientRequests');
  const results = requests.map((m) => ({ name: m.method, value: arrayLiteral((m.result ?? []).map((r) => str(r))) }));
  const taskResults = requests.flatMap((m) => (m.taskResult ? [{ name: m.method, value: str(m.taskResult) }] : []));
  const required = [...requests, ...received(model, 'ClientNotifications')].filter((m) => m.paramsRequired);
  const extensions = model.methods
    .filter((m) => m.source !== 'mcp')
    .map((m) => ({ name: m.method, value: str(m.source) }));
  const props: Prop[] = [
    { name: 'paramsValidators' },
    { name: 'resultValidators' },
    { name: 'results', value: frozenRecord(results) },
    { name: 'requestMethods', value: 'CLIENT_REQUEST_METHODS' },
    { name: 'notificationMethods', value: 'CLIENT_NOTIFICATION_METHODS' },
    { name: 'extensionMethods', value: frozenRecord(extensions) },
    ...(taskResults.length > 0 ? [{ name: 'taskResults', value: frozenRecord(taskResults) }] : []),
    { name: 'paramsRequired', value: pureCall('Object.freeze', arrayLiteral(required.map((m) => str(m.method)))) },
  ];
  const tables = objectLiteral(props, true);
  return constDecl('TABLES', tables, { type: 'ServerTables', exported: false });
}

/**
 * ServerContext: HandlerContext plus the session, and where handlers can ask for input the typed `inputs`
 * helper (its ask pinned to 'input_required', so it fits a handler result whose variants are pinned too).
 */
function serverContext(model: ProtocolModel): Statement {
  const inputs = asksForInput(model);
  const members: TypeMember[] = [{ name: 'session', readonly: true, type: 'SessionInfo' }, AUTH_MEMBER];
  if (inputs) {
    const ask = and('T.InputRequiredResult', objectType([{ name: 'resultType', type: "'input_required'" }]));
    members.push({ name: 'inputs', readonly: true, type: ref('InputsHelper', 'InputRequests', ask) });
  }
  const doc =
    'What a request handler gets besides params: cancellation signal, progress, typed notify/request to the client, `_meta`, the session and the caller (`auth`)' +
    (inputs
      ? '; and `inputs(params, { name: { method, params } })`, which asks the client for named inputs (an input-required result to return) or hands back its answers, typed by method.'
      : '.');
  const type = and(ref('HandlerContext', 'ServerRequests', 'ServerNotifications'), objectType(members));
  return typeAlias('ServerContext', type, doc);
}

export function serverStatements(model: ProtocolModel, importExt: string, runtime: RuntimeRef): Statement[] {
  const handlersDoc =
    `Handlers for every request and notification a server receives in spec ${model.version ?? '(unknown version)'}.\n` +
    '`createServer` takes any subset; lifecycle methods (initialize, ping, server/discover, cancellation, progress) are handled for you.';
  const handlerParams = [
    { name: 'handlers', type: ref('Partial', 'McpServerHandlers') },
    { name: 'options', type: optionsType(model, 'McpServerOptions', 'ServerCapabilities') },
  ];
  return [
    ...serverImports(model, importExt, runtime),
    serverContext(model),
    typeAlias('McpServerHandlers', handlersInterface(model), handlersDoc),
    serverTables(model),
    classDecl({
      name: 'McpServer',
      extends: ref('McpServerBase', 'McpServerHandlers'),
      doc: 'A typed MCP server: call `connect(transport)` once per connection.',
      properties: [],
      ctor: {
        params: handlerParams,
        body: ['super(PROTOCOL, TABLES, handlers, options);', ...settingsCheck(model, 'server', true)],
      },
      methods: [],
    }),
    functionDecl({
      name: 'createServer',
      doc: 'Create a server from any subset of the handlers; its capabilities follow from the handlers given.',
      params: handlerParams,
      returns: 'McpServer',
      body: ['return new McpServer(handlers, options);'],
    }),
    ...channelServerClasses(model),
  ];
}
