/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * Verified tokens, remembered by a SHA-256 of the token (never the token) until they expire, so a client's
 * next request with the same token costs a hash and a map lookup instead of a signature check or a round trip
 * to the authorization server. A token verified twice at once is verified once. Bounded: the entries used
 * longest ago go first. Node only (`node:crypto`).
 */
import { createHash } from 'node:crypto';
import type { AuthInfo } from '../../peer/auth-info.js';
import { RecentMap } from './recent-map.js';

/** The key a token is remembered by. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

interface Entry {
  readonly auth: AuthInfo;
  /** When (ms) it stops being good. */
  readonly until: number;
}

/** Bounded (recent-map.ts): the tokens used longest ago go first. */
export class VerifiedTokens {
  readonly #entries: RecentMap<string, Entry>;
  readonly #pending = new Map<string, Promise<AuthInfo>>();

  /** `max`: most tokens remembered at once (0: none). */
  constructor(max: number) {
    this.#entries = new RecentMap(max);
  }

  /** The identity of a token, from memory or from `verify` (remembered until it expires, when it says). */
  get(hash: string, verify: () => Promise<AuthInfo>): AuthInfo | Promise<AuthInfo> {
    const entry = this.#entries.get(hash);
    if (entry !== undefined) {
      if (entry.until > Date.now()) return entry.auth;
      this.#entries.delete(hash);
    }
    let pending = this.#pending.get(hash);
    if (pending === undefined) {
      pending = verify().then(
        (auth) => {
          this.#pending.delete(hash);
          this.#remember(hash, auth);
          return auth;
        },
        (error: unknown) => {
          this.#pending.delete(hash);
          throw error;
        },
      );
      this.#pending.set(hash, pending);
    }
    return pending;
  }

  /** Entries held (for tests and leak checks). */
  get size(): number {
    return this.#entries.size;
  }

  #remember(hash: string, auth: AuthInfo): void {
    // A token that does not say when it expires is verified again each time.
    if (auth.expiresAt === undefined) return;
    const until = auth.expiresAt * 1000;
    if (until <= Date.now()) return;
    this.#entries.set(hash, { auth, until });
  }
}
