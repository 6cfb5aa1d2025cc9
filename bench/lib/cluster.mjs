/**
 * The cluster rows of `npm run bench` (issue 31): tools/call over Streamable HTTP through the generated client,
 * `inflight` calls at a time, against 1 node without Redis, 1 node with its state in Redis, and 3 nodes behind
 * HAProxy round-robin (all on loopback: bench/lib/cluster-processes.mjs), for a 2025-11-25 session and for
 * 2026-07-28 (sessionless). Each configuration reports its rate, its p99 latency and the Redis commands it
 * sent per call (INFO's total_commands_processed around the measured calls), and the CPU its server processes
 * spent per call (the nodes' and redis-server's utime + stime from /proc around the measured calls). Every node
 * runs behind the auth gate, as a deployed server does (issue 46 item 3 asks the cost with sessions bound to
 * identities): each client has its own RFC 9068 token, minted here by an issuer whose JWKS is served here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from 'redis';
import { freePort, startHaproxy, startNode, startRedis } from './cluster-processes.mjs';
import { startIssuer } from './issuer.mjs';

const NODE_SCRIPT = join(import.meta.dirname, 'cluster-node.mjs');

/** Redis's count of commands processed so far (the INFO that asks is one of them). */
async function commandsProcessed(redis) {
  const info = await redis.info('stats');
  return Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? NaN);
}

/** The resource every node answers for: one URL whatever the node (as behind a TLS-terminating proxy). */
const RESOURCE = 'https://mcp.bench.invalid/mcp';

const TICK_US = 1e6 / 100; // USER_HZ: /proc/<pid>/stat counts CPU in 1/100 s on Linux

/** CPU (user + system) a process has used so far, in µs, from /proc/<pid>/stat; 0 without a pid. */
function cpuUsOf(pid) {
  if (pid === undefined) return 0;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

/** CPU the processes have used so far, in µs. */
const cpuUs = (pids) => pids.reduce((sum, pid) => sum + cpuUsOf(pid), 0);

/** `calls` echo calls from `clients` generated clients, `inflight` at a time in all; rate and p99 latency. */
async function load(gen, url, issuer, { clients, calls, inflight, later = false }) {
  const connected = await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      const token = await issuer.mint({ audience: RESOURCE, subject: `user${i}`, clientId: `bench${i}`, scope: 'mcp' });
      const headers = { authorization: `Bearer ${token}` };
      const c = gen.createClient(new gen.StreamableHttpClientTransport(url, { headers }), {
        clientInfo: { name: `bench${i}`, version: '1' },
        eraCache: new Map(),
      });
      await c.connect();
      // Warm: the session is known to every node (3 nodes: each restores it once) before the clock starts.
      for (let w = 0; w < 9; w++) await c.tools.call({ name: 'echo', arguments: { text: 'warm' } });
      return c;
    }),
  );
  return {
    /** `servers`: the pids of the nodes serving `url`; `redisPid`: redis-server's, with Redis. */
    async run(redis, servers, redisPid) {
      const before = redis ? await commandsProcessed(redis) : 0;
      const cpuBefore = cpuUs(servers);
      const redisCpuBefore = cpuUs([redisPid]);
      const latencies = [];
      let next = 0;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: inflight }, async (_, lane) => {
          const c = connected[lane % connected.length];
          while (next < calls) {
            const i = next++;
            const t = performance.now();
            const result = await c.tools.call({ name: 'echo', arguments: { text: String(i), later } });
            latencies.push(performance.now() - t);
            if (!result.content[0].text.startsWith(`${i}|`)) throw new Error(`call ${i} got ${result.content[0].text}`);
          }
        }),
      );
      const seconds = (performance.now() - start) / 1000;
      const nodesUs = (cpuUs(servers) - cpuBefore) / calls;
      const redisUs = (cpuUs([redisPid]) - redisCpuBefore) / calls;
      const after = redis ? await commandsProcessed(redis) : 0;
      latencies.sort((a, b) => a - b);
      return {
        rate: calls / seconds,
        p99Ms: latencies[Math.floor(latencies.length * 0.99)],
        redisPerCall: redis ? Math.round(((after - before - 1) / calls) * 100) / 100 : undefined,
        // The server side of a call: the node processes, and redis-server with them (µs of CPU per call).
        cpuUs: nodesUs,
        cpuWithRedisUs: nodesUs + redisUs,
      };
    },
    close: () => Promise.all(connected.map((c) => c.close())),
  };
}

/**
 * Measures every configuration of one generated version (`jsDir`), `runs` times each, the configurations
 * taking turns: `calls` at `inflight` for the rate rows, `sequentialCalls` one at a time for the CPU rows.
 * Returns, by configuration, the list of runs.
 */
export async function clusterBench(jsDirs, { clients, calls, inflight, sequentialCalls, runs }) {
  const redis = await startRedis();
  const issuer = await startIssuer();
  const probe = createClient({ url: redis.url });
  await probe.connect();
  const ports = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const nodes = [];
  const out = {};
  try {
    for (const [version, jsDir] of Object.entries(jsDirs)) {
      const gen = await import(pathToFileURL(join(jsDir, 'index.js')).href);
      const plain = await startNode(NODE_SCRIPT, '-', 'solo', ports[3], [jsDir, RESOURCE, issuer.url]);
      const clustered = await Promise.all(
        ports
          .slice(0, 3)
          .map((p, i) => startNode(NODE_SCRIPT, redis.url, `n${i + 1}`, p, [jsDir, RESOURCE, issuer.url])),
      );
      nodes.push(plain, ...clustered);
      const lb = await startHaproxy(ports.slice(0, 3));
      const solo = [`${plain.base}/mcp`, undefined, [plain.pid]];
      const withRedis = [`${clustered[0].base}/mcp`, probe, [clustered[0].pid]];
      // Each: [url, Redis probe, server pids, answer a turn later, sequential].
      const configs = {
        plain: solo,
        redis: withRedis,
        three: [lb.url, probe, clustered.map((n) => n.pid)],
        // The CPU rows' pairs: one call at a time, so a node's CPU per call is its work per call, not how many
        // requests a wake-up happened to batch (with 32 in flight that swung 35–100% between rounds).
        cpuPlain: [...solo, false, true],
        cpuRedis: [...withRedis, false, true],
        // A handler that answers a turn of the event loop later (as any I/O does): its stream's priming event
        // is written, stored and deleted (session eras only; 2026-07-28 stores nothing either way).
        ...(version < '2026-07-28'
          ? { cpuPlainLater: [...solo, true, true], cpuRedisLater: [...withRedis, true, true] }
          : {}),
      };
      for (const name of Object.keys(configs)) out[`${version}-${name}`] = [];
      for (let r = 0; r < runs; r++) {
        for (const name of r % 2 ? Object.keys(configs).reverse() : Object.keys(configs)) {
          const [url, counter, pids, later = false, sequential = false] = configs[name];
          const shape = sequential ? { calls: sequentialCalls, inflight: 1 } : { calls, inflight };
          const l = await load(gen, url, issuer, { clients, ...shape, later });
          out[`${version}-${name}`].push(await l.run(counter, pids, counter ? redis.pid : undefined));
          await l.close();
        }
      }
      await lb.stop();
      await Promise.all(nodes.splice(0).map((n) => n.stop()));
    }
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
    await probe.quit().catch(() => undefined);
    await redis.stop();
    await issuer.close();
  }
  return out;
}
