/**
 * Which `_meta` a request's params carry. From 2026-07-28 on a request's `_meta` is the client's envelope
 * (`RequestMetaObject`: protocol version and client capabilities, required), which a request sent only by a
 * server or a channel's host (MCP Apps' `ui/resource-teardown`) does not carry: its `_meta` is the plain
 * `MetaObject`. Before 2026-07-28 one request `_meta` fits every sender.
 */
import { isObject } from '../load/schema.js';
import type { JsonSchema } from '../load/schema-types.js';
import type { MethodInfo } from './types.js';

/**
 * The `_meta` schema of `m`'s params where it differs from the version's request `_meta` (a `$ref` to
 * MetaObject); undefined where the base message's `_meta` applies.
 */
export function ownRequestMeta(
  definitions: Readonly<Record<string, unknown>>,
  defsKeyword: string,
  m: Pick<MethodInfo, 'kind' | 'directions'>,
): JsonSchema | undefined {
  if (m.kind !== 'request' || m.directions.includes('client->server')) return undefined;
  if (!isObject(definitions.RequestMetaObject) || !isObject(definitions.MetaObject)) return undefined;
  return { $ref: `#/${defsKeyword}/MetaObject` };
}
