/**
 * The JWS algorithms the verifiers check with fast-jwt: the asymmetric ones a public key verifies (RFC 7518
 * §3.1, EdDSA from RFC 8037). A symmetric or unsigned token is never accepted, whatever a list asks for.
 */
import type { Algorithm } from 'fast-jwt';

export const ASYMMETRIC: readonly Algorithm[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

/** The algorithms a list asks for, each an asymmetric one; else a TypeError naming `who` and the first other. */
export function asymmetricAlgorithms(asked: readonly string[], who: string): Algorithm[] {
  return asked.map((alg) => {
    const known = ASYMMETRIC.find((a) => a === alg);
    if (known === undefined) {
      throw new TypeError(`${who}: "${alg}" is not an asymmetric JWS algorithm (${ASYMMETRIC.join(', ')})`);
    }
    return known;
  });
}
