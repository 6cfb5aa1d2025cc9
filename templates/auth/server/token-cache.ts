/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * Verified tokens, remembered by a SHA-256 of the token (never the token) until they expire, so a client's
 * next request with the same token costs a hash and a map lookup instead of a signature check or a round trip
 * to the authorization server. A token verified twice at once is verified once. Bounded: the entry used
 * longest ago goes first. Node only (`node:crypto`).
 */
import { createHash } from 'node:crypto';
import type { AuthInfo } from '../../peer/auth-info.js';

/** The key a token is remembered by. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export class VerifiedTokens {
  readonly #max: number;
  /** Hash → identity and the time (ms) it stops being good; Map order is use order. */
  readonly #entries = new Map<string, { auth: AuthInfo; until: number }>();
  readonly #pending = new Map<string, Promise<AuthInfo>>();

  constructor(max: number) {
    this.#max = max;
  }

  /** The identity of a token, from memory or from `verify` (remembered until it expires, when it says). */
  get(hash: string, verify: () => Promise<AuthInfo>): AuthInfo | Promise<AuthInfo> {
    const entry = this.#entries.get(hash);
    if (entry !== undefined) {
      this.#entries.delete(hash);
      if (entry.until > Date.now()) {
        this.#entries.set(hash, entry);
        return entry.auth;
      }
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
    if (auth.expiresAt === undefined || this.#max <= 0) return;
    const until = auth.expiresAt * 1000;
    if (until <= Date.now()) return;
    if (this.#entries.size >= this.#max) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(hash, { auth, until });
  }
}
