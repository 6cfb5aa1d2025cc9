/**
 * The server's side of `Mcp-Param-*` (Streamable HTTP, 2026-07-28 on): the headers a tool's `x-mcp-header`
 * annotations ask for must match the call's arguments, checked against the definition the server itself
 * lists for the tool.
 *
 * Hand-written runtime copied unchanged into generated output.
 * Browser-safe: no `node:` imports.
 */
import { ErrorCode, ProtocolError, isPlainObject } from '../core/jsonrpc.js';
import type { HandlerContext } from '../core/peer.js';
import type { ProtocolDescription } from './protocol.js';
import { paramHeaderMismatch, paramHeaderRules } from './http-headers.js';

type JsonObject = { [key: string]: unknown };
type ListTools = (params: JsonObject, ctx: HandlerContext) => unknown;

/**
 * Undefined when there is nothing to check (not over HTTP, no `tools/list` handler, no tool name): the caller
 * then goes on without awaiting anything. Otherwise resolves when the headers match, and rejects with the
 * version's header-mismatch error when they do not.
 */
export function checkParamHeaders(
  handlers: { readonly [method: string]: unknown },
  protocol: ProtocolDescription,
  params: unknown,
  ctx: HandlerContext,
): Promise<void> | undefined {
  const headers = ctx.extra?.requestInfo?.headers;
  const list = handlers['tools/list'];
  if (headers === undefined || typeof list !== 'function') return undefined;
  const name = isPlainObject(params) ? params['name'] : undefined;
  if (typeof name !== 'string') return undefined;
  const header = (key: string): string | undefined => {
    const value = headers[key];
    return Array.isArray(value) ? value[0] : value;
  };
  const code = protocol.facts.errorCodes['HeaderMismatchError'] ?? ErrorCode.InvalidRequest;
  const args = isPlainObject(params) ? params['arguments'] : undefined;
  return findTool(list as ListTools, name, ctx).then((tool) => {
    if (tool === undefined) return;
    const rules = paramHeaderRules(tool['inputSchema']);
    if (!rules.ok) return;
    const mismatch = paramHeaderMismatch(rules.rules, args, header);
    if (mismatch !== undefined) throw new ProtocolError(code, `Header mismatch: ${mismatch}`);
  });
}

/** The tool's definition as the server lists it, page by page. */
async function findTool(list: ListTools, name: string, ctx: HandlerContext): Promise<JsonObject | undefined> {
  let cursor: string | undefined;
  do {
    const page = (await list(cursor === undefined ? {} : { cursor }, ctx)) as JsonObject | undefined;
    const tools: unknown[] = Array.isArray(page?.['tools']) ? page['tools'] : [];
    const tool = tools.find((t) => isPlainObject(t) && t['name'] === name);
    if (tool !== undefined) return tool as JsonObject;
    cursor = typeof page?.['nextCursor'] === 'string' ? page['nextCursor'] : undefined;
  } while (cursor !== undefined);
  return undefined;
}
