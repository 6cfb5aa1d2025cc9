/// <reference types="node" preserve="true" />
// Node's types, referenced here so the declarations work in projects whose `types` leaves Node out (TS 6+ default).
/**
 * DPoP proofs (RFC 9449 §4.3, §7.1) for the gate's `dpop` option, checked on every request with a DPoP-bound
 * token: a `dpop+jwt` signed by the public key in its header, that key the token's `cnf.jkt`, `htm` and `htu`
 * this request's, `iat` recent, `ath` the token's hash, `jti` never seen before (within the `iat` window), and
 * — with nonces on — the server's current nonce (§9).
 *
 * oauth4webapi checks a proof only inside `validateJwtAccessToken`, together with a JWT access token it
 * verifies again; an introspected token's proof, or a cached token's, needs a proof check of its own. A client
 * signs every proof with one key under one header, so the header's text finds what was made for that key once:
 * jose imports the key and works out its thumbprint, fast-jwt's verifier checks each proof with `node:crypto`'s
 * synchronous verify (jose's WebCrypto, through Node's thread pool, cost more than twice as much a request).
 * Node only (`node:crypto`).
 */
import { Buffer } from 'node:buffer';
import { createHash, createHmac, KeyObject, randomBytes } from 'node:crypto';
import { createVerifier, type Algorithm } from 'fast-jwt';
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { asymmetricAlgorithms } from './algorithms.js';
import { InvalidDpopProofError, UseDpopNonceError } from './errors.js';
import { RecentMap } from './recent-map.js';
import type { DpopProofChecker, TokenRequest } from './options.js';

export interface DpopProofOptions {
  /**
   * Proof signing algorithms accepted, of RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512 and EdDSA.
   * Default ES256, ES384, EdDSA, RS256, PS256.
   */
  algorithms?: readonly string[];
  /** Refuse Bearer tokens: every token must be DPoP-bound. Default false. */
  required?: boolean;
  /** How far a proof's `iat` may be from now, in seconds (and how long its `jti` is remembered). Default 300. */
  maxAgeSeconds?: number;
  /**
   * Server nonces (RFC 9449 §9): a proof must carry the current one (given in `DPoP-Nonce`), which limits
   * how long a stolen proof is any use. `secret` makes every node of a cluster give the same nonces (default
   * random, this process only); a nonce lasts `rotateSeconds` (default 300) and is accepted one period more.
   */
  nonce?: boolean | { secret?: string; rotateSeconds?: number };
}

const ALGORITHMS = ['ES256', 'ES384', 'EdDSA', 'RS256', 'PS256'];
/** Proof keys remembered at once (one a client, the ones used longest ago going first). */
const PROOF_KEYS = 1000;

type Claims = { readonly [claim: string]: unknown };
/** What a proof key needs made once: its thumbprint, and the check of the proofs it signs. */
interface ProofKey {
  readonly jkt: string;
  /** fast-jwt's verifier: the proof's claims, or a TokenError thrown. */
  readonly check: (proof: string) => Claims;
}

/** The DPoP proof check: `auth: { dpop: dpopProofs({ nonce: true }), … }`. */
export function dpopProofs(options: DpopProofOptions = {}): DpopProofChecker {
  const algorithms = asymmetricAlgorithms(options.algorithms ?? ALGORITHMS, 'dpopProofs');
  const keys = new RecentMap<string, ProofKey>(PROOF_KEYS);
  const maxAge = options.maxAgeSeconds ?? 300;
  const seen = new SeenIds();
  const nonces = options.nonce === undefined || options.nonce === false ? undefined : new Nonces(options.nonce);
  const checker: DpopProofChecker = {
    algorithms,
    required: options.required === true,
    async check(proof: string | undefined, jkt: string, token: string, request: TokenRequest): Promise<void> {
      if (proof === undefined) throw new InvalidDpopProofError('the request carries no DPoP proof');
      const claims = await verifiedProof(proof, jkt, algorithms, keys);
      checkBinding(claims, token, request, maxAge);
      if (nonces !== undefined && !nonces.accepts(claims['nonce'])) throw new UseDpopNonceError(nonces.current());
      if (
        !seen.add(
          createHash('sha256')
            .update(`${jkt}.${String(claims['jti'])}`)
            .digest('base64url'),
          maxAge,
        )
      ) {
        throw new InvalidDpopProofError('the DPoP proof was used before (jti)');
      }
    },
  };
  if (nonces !== undefined) checker.nonce = () => nonces.current();
  return checker;
}

/** The proof's claims, once its signature checks against the key in its header and that key is `jkt`. */
async function verifiedProof(
  proof: string,
  jkt: string,
  algorithms: readonly Algorithm[],
  keys: RecentMap<string, ProofKey>,
): Promise<Claims> {
  try {
    const header = proof.slice(0, Math.max(0, proof.indexOf('.')));
    let key = keys.get(header);
    if (key === undefined) {
      key = await proofKey(proof, algorithms);
      keys.set(header, key);
    }
    if (key.jkt !== jkt) {
      throw new InvalidDpopProofError('the DPoP proof is signed with another key than the token is bound to');
    }
    return key.check(proof);
  } catch (error) {
    if (error instanceof InvalidDpopProofError) throw error;
    throw new InvalidDpopProofError(`the DPoP proof is not valid: ${error instanceof Error ? error.message : ''}`);
  }
}

/** The key a proof's header carries (`jwk`, a public key, RFC 9449 §4.2), for an algorithm accepted here. */
async function proofKey(proof: string, algorithms: readonly Algorithm[]): Promise<ProofKey> {
  const header = decodeProtectedHeader(proof);
  const alg = algorithms.find((a) => a === header.alg);
  if (alg === undefined) throw new InvalidDpopProofError("the DPoP proof's algorithm is not one this server accepts");
  const jwk = header.jwk;
  if (typeof jwk !== 'object' || jwk === null) throw new InvalidDpopProofError('the DPoP proof carries no key (jwk)');
  const key = await importJWK(jwk, alg);
  if (key instanceof Uint8Array || key.type !== 'public') {
    throw new InvalidDpopProofError("the DPoP proof's key (jwk) is not a public key");
  }
  const check = createVerifier({
    key: KeyObject.from(key).export({ type: 'spki', format: 'pem' }) as string,
    algorithms: [alg],
    checkTyp: 'dpop+jwt',
  }) as ProofKey['check'];
  return { jkt: await calculateJwkThumbprint(jwk as JWK), check };
}

/** The claims that tie a proof to this request and token: `htm`, `htu`, `iat`, `ath`, `jti`. */
function checkBinding(claims: Claims, token: string, request: TokenRequest, maxAge: number): void {
  const wrong = (what: string): never => {
    throw new InvalidDpopProofError(`the DPoP proof's ${what}`);
  };
  if (claims['htm'] !== request.method) wrong("htm is not this request's method");
  if (typeof claims['htu'] !== 'string' || withoutQuery(claims['htu']) !== withoutQuery(request.url)) {
    wrong("htu is not this request's URL");
  }
  const iat = claims['iat'];
  if (typeof iat !== 'number' || Math.abs(Date.now() / 1000 - iat) > maxAge) wrong('iat is not recent');
  if (claims['ath'] !== createHash('sha256').update(token).digest('base64url')) wrong("ath is not the token's hash");
  if (typeof claims['jti'] !== 'string' || claims['jti'] === '') wrong('jti is missing');
}

/** A URL without query and fragment (RFC 9449 §4.3: `htu` leaves them out), or '' for one that is not a URL. */
function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin + parsed.pathname;
  } catch {
    return '';
  }
}

/** Proof ids seen within their `iat` window: a second use is a replay. */
class SeenIds {
  readonly #until = new Map<string, number>();
  #swept = Date.now();

  /** False when `id` was seen (and has not expired since). */
  add(id: string, maxAge: number): boolean {
    const now = Date.now();
    if (now - this.#swept > 10_000) this.#sweep(now);
    const until = this.#until.get(id);
    if (until !== undefined && until > now) return false;
    // Remembered as long as a proof with its iat is accepted at all.
    this.#until.set(id, now + 2 * maxAge * 1000);
    return true;
  }

  #sweep(now: number): void {
    this.#swept = now;
    for (const [id, until] of this.#until) if (until <= now) this.#until.delete(id);
  }
}

/** Nonces made from a secret and the current period: the same on every node that shares the secret. */
class Nonces {
  readonly #secret: Buffer;
  readonly #periodMs: number;

  constructor(options: true | { secret?: string; rotateSeconds?: number }) {
    const given = options === true ? undefined : options;
    this.#secret = given?.secret !== undefined ? Buffer.from(given.secret) : randomBytes(32);
    this.#periodMs = (given?.rotateSeconds ?? 300) * 1000;
  }

  current(): string {
    return this.#of(Math.floor(Date.now() / this.#periodMs));
  }

  /** The current nonce, or the one before (a client that just got it). */
  accepts(nonce: unknown): boolean {
    const period = Math.floor(Date.now() / this.#periodMs);
    return typeof nonce === 'string' && (nonce === this.#of(period) || nonce === this.#of(period - 1));
  }

  #of(period: number): string {
    return createHmac('sha256', this.#secret).update(String(period)).digest('base64url').slice(0, 32);
  }
}
