/**
 * sdk-results.ts: the result schemas sdk.ts passes the SDK, and what makes a result reach the caller as the
 * generated types say where the SDK v2 client (2.4) would read it otherwise:
 * - on 2026-07-28 it takes `resultType: "complete"` off a result before the result schema sees it;
 *   `complete(schema)` puts it back (a result without it is complete: the spec's rule for older servers too);
 * - it refuses a result kind an extension adds (`resultType: "task"`, the tasks extension's answer to
 *   `tools/call`) with UNSUPPORTED_RESULT_TYPE: the adapter reads that result off the client's transport and
 *   checks it with the generated validator instead (`extensionRequest`);
 * - a task-augmented request (2025-11-25) sent with `params.task` is answered with its `taskResult` (SDK v1's
 *   own tasks): its result schema accepts both.
 */
import type { MethodInfo, ProtocolModel } from '../../model/types.js';
import { withDiscriminant } from '../client-server/server.js';
import type { Statement } from '../shared/ts-project.js';
import { requesting } from './sdk-helpers.js';
import { constDecl, functionDecl, typeAlias } from '../shared/ts-structures.js';
import { arrayLiteral, call, objectLiteral, objectType, str, union, type Prop } from '../shared/ts-text.js';

/** The result kinds the SDK v2 client decodes itself; any other `resultType` it refuses. */
const SDK_RESULT_TYPES: readonly string[] = ['complete', 'input_required'];

/** A result of `m` carries `resultType: "complete"`, which the SDK v2 client takes off (2026-07-28 on). */
const completes = (model: ProtocolModel, m: MethodInfo): boolean =>
  model.facts.resultDefaults[m.method]?.['resultType'] === 'complete';

/**
 * The `resultType` of each of `m`'s results, where an extension told them apart by it (`tools/call`: complete,
 * task, input_required); undefined unless every result has one.
 */
function resultTypes(m: MethodInfo): [string, string][] | undefined {
  const results = m.result ?? [];
  if (m.discriminants === undefined || m.taskResult !== undefined || results.length < 2) return undefined;
  const rows = results.map((r): [string, unknown] => [r, m.discriminants?.[r]?.['resultType']]);
  return rows.every((row): row is [string, string] => typeof row[1] === 'string') ? rows : undefined;
}

/**
 * The results a request may answer with: one validator, a union of them (`anyOf`), or, told apart by
 * `resultType`, the one its `resultType` names (`byResultType`); made complete.
 */
export function resultSchemaOf(model: ProtocolModel, m: MethodInfo): string {
  const results = [...(m.result ?? []), ...(m.taskResult !== undefined ? [m.taskResult] : [])];
  const kinds = resultTypes(m);
  // Annotated pure: a bundle that never reads the table the call sits in drops it, and the validators it names.
  const schema =
    kinds !== undefined
      ? `/* @__PURE__ */ ${call('byResultType', objectLiteral(kinds.map(([r, kind]) => ({ name: kind, value: `V.${r}` }))))}`
      : results.length === 1
        ? `V.${results[0]}`
        : results.length === 0
          ? 'V.Result'
          : `/* @__PURE__ */ ${call('anyOf', ...results.map((r) => `V.${r}`))}`;
  return completes(model, m) ? `/* @__PURE__ */ ${call('complete', schema)}` : schema;
}

const requestSchemas = (model: ProtocolModel): string =>
  model.methods
    .filter((m) => m.kind === 'request')
    .map((m) => resultSchemaOf(model, m))
    .join(' ');

/** Some result schema is a union (`anyOf` is emitted). */
export const usesAnyOf = (model: ProtocolModel): boolean => requestSchemas(model).includes('anyOf(');

/** Some result schema is told apart by `resultType` (`byResultType` is emitted). */
export const usesByResultType = (model: ProtocolModel): boolean => requestSchemas(model).includes('byResultType(');

/** Some result schema is made complete (`complete` is emitted). */
export const usesComplete = (model: ProtocolModel): boolean =>
  model.methods.some((m) => m.kind === 'request' && completes(model, m));

/**
 * `byResultType({ complete: V.CallToolResult, task: V.CreateTaskResult, … })`: a result checked by the variant
 * its `resultType` names, never by another that happens to accept it. A task result that reached the client
 * as complete (a legacy-era session's SDK takes `resultType` off) is then refused, not passed on as some
 * other variant.
 */
export const BY_RESULT_TYPE = functionDecl({
  name: 'byResultType',
  params: [{ name: 'variants', type: 'Readonly<Record<string, StandardSchemaV1>>' }],
  returns: 'StandardSchemaV1',
  body: [
    'const validate = (value: unknown): StandardSchemaV1Result<unknown> => {',
    "  const kind = typeof value === 'object' && value !== null ? (value as { resultType?: unknown }).resultType : undefined;",
    "  const schema = typeof kind === 'string' && Object.hasOwn(variants, kind) ? variants[kind] : undefined;",
    "  if (schema !== undefined) return schema['~standard'].validate(value) as StandardSchemaV1Result<unknown>;",
    "  const message = `resultType must be one of ${Object.keys(variants).join(', ')}`;",
    "  return { issues: [{ message, path: ['resultType'] }] };",
    '};',
    "return { '~standard': { version: 1, vendor: 'mcp-typegen', validate } };",
  ],
});

/** The `resultType`s of each request's results that the SDK v2 client refuses: those an extension adds. */
export function refusedResultTypes(model: ProtocolModel): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const m of model.methods) {
    const kinds = Object.values(m.discriminants ?? {})
      .map((d) => d['resultType'])
      .filter((k): k is string => typeof k === 'string' && !SDK_RESULT_TYPES.includes(k));
    if (kinds.length > 0) out[m.method] = [...new Set(kinds)].sort();
  }
  return out;
}

/** The requests the client sends that an extension added result variants to (`tools/call` → CreateTaskResult). */
export const extendedRequests = (model: ProtocolModel): MethodInfo[] =>
  model.methods.filter((m) => m.discriminants !== undefined && m.directions.includes('client->server'));

/**
 * `ExtendedResults`: the results of each request an extension added variants to, pinned to their `resultType`
 * so a check of it narrows: as the caller gets them (an input-required round is the SDK's to run, and
 * `complete` puts a taken-off `resultType` back), and as a handler returns them (the SDK stamps `complete`).
 */
export function extendedResultsType(model: ProtocolModel): Statement[] {
  const rows = extendedRequests(model).map((m) => {
    const variants = (defaults: Readonly<Record<string, unknown>>, input: boolean) =>
      union(
        (m.result ?? [])
          .filter((r) => input || r !== 'InputRequiredResult')
          .map((r) => withDiscriminant(`T.${r}`, m.discriminants?.[r], defaults)),
      );
    const fields = objectType([
      { name: 'caller', type: variants({}, false) },
      { name: 'handler', type: variants(model.facts.resultDefaults[m.method] ?? {}, true) },
    ]);
    return { name: m.method, type: fields };
  });
  if (rows.length === 0) return [];
  const doc =
    "The results of each request an extension added variants to, told apart by `resultType`: as `sdkRequest` resolves to them (an input-required round is the SDK's), and as a handler returns them.";
  return [typeAlias('ExtendedResults', objectType(rows, true), doc)];
}

/** `complete(schema)`: a result the SDK left without its `resultType` is checked (and returned) as complete. */
export const COMPLETE = functionDecl({
  name: 'complete',
  params: [{ name: 'schema', type: 'StandardSchemaV1' }],
  returns: 'StandardSchemaV1',
  body: [
    'const validate = (value: unknown) =>',
    "  schema['~standard'].validate(",
    "    typeof value === 'object' && value !== null && !('resultType' in value) ? { ...value, resultType: 'complete' } : value,",
    '  );',
    "return { '~standard': { version: 1, vendor: 'mcp-typegen', validate } };",
  ],
});

/** What the adapter taps of an SDK transport, as the SDK declares it. */
export const SDK_TRANSPORT = typeAlias(
  'SdkTransport',
  objectType(
    [
      { name: 'send', type: '(message: any, options?: any) => Promise<void>' },
      { name: 'onmessage', type: '((message: any, extra?: any) => void) | undefined', optional: true },
    ],
    true,
  ),
  'The part of an SDK v2 `Transport` the adapter taps for a result kind the SDK refuses: `send` and `onmessage`.',
);

/** The tap: per transport, the ids of the adapter's requests whose results the SDK may refuse, and those results. */
function tapStatements(): Statement[] {
  const tapType = objectType(
    [
      { name: 'sending', type: '((message: any) => void) | undefined', optional: true },
      { name: 'results', type: 'Map<unknown, unknown>' },
      { name: 'receive', type: '(message: any, extra?: any) => void' },
    ],
    true,
  );
  return [
    { ...typeAlias('WireTap', tapType), isExported: false },
    constDecl('TAPS', 'new WeakMap<SdkTransport, WireTap>()', { exported: false }),
    {
      ...functionDecl({
        name: 'tapOf',
        doc: "A transport's tap, put between it and the SDK once (again after a connect replaced `onmessage`).",
        params: [{ name: 'transport', type: 'SdkTransport' }],
        returns: 'WireTap',
        body: [
          'const installed = TAPS.get(transport);',
          'if (installed !== undefined && transport.onmessage === installed.receive) return installed;',
          'const inner = transport.onmessage;',
          'const tap: WireTap = {',
          '  results: new Map(),',
          '  receive: (message, extra) => {',
          "    if (typeof message === 'object' && message !== null && 'result' in message && tap.results.has(message.id))",
          '      tap.results.set(message.id, message.result);',
          '    inner?.(message, extra);',
          '  },',
          '};',
          'if (installed === undefined) {',
          '  const send = transport.send.bind(transport);',
          '  transport.send = (message, options) => {',
          '    TAPS.get(transport)?.sending?.(message);',
          '    return send(message, options);',
          '  };',
          '}',
          'transport.onmessage = tap.receive;',
          'TAPS.set(transport, tap);',
          'return tap;',
        ],
      }),
      isExported: false,
    },
  ];
}

/** `extensionRequest(client, request, schema, options)`: `client.request`, keeping the result kinds the SDK refuses. */
const EXTENSION_REQUEST: Statement = {
  ...functionDecl({
    name: 'extensionRequest<C extends SdkRequester>',
    doc: '`client.request`; a result of a kind an extension adds, which the SDK refuses, is read off the wire instead and checked by the generated validator.',
    params: [
      { name: 'client', type: 'C' },
      { name: 'request', type: '{ method: string; params?: Record<string, unknown> }' },
      { name: 'schema', type: 'StandardSchemaV1' },
      { name: 'options', type: 'OptionsOf<C> | undefined' },
    ],
    returns: 'Promise<unknown>',
    body: [
      'const kinds = EXTENSION_RESULT_TYPES[request.method];',
      'const transport = client.transport;',
      `if (kinds === undefined || transport === undefined) return ${requesting('client')}.request(request, schema, options);`,
      'const tap = tapOf(transport);',
      'let id: unknown;',
      // The SDK sends before `request` returns: the one message of this method sent meanwhile is ours.
      'tap.sending = (message) => {',
      '  if (id !== undefined || message?.method !== request.method) return;',
      '  id = message.id;',
      '  tap.results.set(id, undefined);',
      '};',
      'let pending: Promise<unknown>;',
      'try {',
      `  pending = ${requesting('client')}.request(request, schema, options);`,
      '} finally {',
      '  tap.sending = undefined;',
      '}',
      'const take = () => {',
      '  const result = tap.results.get(id);',
      '  tap.results.delete(id);',
      '  return result as { resultType?: unknown } | undefined;',
      '};',
      // A kind only an extension's era has, read by the SDK as something else (a legacy-era session takes
      // `resultType` off): the session cannot carry it, so it is an error rather than a mistyped value.
      'const uncarried = (kind: string) =>',
      '  new Error(',
      '    `${request.method}: answered with resultType "${kind}", which this session cannot carry (the SDK reads results of its protocol version as complete)`,',
      '  );',
      'return pending.then(',
      '  (value) => {',
      '    const result = take();',
      "    if (typeof result?.resultType === 'string' && kinds.includes(result.resultType)) throw uncarried(result.resultType);",
      '    return value;',
      '  },',
      '  (error: unknown) => {',
      '    const result = take();',
      "    if (typeof result?.resultType !== 'string' || !kinds.includes(result.resultType)) throw error;",
      // Only the SDK's own refusal of the kind (2026-07-28 on) leaves the result to the adapter.
      "    if ((error as { code?: unknown } | null)?.code !== 'UNSUPPORTED_RESULT_TYPE') throw uncarried(result.resultType);",
      "    const checked = schema['~standard'].validate(result) as StandardSchemaV1Result<unknown>;",
      '    if (checked.issues === undefined) return checked.value;',
      '    throw new Error(`Invalid result for ${request.method}: ${checked.issues.map((i) => i.message).join("; ")}`);',
      '  },',
      ');',
    ],
  }),
  isExported: false,
};

/** The kinds the SDK refuses, by method, the tap, and `extensionRequest`. */
function extensionRequest(refused: Record<string, string[]>): Statement[] {
  const rows = Object.entries(refused).map(([method, kinds]): Prop => ({
    name: method,
    value: arrayLiteral(kinds.map((k) => str(k))),
  }));
  return [
    constDecl('EXTENSION_RESULT_TYPES', objectLiteral(rows, true), {
      exported: false,
      type: '{ readonly [method: string]: readonly string[] | undefined }',
      doc: "The `resultType`s an extension adds to a request's results, which the SDK v2 client refuses (UNSUPPORTED_RESULT_TYPE).",
    }),
    ...tapStatements(),
    EXTENSION_REQUEST,
  ];
}

/** What sdk.ts adds for the result kinds the SDK v2 client refuses; none when no extension adds one. */
export function extensionResultStatements(model: ProtocolModel): Statement[] {
  const refused = refusedResultTypes(model);
  return Object.keys(refused).length === 0 ? [] : [SDK_TRANSPORT, ...extensionRequest(refused)];
}
