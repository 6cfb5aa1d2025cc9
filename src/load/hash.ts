import { createHash } from 'node:crypto';

/** Hex SHA-256 of text or bytes: the one hash behind input hashes, cache keys and the ownership manifest. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
