/**
 * A real cluster on loopback for issue 31's tests (test/helpers/cluster.ts re-exports this) and bench: Debian's `redis-server` and `haproxy` (installed
 * with apt-get when missing; CI runs as root), and generated-server node processes (test/interop/fixtures/
 * cluster-node.ts, bench/lib/cluster-node.mjs) behind HAProxy round-robin without affinity. Every process is started on a random port and
 * stopped by its `stop()`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BINARIES = { 'redis-server': '/usr/bin/redis-server', haproxy: '/usr/sbin/haproxy' };

/** Installs the Debian packages redis-server and haproxy when their binaries are missing (`apt-get update` once if needed). */
export function ensureClusterTools() {
  const missing = Object.entries(BINARIES).filter(([, path]) => !existsSync(path));
  if (missing.length === 0) return;
  const install = ['install', '-y', '-q', '--no-install-recommends', ...missing.map(([name]) => name)];
  const apt = (args) =>
    execFileSync('apt-get', args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: 300_000,
    });
  try {
    apt(install);
  } catch {
    apt(['update', '-q']);
    apt(install);
  }
}

/** A port nothing listens on now. */
export function freePort() {
  return new Promise((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on the port. */
export async function listening(port, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function exited(child) {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stopChild(child, signal = 'SIGTERM') {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  await exited(child);
}

/** redis-server on a random loopback port, without persistence. */
export async function startRedis() {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  let child = spawn(BINARIES['redis-server'], args, { stdio: 'ignore' });
  await listening(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    /** The running redis-server's process id (for its CPU: bench/lib/cluster.mjs). */
    get pid() {
      return child.pid;
    },
    down: () => stopChild(child, 'SIGKILL'),
    async up() {
      child = spawn(BINARIES['redis-server'], args, { stdio: 'ignore' });
      await listening(port);
    },
    stop: () => stopChild(child),
  };
}

/** The HAProxy config the tests use (docs/scaling.md shows it): round-robin per request, no affinity. */
export function haproxyConfig(port, nodes) {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  # A request whose node is down (connection refused) is sent to another one.',
    '  retries 3',
    '  option redispatch 1',
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend nodes',
    'backend nodes',
    '  balance roundrobin',
    '  # Each request of a kept-alive client connection is balanced on its own.',
    '  option http-server-close',
    ...nodes.map((p, i) => `  server n${i + 1} 127.0.0.1:${p} check inter 300 fall 1 rise 1`),
    '',
  ].join('\n');
}

export async function startHaproxy(nodes) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mcp-haproxy-'));
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(port, nodes));
  const child = spawn(BINARIES.haproxy, ['-db', '-f', config], { stdio: 'ignore' });
  await listening(port);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async stop() {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One node process: `node <script> <port> <redis url> <id> ...args` on `port` (0: a random one), which prints
 * `PORT <n>` once listening and serves `GET /debug` (the test fixture does).
 */
export async function startNode(script, redisUrl, id, port = 0, args = []) {
  const child = spawn(process.execPath, [script, String(port), redisUrl, id, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk.toString();
    if (process.env['CLUSTER_DEBUG']) process.stderr.write(chunk);
  });
  const actual = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk.toString();
      const match = /PORT (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`node ${id} exited (${code}): ${stderr}`)));
  });
  const base = `http://127.0.0.1:${actual}`;
  return {
    id,
    port: actual,
    base,
    pid: child.pid,
    kill: () => stopChild(child, 'SIGKILL'),
    stop: () => stopChild(child),
    debug: async () => (await fetch(`${base}/debug`)).json(),
  };
}
