/**
 * sdk-v1.ts: sdk.ts for the official SDK v1 (`@modelcontextprotocol/sdk` ≥ 1.32), which takes zod schemas
 * only: a request handler is registered with a zod object whose `method` is a literal, and `request` checks
 * a result with a zod schema. Each zod schema here runs the generated validator (a Standard Schema) and
 * reports its messages and JSON paths as zod issues, typed as the generated type: one validation of the JSON
 * Schema (ajv's, at generation time), the same on every SDK and on this runtime, rather than a second
 * interpretation of it by a converter. zod stays the user's dependency (the SDK's peer); `zod/v4` is the
 * entry both zod 3.25+ and zod 4 publish.
 */
import type { MethodInfo, ProtocolModel } from '../../model/types.js';
import { ANY_OF, MESSAGE, REQUEST_UNTYPED, REQUESTING } from './sdk-helpers.js';
import { BY_RESULT_TYPE, COMPLETE, resultSchemaOf } from './sdk-results.js';
import {
  extendedNote,
  facadeFunction,
  hasTaskAugmented,
  mapOf,
  optionalHandler,
  paramsSchemaOf,
  requestFunction,
  sdkMethods,
  serverSender,
  takesContext,
  type FacadeVariant,
} from './sdk.js';
import type { Statement } from '../shared/ts-project.js';
import { jsModuleSpecifier } from '../shared/ts-names.js';
import { constDecl, functionDecl, importDecl, typeAlias } from '../shared/ts-structures.js';
import { call, objectLiteral, objectType, ref, str, type Prop } from '../shared/ts-text.js';

const V1_FACADE: FacadeVariant = {
  suffix: 'V1',
  requester: 'SdkV1Requester',
  schema: (standard) => call('zodSchema', standard),
  doc: 'A typed facade over an SDK v1 `Client` (connected): vendor requests by path (`acme.jobs.start(params)`), results checked by the generated validators (through zod), and notifications.',
};

/** `z.object({ method: z.literal('acme/jobs.start'), params: zodSchema<…>(V.…) })`: what v1 registers with. */
function messageSchema(m: MethodInfo, sender: 'client' | 'server'): string {
  const standard = paramsSchemaOf(m);
  const props: Prop[] = [{ name: 'method', value: call('z.literal', str(m.method)) }];
  // A spec request's params are the SDK's to check; a zod object would drop them unless named.
  if (m.params !== null && standard === undefined) props.push({ name: 'params', value: 'z.unknown()' });
  if (standard !== undefined) {
    const params = call(`paramsSchema<${mapOf(m, sender)}[${str(m.method)}]['params']>`, standard);
    props.push({ name: 'params', value: m.paramsRequired ? params : `${params}.optional()` });
  }
  return call('z.object', objectLiteral(props));
}

function registration(m: MethodInfo, table: string): string {
  const handler = `handlers[${str(m.method)}]`;
  const schema = `${table}[${str(m.method)}]`;
  if (m.kind === 'request' && !optionalHandler(m)) {
    return `${call('peer.setRequestHandler', schema, `(request, extra) => ${handler}(request.params, extra)`)};`;
  }
  if (m.kind === 'request') {
    const set = call('peer.setRequestHandler', schema, `(request, extra) => ${handler}?.(request.params, extra)`);
    return `if (${handler} !== undefined) ${set};`;
  }
  return `if (${handler} !== undefined) ${call('peer.setNotificationHandler', schema, `(notification) => ${handler}?.(notification.params)`)};`;
}

function registerFunction(
  name: string,
  handlers: string,
  table: string,
  methods: readonly MethodInfo[],
  sender: 'client' | 'server',
  doc: string,
): Statement[] {
  if (methods.length === 0) return [];
  const rows = methods.map((m): Prop => ({ name: m.method, value: messageSchema(m, sender) }));
  return [
    constDecl(table, objectLiteral(rows, true), { exported: false }),
    functionDecl({
      name: `${name}<P extends SdkV1Peer>`,
      doc: `Registers a typed handler on an SDK v1 peer for every vendor method the ${doc} (params checked by the generated validators, through zod)${extendedNote(methods)}.`,
      params: [
        { name: 'peer', type: 'P' },
        { name: 'handlers', type: takesContext(methods) ? ref(handlers, 'ExtraOf<P>') : handlers },
      ],
      returns: 'void',
      body: methods.map((m) => registration(m, table)),
    }),
  ];
}

const PREAMBLE: Statement[] = [
  typeAlias(
    'SdkV1Peer',
    objectType(
      [
        { name: 'setRequestHandler', type: '(schema: any, handler: (request: any, extra: any) => any) => void' },
        { name: 'setNotificationHandler', type: '(schema: any, handler: (notification: any) => any) => void' },
      ],
      true,
    ),
    "What registering needs of an SDK v1 `Server` or `Client` (or an `McpServer`'s `server`): its zod handler setters.",
  ),
  typeAlias(
    'ExtraOf<P>',
    'P extends { setRequestHandler(schema: any, handler: (request: any, extra: infer E) => any): void } ? E : never',
    'The `extra` an SDK v1 peer gives its request handlers (`RequestHandlerExtra`).',
  ),
  typeAlias(
    'SdkV1Requester',
    objectType(
      [
        { name: 'request', type: 'unknown', doc: REQUEST_UNTYPED },
        { name: 'notification', type: '(notification: any) => Promise<void>' },
      ],
      true,
    ),
    'What the facade needs of an SDK v1 `Client`: `request` with a result schema, and `notification`.',
  ),
  { ...REQUESTING, isExported: false },
  functionDecl({
    name: 'zodSchema<T>',
    doc: 'A zod schema that checks a value with a generated validator, reporting its messages and JSON paths as zod issues; typed as the generated type.',
    params: [{ name: 'schema', type: 'StandardSchemaV1' }],
    returns: 'z.ZodType<T>',
    body: [
      'return z.custom<T>().superRefine((value, ctx) => {',
      "  const result = schema['~standard'].validate(value) as StandardSchemaV1Result<unknown>;",
      '  for (const issue of result.issues ?? []) {',
      "    const path = (issue.path ?? []).map((p) => (typeof p === 'object' ? p.key : p)).map((k) => (typeof k === 'symbol' ? String(k) : k));",
      "    ctx.addIssue({ code: 'custom', message: issue.message, path, input: value });",
      '  }',
      '});',
    ],
  }),
  functionDecl({
    name: 'paramsSchema<T>',
    doc: "zodSchema for a handler's params: invalid ones throw an error with the JSON-RPC code -32602 (SDK v1 answers with an error's numeric `code`; a zod error would be -32603), every issue in its message as `/path message`.",
    params: [{ name: 'schema', type: 'StandardSchemaV1' }],
    returns: 'z.ZodType<T>',
    body: [
      'return z.custom<T>().superRefine((value) => {',
      "  const { issues } = schema['~standard'].validate(value) as StandardSchemaV1Result<unknown>;",
      '  if (issues === undefined) return;',
      '  const problems = issues.map((issue) => {',
      "    const path = (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p));",
      "    return `/${path.join('/')} ${issue.message}`;",
      '  });',
      "  throw Object.assign(new Error(`Invalid params: ${problems.join(', ')}`), { code: -32602 });",
      '});',
    ],
  }),
];

/** A type name the statements mention (structures included): imported only then, as noUnusedLocals asks. */
const usedBy =
  (statements: readonly Statement[]) =>
  (name: string): boolean =>
    // Doc comments (a structure's docs, or /** … */ inside a type's text) mention names without using them.
    new RegExp(`\\b${name}\\b`).test(
      JSON.stringify(statements, (key, value: unknown) => (key === 'docs' ? undefined : value)).replace(
        /\/\*\*[\s\S]*?\*\//g,
        '',
      ),
    );

/** `anyOf`, `byResultType` and `complete`, where the result schema of a facade call uses them (sdk.ts keeps its own unexported). */
function combinators(model: ProtocolModel, calls: readonly MethodInfo[]): Statement[] {
  const schemas = calls.map((m) => resultSchemaOf(model, m)).join(' ');
  return [
    ...(schemas.includes('anyOf(') ? [{ ...ANY_OF, isExported: false }] : []),
    ...(schemas.includes('byResultType(') ? [{ ...BY_RESULT_TYPE, isExported: false }] : []),
    ...(schemas.includes('complete(') ? [{ ...COMPLETE, isExported: false }] : []),
  ];
}

export function sdkV1Statements(model: ProtocolModel, importExt: string): Statement[] {
  const methods = sdkMethods(model);
  const received = [...methods.serverReceives, ...methods.clientReceives];
  const calls = methods.clientCalls.length > 0;
  const maps = new Set([
    ...methods.serverReceives.map((m) => mapOf(m, 'client')),
    ...methods.clientReceives.map((m) => mapOf(m, 'server')),
    ...(calls || hasTaskAugmented(model, 'client') ? ['ClientRequests'] : []),
    // sdkServerV1's typed arrow takes a method of it where there are task-augmented requests.
    ...(hasTaskAugmented(model, 'server') ? ['ServerRequests'] : []),
  ]);
  const handlerTypes = [
    ...(methods.serverReceives.length ? ['ServerHandlers'] : []),
    ...(methods.clientReceives.length ? ['ClientHandlers'] : []),
  ];
  const body: Statement[] = [
    ...PREAMBLE,
    { ...MESSAGE, isExported: false },
    // The facade's result schemas, as sdk.ts builds them: its combinators where a vendor call needs one.
    ...combinators(model, methods.clientCalls),
    ...registerFunction(
      'registerServerHandlersV1',
      'ServerHandlers',
      'FROM_CLIENT',
      methods.serverReceives,
      'client',
      'server receives',
    ),
    ...registerFunction(
      'registerClientHandlersV1',
      'ClientHandlers',
      'FROM_SERVER',
      methods.clientReceives,
      'server',
      'client receives',
    ),
    facadeFunction(model, methods.clientCalls, V1_FACADE),
    requestFunction(model, V1_FACADE),
    ...serverSender(model, V1_FACADE),
  ];
  return [
    importDecl(false, { namespace: 'z' }, 'zod/v4'),
    ...(maps.size ? [importDecl(true, [...maps].sort(), `./maps${importExt}`)] : []),
    ...(calls || received.some((m) => paramsSchemaOf(m) !== undefined)
      ? [importDecl(false, { namespace: 'V' }, jsModuleSpecifier('validators', importExt))]
      : []),
    importDecl(true, ['StandardSchemaV1', 'StandardSchemaV1Result'], jsModuleSpecifier('validators', importExt)),
    // sdk.js, declared by sdk.d.ts (sdk-files.ts).
    importDecl(false, ['RESULT_SCHEMAS', 'SERVER_RESULT_SCHEMAS'], jsModuleSpecifier('sdk', importExt)),
    importDecl(
      true,
      ['OptionsOf', 'SdkClient', 'SdkRequest', 'SdkServer', ...handlerTypes].filter(usedBy(body)),
      jsModuleSpecifier('sdk', importExt),
    ),
    ...body,
  ];
}
