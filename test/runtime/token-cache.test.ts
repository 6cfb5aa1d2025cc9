/**
 * Issue 42 items 3 and 7: the gate's verified tokens (templates/auth/server/token-cache.ts) — remembered until
 * they expire, bounded, the ones used longest ago dropped first, a token verified twice at once verified once.
 */
import { describe, expect, it } from 'vitest';
import type { AuthInfo } from '../../templates/peer/auth-info.js';
import { VerifiedTokens } from '../../templates/auth/server/token-cache.js';

const identity = (subject: string, expiresAt: number | undefined = Date.now() / 1000 + 3600): AuthInfo => ({
  subject,
  clientId: 'app',
  scopes: [],
  audience: ['https://mcp.example.com/mcp'],
  issuer: undefined,
  expiresAt,
  claims: {},
});

/** A cache and a verifier that counts its calls per token. */
function harness(max: number) {
  const cache = new VerifiedTokens(max);
  const verified = new Map<string, number>();
  const get = async (token: string, expiresAt?: number) =>
    cache.get(token, async () => {
      verified.set(token, (verified.get(token) ?? 0) + 1);
      return identity(token, expiresAt);
    });
  return { cache, verified, get };
}

describe('VerifiedTokens', () => {
  it('remembers a token until it expires, and one that says no expiry not at all', async () => {
    const { verified, get } = harness(10);
    await get('a');
    await get('a');
    expect(verified.get('a')).toBe(1);
    await get('gone', Date.now() / 1000 - 1);
    await get('gone', Date.now() / 1000 - 1);
    expect(verified.get('gone')).toBe(2);
  });

  it('a token verified twice at once is verified once', async () => {
    const { verified, get } = harness(10);
    await Promise.all([get('a'), get('a'), get('a')]);
    expect(verified.get('a')).toBe(1);
  });

  it('holds at most its bound; a token in use stays while a thousand others come and go', async () => {
    const { cache, verified, get } = harness(10);
    for (let i = 0; i < 1000; i++) {
      await get('kept');
      await get(`t${i}`);
      expect(cache.size).toBeLessThanOrEqual(10);
    }
    expect(verified.get('kept')).toBe(1);
    // One used long ago is gone: verified again.
    await get('t0');
    expect(verified.get('t0')).toBe(2);
    // The last few are still there.
    await get('t999');
    expect(verified.get('t999')).toBe(1);
  });

  it('a bound of 0 remembers nothing; of 1, the last token', async () => {
    const none = harness(0);
    await none.get('a');
    await none.get('a');
    expect(none.verified.get('a')).toBe(2);
    expect(none.cache.size).toBe(0);
    const one = harness(1);
    await one.get('a');
    await one.get('a');
    await one.get('b');
    expect(one.cache.size).toBeLessThanOrEqual(1);
    await one.get('b');
    expect(one.verified.get('a')).toBe(1);
    expect(one.verified.get('b')).toBe(1);
  });
});
