/**
 * A handler's own requests to the client (`ctx.request`: sampling, elicitation, roots, an extension's) on the
 * generated server: one the client's capabilities do not allow is refused before it is sent, and one that fails
 * comes back to the handler as a NestedRequestError naming the method — not as the client's ProtocolError, which a
 * `tools/call` handler would otherwise pass on as the call's own error (a `tools/call` answered "Method not found"). A
 * handler that does not catch it: a tool answers `isError` with the message (tool-call.ts), any other handler
 * -32603; both are reported to `onHandlerError`.
 *
 * Hand-written runtime copied unchanged into generated output.
 */
import { isPlainObject } from '../core/jsonrpc.js';
import type { HandlerContext } from '../core/peer-types.js';
import { describe } from '../core/peer-messages.js';

/** The client capability each server→client request of the core protocol needs. */
const CAPABILITY_OF: { readonly [method: string]: string } = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/** A handler's request to the client that was refused before sending, or that the client failed. */
export class NestedRequestError extends Error {
  override readonly name = 'NestedRequestError';
  /** The client's error code, or the model's MissingRequiredClientCapabilityError code when never sent. */
  declare readonly code: number;
  declare readonly method: string;
  declare readonly data: unknown;

  constructor(method: string, code: number, message: string, options?: { cause?: unknown; data?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.method = method;
    this.code = code;
    this.data = options?.data;
  }
}

/**
 * Guards `ctx.request` for one handler call: `capabilities` are the client's (the session's, or the modern
 * request's own); `missingCode` the error code a refusal carries; `extensions` the extension id of each vendor
 * method (SEP-2133: a request of an extension goes only to a client that declared it).
 */
export function guardNestedRequests(
  ctx: HandlerContext,
  capabilities: unknown,
  missingCode: number,
  extensions: { readonly [method: string]: string } = {},
): void {
  const send = ctx.request as (method: string, params?: unknown, options?: unknown) => Promise<unknown>;
  (ctx as { request: unknown }).request = (method: string, params?: unknown, options?: unknown) => {
    const missing = missingCapability(method, capabilities, extensions);
    if (missing !== undefined) {
      const message = `${method} needs the client capability ${missing}, which the client did not declare: not sent`;
      return Promise.reject(new NestedRequestError(method, missingCode, message));
    }
    return send.call(ctx, method, params, options).catch((error: unknown) => {
      const { code, data } = error as { code?: unknown; data?: unknown };
      const message = `${method} failed${typeof code === 'number' ? ` with ${code}` : ''}: ${describe(error)}`;
      throw new NestedRequestError(method, typeof code === 'number' ? code : -32603, message, { cause: error, data });
    });
  };
}

/** The capability `method` needs that `capabilities` lacks (`"sampling"`, `extensions["acme/jobs"]`), or undefined. */
function missingCapability(
  method: string,
  capabilities: unknown,
  extensions: { readonly [method: string]: string },
): string | undefined {
  const caps = isPlainObject(capabilities) ? capabilities : {};
  const needed = Object.hasOwn(CAPABILITY_OF, method) ? CAPABILITY_OF[method] : undefined;
  if (needed !== undefined) return isPlainObject(caps[needed]) ? undefined : `"${needed}"`;
  const extension = Object.hasOwn(extensions, method) ? extensions[method] : undefined;
  if (extension === undefined) return undefined;
  const declared = isPlainObject(caps['extensions']) ? caps['extensions'][extension] : undefined;
  return isPlainObject(declared) ? undefined : `extensions["${extension}"]`;
}
