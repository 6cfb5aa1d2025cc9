/**
 * sdk-lifted.ts: the fields the SDK v2 (2.4) lifts off every client request's params on 2026-07-28 before
 * a handler or its params schema sees them — the multi-round-trip retry fields `inputResponses` and
 * `requestState`, into `ctx.mcpReq` — which a vendor method may declare as its own params (`tasks/update`
 * answers a task's input requests in `inputResponses`). Such a method is registered with its params taken as
 * they come, and its handler wrapped: the fields put back from `ctx.mcpReq`, then the params checked by the
 * generated validator, a failure answered -32602 with the validator's message and path, as the SDK answers
 * its own check.
 */
import type { MethodInfo, ProtocolModel } from '../../model/types.js';
import { resultShape } from '../../model/protocol-facts.js';
import { paramsSchema } from '../client-server/client.js';
import type { Statement } from '../shared/ts-project.js';
import { functionDecl } from '../shared/ts-structures.js';
import { call, str } from '../shared/ts-text.js';

/** What the SDK v2 lifts off a request's params on 2026-07-28 (its `RETRY_PARAMS_KEYS`). */
const LIFTED_FIELDS: readonly string[] = ['inputResponses', 'requestState'];

/** A received vendor request whose params declare a field the SDK lifts: on a 2026-07-28 model only. */
export function liftsParams(model: ProtocolModel, m: MethodInfo): boolean {
  // A spec request's retry fields are the SDK's own (its multi-round-trip requests): only a vendor's are put back.
  if (!model.features.perRequestMeta || m.kind !== 'request' || m.params === null || m.source === 'mcp') return false;
  const { properties } = resultShape(paramsSchema(model, m), model.definitions);
  return LIFTED_FIELDS.some((field) => properties.has(field));
}

/** The handler argument of a registration: wrapped where the SDK lifts some of its params. */
export const liftedHandler = (m: MethodInfo, schema: string, handler: string): string =>
  call('withLiftedFields', str(m.method), schema, handler);

/** `withLiftedFields(method, schema, handler)`; a failed check is answered with the model's InvalidParams code. */
export const withLiftedFields = (model: ProtocolModel): Statement => ({
  ...functionDecl({
    name: 'withLiftedFields',
    doc: 'A handler whose params declare a field the SDK v2 lifts off every request on 2026-07-28 (`inputResponses`, `requestState`): the field put back from `ctx.mcpReq`, then the params checked by the generated validator.',
    params: [
      { name: 'method', type: 'string' },
      { name: 'schema', type: 'StandardSchemaV1' },
      { name: 'handler', type: '(params: any, ctx: any) => unknown' },
    ],
    returns: '(params: Record<string, unknown>, ctx: any) => unknown',
    body: [
      'return (params, ctx) => {',
      '  const sent: Record<string, unknown> = { ...params };',
      '  const inputResponses: unknown = ctx?.mcpReq?.inputResponses;',
      "  const requestState: unknown = typeof ctx?.mcpReq?.requestState === 'function' ? ctx.mcpReq.requestState() : undefined;",
      "  if (inputResponses !== undefined) sent['inputResponses'] = inputResponses;",
      "  if (requestState !== undefined) sent['requestState'] = requestState;",
      "  const checked = schema['~standard'].validate(sent) as StandardSchemaV1Result<unknown>;",
      '  if (checked.issues === undefined) return handler(checked.value, ctx);',
      '  const issues = checked.issues.map((i) =>',
      "    i.path?.length ? `${i.path.map((p) => String(typeof p === 'object' ? p.key : p)).join('.')}: ${i.message}` : i.message,",
      '  );',
      // The SDK answers a thrown error with its `code`: InvalidParams, as it answers its own params check.
      `  throw Object.assign(new Error(\`Invalid params for \${method}: \${issues.join(', ')}\`), { code: ${model.facts.errorCodes['InvalidParamsError'] ?? -32602} });`,
      '};',
    ],
  }),
  isExported: false,
});
