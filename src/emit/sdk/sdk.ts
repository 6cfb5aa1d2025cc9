/**
 * sdk.ts: the same model on the official MCP SDK v2 (`@modelcontextprotocol/server` / `client` ≥ 2.4), for
 * projects that run the SDK rather than this runtime. The SDK types only the spec's methods and takes a
 * Standard Schema per custom method; this module passes it the generated validators (each one is a
 * Standard Schema) and types every call and handler from the generated maps:
 * - `METHOD_NAMES`: every method name, spec and vendor, by the definition that declares it (typed tokens;
 *   sdk-tokens.ts);
 * - `registerServerHandlers` / `registerClientHandlers`: one call registers a typed handler per vendor
 *   request (and notification) the peer receives, its params checked by the generated validator;
 * - `sdkClient(client)`: a typed facade — `acme.jobs.start(params)`, `notify(method, params)` — whose
 *   results are checked and typed; `sdkRequest(client)`: every request the client sends by name (an
 *   extension's augmentations included);
 * - `extensionCapabilities`: the extensions' settings this peer advertises, typed (maps.ts's
 *   `extensionSettings` reads the other peer's).
 *
 * What SDK v2 does to a 2026-07-28 result or an extension's result kind is undone in sdk-results.ts, what it
 * lifts off a vendor method's params in sdk-lifted.ts (the tasks extension needs both).
 *
 * No import of the SDK: its classes are matched structurally, so the SDK stays the user's dependency.
 * sdk-v1.ts does the same for SDK v1, through zod. Built as ts-morph statement structures.
 */
import type { MethodInfo, ProtocolModel } from '../../model/types.js';
import { describe, stubTree, type StubNode } from '../client-server/client.js';
import { paramsValidatorName } from '../validators/validators.js';
import type { Statement } from '../shared/ts-project.js';
import { jsModuleSpecifier } from '../shared/ts-names.js';
import { constDecl, functionDecl, importDecl, typeAlias } from '../shared/ts-structures.js';
import {
  ANY_OF,
  MESSAGE,
  NO_PARAMS,
  OPTIONAL,
  REQUESTING,
  TASK_AUGMENTED,
  preamble,
  requesting,
} from './sdk-helpers.js';
import { liftedHandler, liftsParams, withLiftedFields } from './sdk-lifted.js';
import { methodTokens, settingsStatements } from './sdk-tokens.js';
import {
  BY_RESULT_TYPE,
  COMPLETE,
  extendedRequests,
  extendedResultsType,
  extensionResultStatements,
  refusedResultTypes,
  resultSchemaOf,
  usesAnyOf,
  usesByResultType,
  usesComplete,
} from './sdk-results.js';
import { call, fnType, objectLiteral, objectType, ref, str, type Prop, type TypeMember } from '../shared/ts-text.js';

/** The vendor methods a peer receives, and the ones it sends (requests only for the facade). */
export interface SdkMethods {
  /**
   * Requests and notifications the server receives from the client: the vendor ones, and the spec requests an
   * extension adds result kinds to (`tools/call` answered with a task), whose handlers are optional.
   */
  serverReceives: MethodInfo[];
  /** Requests and notifications the client receives from the server (vendor only). */
  clientReceives: MethodInfo[];
  /** Vendor requests the client sends: the facade's namespaced calls. */
  clientCalls: MethodInfo[];
}

const isVendor = (m: MethodInfo) => m.source !== 'mcp';
/** A spec request an extension added result variants to: the SDK types its handler without them. */
const isExtended = (m: MethodInfo) => m.source === 'mcp' && m.kind === 'request' && m.discriminants !== undefined;
const sentBy = (side: 'client' | 'server') => (m: MethodInfo) =>
  m.directions.includes(side === 'client' ? 'client->server' : 'server->client');

export function sdkMethods(model: ProtocolModel): SdkMethods {
  const vendor = model.methods.filter(isVendor);
  return {
    serverReceives: model.methods.filter((m) => (isVendor(m) || isExtended(m)) && sentBy('client')(m)),
    clientReceives: vendor.filter(sentBy('server')),
    clientCalls: vendor.filter((m) => m.kind === 'request' && sentBy('client')(m)),
  };
}

/** What a register function's doc adds where it also takes spec requests an extension adds result kinds to. */
export const extendedNote = (methods: readonly MethodInfo[]): string => {
  const spec = methods.filter((m) => !isVendor(m)).map((m) => `\`${m.method}\``);
  return spec.length === 0 ? '' : `, and optionally ${spec.join(', ')}, whose results an extension extends`;
};

/** Handlers of requests get the peer's context (`Ctx`); notifications' do not, so a set of them takes none. */
export const takesContext = (methods: readonly MethodInfo[]): boolean => methods.some((m) => m.kind === 'request');

/** A handler the register functions may go without: a notification's, or an extended spec request's. */
export const optionalHandler = (m: MethodInfo): boolean => m.kind === 'notification' || !isVendor(m);

/**
 * The validator (a Standard Schema) a received method's params are checked with; undefined when the method
 * declares none, and for a spec request, which the SDK checks itself (taking its `_meta` envelope off first).
 */
export const paramsSchemaOf = (m: MethodInfo): string | undefined =>
  m.params === null || !isVendor(m) ? undefined : `V.${paramsValidatorName(m.params, m.definition)}`;

/** The generated map a method's row is in, by who sends it. */
export const mapOf = (m: MethodInfo, sender: 'client' | 'server') =>
  `${sender === 'client' ? 'Client' : 'Server'}${m.kind === 'request' ? 'Requests' : 'Notifications'}`;

/** `ClientRequests['acme/jobs.start']['params']` and friends. */
const member = (m: MethodInfo, sender: 'client' | 'server', part: 'params' | 'result') =>
  `${mapOf(m, sender)}[${str(m.method)}][${str(part)}]`;

/** The handler type of one received method, with the peer's context type `Ctx`. */
function handlerType(m: MethodInfo, sender: 'client' | 'server'): string {
  // A spec request's handler gets its params without the `_meta` envelope the SDK took off.
  const params = isVendor(m) ? member(m, sender, 'params') : ref('Caller', member(m, sender, 'params'));
  if (m.kind === 'notification') return fnType([{ name: 'params', type: params }], 'void | Promise<void>');
  const result =
    m.discriminants !== undefined && sender === 'client'
      ? `ExtendedResults[${str(m.method)}]['handler']`
      : member(m, sender, 'result');
  return fnType(
    [
      { name: 'params', type: params },
      { name: 'ctx', type: 'Ctx' },
    ],
    `${result} | Promise<${result}>`,
  );
}

/** `{ 'acme/jobs.start': (params, ctx) => …; 'acme/jobs.ping'?: (params) => … }`: requests required. */
function handlersType(model: ProtocolModel, methods: readonly MethodInfo[], sender: 'client' | 'server'): string {
  const members: TypeMember[] = methods.map((m) => ({
    name: m.method,
    type: handlerType(m, sender),
    optional: optionalHandler(m),
    doc: describe(model, m),
  }));
  return objectType(members, true);
}

/** One `setRequestHandler` / `setNotificationHandler` call of the register function. */
function registration(model: ProtocolModel, m: MethodInfo, peer: string): string {
  // Params with a field the SDK lifts off are checked in the handler, once it is put back.
  const lifted = liftsParams(model, m);
  const standard = lifted ? undefined : paramsSchemaOf(m);
  // The SDK checks `params` as sent: absent params are valid where the method's params are optional.
  const params =
    standard === undefined
      ? 'NO_PARAMS'
      : m.paramsRequired
        ? standard
        : `/* @__PURE__ */ ${call('optional', standard)}`;
  const handler = `handlers[${str(m.method)}]`;
  if (m.kind === 'request') {
    const schemas = objectLiteral([
      { name: 'params', value: params },
      { name: 'result', value: resultSchemaOf(model, m) },
    ]);
    const given = lifted ? liftedHandler(m, paramsSchemaOf(m) ?? 'NO_PARAMS', handler) : handler;
    const set = `${call(`${peer}.setRequestHandler`, str(m.method), schemas, given)};`;
    return optionalHandler(m) ? `if (${handler} !== undefined) ${set}` : set;
  }
  // A notification handler is optional; the SDK passes the raw notification second, which ours ignore.
  const schemas = objectLiteral([{ name: 'params', value: params }]);
  return `if (${handler} !== undefined) ${call(`${peer}.setNotificationHandler`, str(m.method), schemas, handler)};`;
}

function registerFunction(
  model: ProtocolModel,
  name: string,
  handlersName: string,
  methods: readonly MethodInfo[],
  sender: 'client' | 'server',
  doc: string,
): Statement[] {
  if (methods.length === 0) return [];
  const context = takesContext(methods);
  return [
    typeAlias(
      context ? `${handlersName}<Ctx>` : handlersName,
      handlersType(model, methods, sender),
      `Handlers of what the ${doc}.`,
    ),
    functionDecl({
      name: `${name}<P extends SdkPeer>`,
      doc: `Registers a typed handler on an SDK v2 peer for every vendor method the ${doc} (params checked by the generated validators)${extendedNote(methods)}.`,
      params: [
        { name: 'peer', type: 'P' },
        { name: 'handlers', type: context ? ref(handlersName, 'ContextOf<P>') : handlersName },
      ],
      returns: 'void',
      body: methods.map((m) => registration(model, m, 'peer')),
    }),
  ];
}

/** A vendor call of the facade, typed by `SdkClient` (the function's declared return type). */
const facadeCall = (model: ProtocolModel, m: MethodInfo): string =>
  `(params, options) => ${call('send', str(m.method), 'params', resultSchemaOf(model, m), 'options')} as never`;

/** The facade's vendor members, by path (`acme: { jobs: { start: … } }`). */
function facadeProps(model: ProtocolModel, node: StubNode): Prop[] {
  const props: Prop[] = [];
  for (const [name, child] of node.children) {
    const leaf = child.leaf;
    const group = () => objectLiteral(facadeProps(model, child), true);
    const value =
      leaf === undefined
        ? group()
        : child.children.size === 0
          ? facadeCall(model, leaf)
          : call('Object.assign', facadeCall(model, leaf), group());
    props.push({ name, value });
  }
  return props;
}

/** How a facade sends: the SDK v2 takes the Standard Schema itself, v1 a zod schema made from it. */
export interface FacadeVariant {
  /** Appended to every function's name (`sdkClientV1`): '' for v2. */
  suffix: '' | 'V1';
  requester: string;
  /** The expression that turns a Standard Schema into what this SDK's `request` takes. */
  schema: (standard: string) => string;
  doc: string;
}

export const V2_FACADE: FacadeVariant = {
  suffix: '',
  requester: 'SdkRequester',
  schema: (standard) => standard,
  doc: 'A typed facade over an SDK v2 `Client` (connected): vendor requests by path (`acme.jobs.start(params)`), results checked by the generated validators, and notifications.',
};

/**
 * How a facade sends a request: `client.request`, or `extensionRequest` where one of the methods it may send
 * has a result kind the SDK v2 refuses (the tap stays out of a bundle whose calls need none).
 */
const requestCall = (
  model: ProtocolModel,
  variant: FacadeVariant,
  methods: readonly MethodInfo[],
  schema: string,
): string => {
  const refused = refusedResultTypes(model);
  return variant.suffix === '' && methods.some((m) => refused[m.method] !== undefined)
    ? call('extensionRequest', 'client', 'message(method, params)', schema, 'options')
    : call(`${requesting('client')}.request`, 'message(method, params)', variant.schema(schema), 'options');
};

/** `sdkClient(client)`: the facade over an SDK `Client`. */
export function facadeFunction(model: ProtocolModel, calls: readonly MethodInfo[], variant: FacadeVariant): Statement {
  const props: Prop[] = [
    ...facadeProps(model, stubTree(calls)),
    {
      name: 'notify',
      value: '(method, params) => client.notification(message(method, params))',
    },
  ];
  const body = [
    // Without vendor requests the facade only notifies: no `send`, and no options to type (noUnusedLocals).
    ...(calls.length === 0
      ? []
      : [
          'const send = (method: string, params: unknown, schema: StandardSchemaV1, options: OptionsOf<C> | undefined) =>',
          `  ${requestCall(model, variant, calls, 'schema')};`,
        ]),
    `return ${objectLiteral(props, true)};`,
  ];
  return functionDecl({
    name: `sdkClient${variant.suffix}<C extends ${variant.requester}>`,
    doc: variant.doc,
    params: [{ name: 'client', type: 'C' }],
    returns: calls.length === 0 ? 'SdkClient' : 'SdkClient<C>',
    body,
  });
}

/**
 * `sdkRequest(client)`: every request the client sends by name, typed and checked. Its own function, apart
 * from the facade: it holds every result's validator, which a bundle of the facade alone leaves out.
 */
export function requestFunction(model: ProtocolModel, variant: FacadeVariant): Statement {
  return functionDecl({
    name: `sdkRequest${variant.suffix}<C extends ${variant.requester}>`,
    doc: "Any request the client sends, spec or vendor, by name: params and result typed by the generated maps (an extension's augmentations included), the result checked by the generated validators.",
    params: [{ name: 'client', type: 'C' }],
    returns: 'SdkRequest<C>',
    body: [
      `return ${requestParams(model, 'client')} =>`,
      `  ${requestCall(model, variant, model.methods.filter(sentBy('client')), 'RESULT_SCHEMAS[method]')} as never;`,
    ],
  });
}

/** The parameters of a `request(method, …)` arrow: typed where the overloads give it no one contextual signature. */
const requestParams = (model: ProtocolModel, side: 'client' | 'server'): string =>
  hasTaskAugmented(model, side)
    ? `(method: keyof ${side === 'client' ? 'ClientRequests' : 'ServerRequests'} & string, ...[params, options]: [unknown?, OptionsOf<${side === 'client' ? 'C' : 'S'}>?])`
    : '(method, ...[params, options])';

/** Some request of `map` may be sent with `params.task` (2025-11-25) and answered with the task it creates. */
export const hasTaskAugmented = (model: ProtocolModel, side: 'client' | 'server'): boolean =>
  model.methods.some((m) => m.kind === 'request' && m.taskResult !== undefined && sentBy(side)(m));

/**
 * The call signature(s) of `request(method, …)` over one map, for a client `C` or a server `S`: a task-augmented one's
 * first where there are some. Options are `OptionsOf<C>` (`<S>`), read where a call passes them.
 */
function requestSignature(model: ProtocolModel, side: 'client' | 'server'): string {
  const O = `OptionsOf<${side === 'client' ? 'C' : 'S'}>`;
  const map = side === 'client' ? 'ClientRequests' : 'ServerRequests';
  const result =
    side === 'client' && extendedRequests(model).length > 0
      ? `M extends keyof ExtendedResults ? ExtendedResults[M]['caller'] : ${map}[M]['result']`
      : `${map}[M]['result']`;
  const plain = `<M extends keyof ${map} & string>(method: M, ...args: ArgsOf<${map}[M], ${O}>) => Promise<${result}>`;
  if (!hasTaskAugmented(model, side)) return plain;
  return `{
    <M extends TaskAugmented<${map}>>(method: M, params: TaskRequest<${map}[M]>['params'], options?: ${O}): Promise<TaskRequest<${map}[M]>['result']>;
    ${plain.replace(' => ', ': ')};
  }`;
}

/** The facade's type, named so an editor shows it (and so the function's return type is declared). */
function facadeType(model: ProtocolModel, calls: readonly MethodInfo[]): Statement {
  const typeOf = (node: StubNode): string => {
    const members: TypeMember[] = [...node.children].map(([name, child]) => {
      const leaf = child.leaf;
      const fn =
        leaf === undefined
          ? undefined
          : fnType(
              [
                {
                  name: 'params',
                  type: ref('Caller', member(leaf, 'client', 'params')),
                  optional: !leaf.paramsRequired,
                },
                { name: 'options', type: 'OptionsOf<C>', optional: true },
              ],
              `Promise<${member(leaf, 'client', 'result')}>`,
            );
      const type = fn === undefined ? typeOf(child) : child.children.size === 0 ? fn : `(${fn}) & ${typeOf(child)}`;
      return { name, type, ...(leaf ? { doc: describe(model, leaf) } : {}) };
    });
    return objectType(members, true);
  };
  const base = objectType(
    [
      {
        name: 'notify',
        type: `<M extends keyof ClientNotifications & string>(method: M, params?: ClientNotifications[M]['params']) => Promise<void>`,
        doc: 'Any notification the client sends, spec or vendor, its params typed.',
      },
    ],
    true,
  );
  const vendor = calls.length === 0 ? undefined : typeOf(stubTree(calls));
  if (vendor === undefined) return typeAlias('SdkClient', base, 'What `sdkClient` returns.');
  return typeAlias(
    'SdkClient<C>',
    `${vendor} & ${base}`,
    "What `sdkClient(client)` returns for a client of type `C`: each call's options are `OptionsOf<C>`, read only where a call passes some.",
  );
}

/** The type of `sdkRequest`'s function. */
function requestType(model: ProtocolModel): Statement {
  return typeAlias(
    'SdkRequest<C>',
    requestSignature(model, 'client'),
    'Any request the client sends, by name: what `sdkRequest(client)` returns for a client of type `C`.',
  );
}

/** Result schemas of every request one side sends (what its `request(method, …)` checks results with). */
function resultSchemas(model: ProtocolModel, side: 'client' | 'server'): Statement {
  const rows = model.methods
    .filter((m) => m.kind === 'request' && sentBy(side)(m))
    .map((m): Prop => ({ name: m.method, value: resultSchemaOf(model, m) }));
  const map = side === 'client' ? 'ClientRequests' : 'ServerRequests';
  return constDecl(side === 'client' ? 'RESULT_SCHEMAS' : 'SERVER_RESULT_SCHEMAS', objectLiteral(rows, true), {
    type: `Readonly<Record<keyof ${map} & string, StandardSchemaV1>>`,
    doc: `The result schema of every request the ${side} sends (what \`request(method, …)\` checks a result with).`,
  });
}

/** `sdkServer(server)`: what an SDK server sends, typed: requests to the client (results checked) and notifications. */
export function serverSender(model: ProtocolModel, variant: FacadeVariant): Statement[] {
  const type = objectType(
    [
      {
        name: 'request',
        type: requestSignature(model, 'server'),
        doc: 'Any request the server sends to the client, spec or vendor: params and result typed, the result checked.',
      },
      {
        name: 'notify',
        type: "<M extends keyof ServerNotifications & string>(method: M, params?: ServerNotifications[M]['params']) => Promise<void>",
        doc: 'Any notification the server sends, spec or vendor, its params typed.',
      },
    ],
    true,
  );
  const v2 = variant.suffix === '';
  return [
    // One type for both SDKs: sdk-v1.ts imports it.
    ...(v2 ? [typeAlias('SdkServer<S>', type, 'What `sdkServer(server)` returns for a server of type `S`.')] : []),
    functionDecl({
      name: `sdkServer${variant.suffix}<S extends ${variant.requester}>`,
      doc: `Typed sending for an SDK ${v2 ? 'v2' : 'v1'} \`Server\` (connected): requests to the client by name, results checked by the generated validators, and notifications.`,
      params: [{ name: 'server', type: 'S' }],
      returns: 'SdkServer<S>',
      body: [
        'return {',
        `  request: ${requestParams(model, 'server')} =>`,
        `    ${requesting('server')}.request(message(method, params), ${variant.schema('SERVER_RESULT_SCHEMAS[method]')}, options) as never,`,
        '  notify: (method, params) =>',
        '    server.notification(message(method, params)),',
        '};',
      ],
    }),
  ];
}

/** sdk.ts's imports: the tables, the types where extension results need them, the validators. */
function sdkImports(importExt: string, uses: { settings: boolean; types: boolean; results: boolean }): Statement[] {
  const maps = ['ClientNotifications', 'ClientRequests', 'ServerNotifications', 'ServerRequests'];
  return [
    importDecl(true, [...maps, ...(uses.settings ? ['ExtensionSettings'] : [])].sort(), `./maps${importExt}`),
    ...(uses.types ? [importDecl(true, { namespace: 'T' }, `./types${importExt}`)] : []),
    importDecl(false, { namespace: 'V' }, jsModuleSpecifier('validators', importExt)),
    importDecl(
      true,
      ['StandardSchemaV1', ...(uses.results ? ['StandardSchemaV1Result'] : [])],
      jsModuleSpecifier('validators', importExt),
    ),
  ];
}

export function sdkStatements(model: ProtocolModel, importExt: string): Statement[] {
  const methods = sdkMethods(model);
  // Every request either side sends has a result schema (RESULT_SCHEMAS, SERVER_RESULT_SCHEMAS).
  const [union, complete, byKind] = [usesAnyOf(model), usesComplete(model), usesByResultType(model)];
  const extensionResults = extensionResultStatements(model);
  const extended = extendedResultsType(model);
  const settings = settingsStatements(model);
  const received = [...methods.serverReceives, ...methods.clientReceives];
  const noParams = received.some((m) => paramsSchemaOf(m) === undefined || liftsParams(model, m));
  const lifting = received.some((m) => liftsParams(model, m));
  return [
    ...sdkImports(importExt, {
      settings: settings.length > 0,
      types: extended.length > 0,
      results: union || byKind || lifting || extensionResults.length > 0,
    }),
    ...preamble(extensionResults.length > 0),
    ...(hasTaskAugmented(model, 'client') || hasTaskAugmented(model, 'server') ? TASK_AUGMENTED : []),
    ...extended,
    { ...REQUESTING, isExported: false },
    { ...MESSAGE, isExported: false },
    methodTokens(model),
    ...(union ? [{ ...ANY_OF, isExported: false }] : []),
    ...(byKind ? [{ ...BY_RESULT_TYPE, isExported: false }] : []),
    ...(complete ? [{ ...COMPLETE, isExported: false }] : []),
    ...(noParams ? [NO_PARAMS] : []),
    ...(lifting ? [withLiftedFields(model)] : []),
    ...(received.some((m) => paramsSchemaOf(m) !== undefined && !m.paramsRequired)
      ? [{ ...OPTIONAL, isExported: false }]
      : []),
    resultSchemas(model, 'client'),
    resultSchemas(model, 'server'),
    ...registerFunction(
      model,
      'registerServerHandlers',
      'ServerHandlers',
      methods.serverReceives,
      'client',
      'server receives',
    ),
    ...registerFunction(
      model,
      'registerClientHandlers',
      'ClientHandlers',
      methods.clientReceives,
      'server',
      'client receives',
    ),
    facadeType(model, methods.clientCalls),
    ...extensionResults,
    facadeFunction(model, methods.clientCalls, V2_FACADE),
    requestType(model),
    requestFunction(model, V2_FACADE),
    ...serverSender(model, V2_FACADE),
    ...settings,
  ];
}
