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

/** The key a token is remembered by. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

interface Entry {
  readonly auth: AuthInfo;
  /** When (ms) it stops being good. */
  readonly until: number;
}

/**
 * Bounded in two generations (hashlru's scheme): entries go to `recent`; when it holds half the bound it
 * becomes `older` and the previous `older` is dropped; a token found in `older` moves back to `recent`. So what
 * goes first is what was used longest ago, at O(1) a token. (A single Map kept in use order, evicting its first
 * key, walked over every deleted slot ahead of that key: at 10,000 tokens, ~14 µs a new token.)
 */
export class VerifiedTokens {
  readonly #half: number;
  #recent = new Map<string, Entry>();
  #older = new Map<string, Entry>();
  readonly #pending = new Map<string, Promise<AuthInfo>>();

  /** `max`: most tokens remembered at once (0: none). */
  constructor(max: number) {
    this.#half = Math.max(0, Math.ceil(max / 2));
  }

  /** The identity of a token, from memory or from `verify` (remembered until it expires, when it says). */
  get(hash: string, verify: () => Promise<AuthInfo>): AuthInfo | Promise<AuthInfo> {
    const entry = this.#recent.get(hash) ?? this.#revive(hash);
    if (entry !== undefined) {
      if (entry.until > Date.now()) return entry.auth;
      this.#recent.delete(hash);
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
    return this.#recent.size + this.#older.size;
  }

  /** An entry of the older generation, moved back to the recent one. */
  #revive(hash: string): Entry | undefined {
    const entry = this.#older.get(hash);
    if (entry === undefined) return undefined;
    this.#older.delete(hash);
    this.#add(hash, entry);
    return entry;
  }

  #remember(hash: string, auth: AuthInfo): void {
    // A token that does not say when it expires is verified again each time.
    if (auth.expiresAt === undefined || this.#half === 0) return;
    const until = auth.expiresAt * 1000;
    if (until <= Date.now()) return;
    this.#older.delete(hash);
    this.#add(hash, { auth, until });
  }

  #add(hash: string, entry: Entry): void {
    this.#recent.set(hash, entry);
    if (this.#recent.size < this.#half) return;
    this.#older = this.#recent;
    this.#recent = new Map();
  }
}
