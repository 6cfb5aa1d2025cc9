/**
 * Issue 43: Streamable HTTP under load loses no call. 3,000 tools/call from a generated client, 256 in flight,
 * to a generated server in its own process behind node:http with its defaults (an app's
 * `http.createServer(createStreamableHttpServer({ server }))`), while busy loops hold every core (two each):
 * every call is answered, for a 2025-11-25 session and for 2026-07-28. On main node:http closed idle keep-alive
 * connections the starved client still picked for its next POST: about 500 calls of 3,000 failed with
 * `fetch failed` ("other side closed"). The server now keeps them open well past the timeout it tells clients
 * (templates/transports/http/server/request.ts; test/transports/http-keep-alive.test.ts for the mechanism).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { built, importBuilt } from '../client/helpers/build.js';

const CALLS = 3_000;
const IN_FLIGHT = 256;
const FIXTURES = join(import.meta.dirname, 'fixtures');
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const closed = new Promise((resolve) => child.once('close', resolve));
      child.kill('SIGKILL');
      await closed;
    }
  }
});

/** The load server in its own process; resolves with its URL. */
function startServer(jsDir: string): Promise<string> {
  const child = spawn(process.execPath, [join(FIXTURES, 'http-load-server.mjs'), jsDir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /listening on (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('close', (code) => reject(new Error(`load server exited (${code}): ${output}`)));
  });
}

/** Busy loops, two for every core, until the test ends: the client and the server get a third of a core each. */
function starveEveryCore(): void {
  for (let i = 0; i < 2 * availableParallelism(); i++) {
    children.push(spawn(process.execPath, [join(FIXTURES, 'busy.mjs')], { stdio: 'ignore' }));
  }
}

it.each(['2025-11-25', '2026-07-28'] as const)(
  `%s: ${CALLS} calls, ${IN_FLIGHT} in flight, every core busy: none lost`,
  { timeout: 600_000 },
  async (version) => {
    const build = await built(version);
    const gen = await importBuilt(build, 'index.js');
    const url = await startServer(build.jsDir);
    const client = gen.createClient(new gen.StreamableHttpClientTransport(url), {
      clientInfo: { name: 'starved', version: '1' },
      // Slow is fine here; only a lost call fails the test.
      timeout: 300_000,
    });
    await client.connect();
    starveEveryCore();
    const failures: string[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < CALLS) {
        const i = next++;
        try {
          const result = await client.tools.call({ name: 'echo', arguments: { i } });
          if (result.content[0]?.text !== JSON.stringify({ i })) failures.push(`${i}: ${JSON.stringify(result)}`);
        } catch (error) {
          failures.push(`${i}: ${error instanceof Error ? `${error.message} (${String(error.cause ?? '')})` : error}`);
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    await client.close();
    expect(failures.length, failures.slice(0, 5).join('\n')).toBe(0);
  },
);
