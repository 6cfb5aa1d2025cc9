/**
 * The identity a verified token grants (`AuthInfo`, what handlers read as `ctx.auth`), read from its claims:
 * a JWT access token's payload (RFC 9068 §2.2) or an introspection answer (RFC 7662 §2.2), which name the
 * same members. No `node:` imports.
 */
import type { AuthInfo } from '../../peer/auth-info.js';
import { InvalidTokenError } from './errors.js';

/** The identity of verified claims; a token that names nobody (no `sub`, no `client_id`) is refused. */
export function identityOf(claims: { readonly [claim: string]: unknown }): AuthInfo {
  const string = (name: string): string | undefined =>
    typeof claims[name] === 'string' && claims[name] !== '' ? claims[name] : undefined;
  const clientId = string('client_id');
  // RFC 9068 §2.2: for a client acting on its own behalf (client credentials), `sub` is the client.
  const subject = string('sub') ?? clientId;
  if (subject === undefined) throw new InvalidTokenError('the token names no subject (sub) and no client (client_id)');
  const aud = claims['aud'];
  const exp = claims['exp'];
  return {
    subject,
    clientId,
    scopes: scopesOf(claims),
    expiresAt: typeof exp === 'number' && Number.isFinite(exp) ? exp : undefined,
    audience: typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a) => typeof a === 'string') : [],
    issuer: string('iss'),
    claims: { ...claims },
  };
}

/** `scope` (space-separated, RFC 9068 and 7662), or the `scp` list some servers send instead. */
function scopesOf(claims: { readonly [claim: string]: unknown }): string[] {
  const scope = claims['scope'];
  if (typeof scope === 'string') return scope.split(' ').filter((s) => s !== '');
  const scp = claims['scp'];
  return Array.isArray(scp) ? scp.filter((s): s is string => typeof s === 'string') : [];
}
