/**
 * Which scopes a POSTed body needs: the ones every request needs, those of each message's method, and for
 * `tools/call` those of the tool it names. A batch (2025-03-26) needs every member's. No `node:` imports.
 */
import { isPlainObject } from '../../core/jsonrpc.js';
import type { AuthSettings } from './options.js';

type ScopeRules = Pick<AuthSettings, 'scopes' | 'methodScopes' | 'toolScopes'>;

/** The scopes `body` (one message or a batch, as parsed) needs, the gate's own first; no duplicates. */
export function scopesNeeded(rules: ScopeRules, body: unknown): string[] {
  const needed = new Set(rules.scopes);
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!isPlainObject(message) || typeof message['method'] !== 'string') continue;
    const method = message['method'];
    for (const scope of listed(rules.methodScopes, method)) needed.add(scope);
    const params = message['params'];
    if (method === 'tools/call' && isPlainObject(params) && typeof params['name'] === 'string') {
      for (const scope of listed(rules.toolScopes, params['name'])) needed.add(scope);
    }
  }
  return [...needed];
}

/** The scopes of `granted` missing from `needed`. */
export function missingScopes(needed: readonly string[], granted: readonly string[]): string[] {
  return needed.filter((scope) => !granted.includes(scope));
}

/** A table's own entry (a method named `constructor` finds nothing inherited). */
function listed(table: { readonly [name: string]: readonly string[] | undefined }, name: string): readonly string[] {
  return Object.hasOwn(table, name) ? (table[name] ?? []) : [];
}
