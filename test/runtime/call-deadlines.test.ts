/**
 * Request timeouts share one timer (templates/core/call-deadlines.ts): calls of different lengths, armed in any
 * order, each expire at their own deadline and never before it; settled calls never expire; and the shared
 * timer does not keep an idle process alive.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RpcPeer } from '../../templates/core/peer.js';
import { createInMemoryPair } from '../../templates/core/transport.js';
import { ROOT } from '../helpers/paths.js';

async function connected(): Promise<RpcPeer> {
  const [clientSide, serverSide] = createInMemoryPair();
  const client = new RpcPeer(clientSide);
  const server = new RpcPeer(serverSide);
  server.setRequestHandler('hang', () => new Promise(() => {}));
  server.setRequestHandler('quick', () => ({}));
  await Promise.all([client.start(), server.start()]);
  return client;
}

describe('request deadlines on one timer', () => {
  // Not the order of expiry: a timer that fires late (a busy machine) expires every call then due in one pass,
  // in the order they were sent; each of them is past its deadline by then, which is what is asserted.
  it('expires each of mixed timeouts, none before its deadline, and never a call that was answered', async () => {
    const client = await connected();
    const started = performance.now();
    const expired: Array<{ timeout: number; after: number }> = [];
    const hang = (timeout: number) =>
      client.request('hang', {}, { timeout }).then(
        () => expect.fail('a hanging call resolved'),
        (error: { code: number; data: { timeout: number } }) => {
          expect(error.code).toBe(-32001);
          expect(error.data.timeout).toBe(timeout);
          expired.push({ timeout, after: performance.now() - started });
        },
      );
    // Armed first, so a scheduler that only heeded the first deadline would hold every call to this one.
    const longest = hang(400);
    const answered = client.request('quick', {}, { timeout: 5 });
    await Promise.all([longest, hang(90), hang(30), hang(60), hang(30), hang(10), answered]);
    expect(expired.map((e) => e.timeout).sort((a, b) => a - b)).toEqual([10, 30, 30, 60, 90, 400]);
    for (const { timeout, after } of expired) expect(after).toBeGreaterThanOrEqual(timeout - 1);
    // The short call is not held to the long one's deadline (390 ms of slack for a busy machine).
    expect(expired.find((e) => e.timeout === 10)!.after).toBeLessThan(400);
    await client.close();
  });

  it('lets the process exit once its calls are settled, long before their timeout', async () => {
    const runtime = join(ROOT, 'packages', 'runtime', 'dist', 'esm', 'index.js');
    const script = `
      const { RpcPeer, createInMemoryPair } = await import(${JSON.stringify(runtime)});
      const [a, b] = createInMemoryPair();
      const client = new RpcPeer(a);
      const server = new RpcPeer(b);
      server.setRequestHandler('quick', () => ({}));
      await Promise.all([client.start(), server.start()]);
      await client.request('quick', {}, { timeout: 60000 });
      globalThis.started = Date.now();
      process.on('exit', () => console.log(Date.now() - globalThis.started));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      timeout: 20_000,
    });
    expect(Number(stdout.trim())).toBeLessThan(5_000);
  });
});
