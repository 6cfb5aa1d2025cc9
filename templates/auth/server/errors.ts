/**
 * Why the resource-server gate refuses a token (auth/server/gate.ts): what a verifier or the DPoP proof check
 * throws, each answered with its own challenge. No message ever holds the token: it would end up in logs.
 * Node only (the gate is a Node server's); no library imports.
 */

/** The token is not good here (unknown, expired, for another audience or issuer, badly signed): 401 `invalid_token`. */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}

/** The DPoP proof is missing or wrong (RFC 9449 §7.1): 401 with `DPoP error="invalid_dpop_proof"`. */
export class InvalidDpopProofError extends Error {
  override readonly name = 'InvalidDpopProofError';
}

/** The DPoP proof lacks the server's current nonce (RFC 9449 §9): 401 `use_dpop_nonce`, with the nonce to use. */
export class UseDpopNonceError extends Error {
  override readonly name = 'UseDpopNonceError';
  readonly nonce: string;

  constructor(nonce: string, message = 'the DPoP proof must carry the nonce this server gives (DPoP-Nonce)') {
    super(message);
    this.nonce = nonce;
  }
}

/**
 * Which refusal an error is, by name: a verifier may come from another copy of the runtime (a vendored
 * server using the package's verifiers), whose classes are not these.
 */
export function refusalKind(error: unknown): 'token' | 'proof' | 'nonce' | undefined {
  const name = error instanceof Error ? error.name : undefined;
  if (name === 'InvalidTokenError') return 'token';
  if (name === 'InvalidDpopProofError') return 'proof';
  if (name === 'UseDpopNonceError' && typeof (error as { nonce?: unknown }).nonce === 'string') return 'nonce';
  return undefined;
}
