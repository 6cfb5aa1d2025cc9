/**
 * The log level of the generated server's handlers: log notifications a handler sends through
 * `ctx.notify('notifications/message', …)` are dropped below the level the client asked for — its
 * `logging/setLevel` before 2026-07-28, the request's own `logLevel` _meta key from then on (no key: no log
 * notifications for that request).
 *
 * Hand-written runtime copied unchanged into generated output.
 */
import { isPlainObject } from '../core/jsonrpc.js';
import type { HandlerContext } from '../core/peer-types.js';
import type { ProtocolDescription } from './protocol.js';

/** The levels of `notifications/message`, least severe first. */
export const LOG_LEVELS: readonly string[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** Wraps `ctx.notify` for one handler call; `sessionLevel` is the session's `logging/setLevel` (legacy). */
export function gateLogs(
  ctx: HandlerContext,
  protocol: ProtocolDescription,
  sessionLevel: string | undefined,
  params: unknown,
): void {
  let threshold: string | undefined;
  if (protocol.features.perRequestMeta) {
    const key = protocol.facts.metaKeys['logLevel'];
    const meta = isPlainObject(params) && isPlainObject(params['_meta']) ? params['_meta'] : undefined;
    const level = key === undefined ? undefined : meta?.[key];
    threshold = typeof level === 'string' ? level : 'none';
  } else threshold = sessionLevel;
  if (threshold === undefined) return;
  const minimum = LOG_LEVELS.indexOf(threshold);
  const notify = ctx.notify as (method: string, params?: unknown) => Promise<void>;
  (ctx as { notify: unknown }).notify = (method: string, notifyParams?: unknown): Promise<void> => {
    if (method === 'notifications/message') {
      const level = isPlainObject(notifyParams) ? notifyParams['level'] : undefined;
      const rank = typeof level === 'string' ? LOG_LEVELS.indexOf(level) : -1;
      if (minimum === -1 || rank < minimum) return Promise.resolve();
    }
    return notify.call(ctx, method, notifyParams);
  };
}
