/**
 * Running a `tools/call` handler: one that throws answers with an `isError` result carrying the message —
 * what a model needs to see and correct its call. A ProtocolError (or an aborted call) still answers with a
 * JSON-RPC error. Synchronous for a handler that returns its result directly.
 *
 * Hand-written runtime copied unchanged into generated output. Browser-safe.
 */
import { PROTOCOL_ERROR_NAMES, ProtocolError } from '../core/jsonrpc.js';
import type { HandlerContext, PeerOptions } from '../core/peer.js';
import { isThenable } from '../core/peer-messages.js';

type ToolHandler = (params: unknown, ctx: HandlerContext) => unknown;
type OnHandlerError = PeerOptions['onHandlerError'];

export function callTool(handler: ToolHandler, params: unknown, ctx: HandlerContext, onError: OnHandlerError): unknown {
  let result: unknown;
  try {
    result = handler(params, ctx);
  } catch (error) {
    return toolError(error, ctx, onError);
  }
  return isThenable(result)
    ? Promise.resolve(result).catch((error: unknown) => toolError(error, ctx, onError))
    : result;
}

function toolError(error: unknown, ctx: HandlerContext, onError: OnHandlerError): { [key: string]: unknown } {
  if (error instanceof ProtocolError || (error instanceof Error && PROTOCOL_ERROR_NAMES.includes(error.name)))
    throw error;
  if (ctx.signal.aborted) throw error;
  onError?.(error, { method: 'tools/call', id: ctx.id });
  const text = error instanceof Error ? error.message : String(error);
  return { content: [{ type: 'text', text }], isError: true };
}
