/**
 * The child processes of a conformance run: each started in its own process group, remembered until it
 * ends, so that a timeout, a deadline or a signal stops it and everything it started.
 */
import { spawn } from 'node:child_process';

/** Every process this run started and that has not ended yet. */
const children = new Set();

/**
 * Runs a command to completion (or until `timeoutMs`, when its process group is killed), capturing output.
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string, timedOut: boolean }>}
 */
export function run(command, args, { cwd, timeoutMs = 120_000, env, echo = false } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (echo) process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (echo) process.stderr.write(chunk);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      stop(child);
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolvePromise({ code, stdout, stderr, timedOut });
    });
  });
}

/** Stops a child we started and everything it started (its process group): SIGTERM, then SIGKILL after 3 s. */
export function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    try {
      child.kill('SIGTERM');
    } catch {
      // Already gone.
    }
  }
  const force = setTimeout(() => {
    try {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }, 3000);
  force.unref();
}

/** Stops every process this run started. */
export function stopAll() {
  for (const child of children) stop(child);
}

/**
 * Starts a compiled example server on port 0 and resolves once it prints `listening on <url>`.
 * @returns {Promise<{ url: string, child: import('node:child_process').ChildProcess, output: () => string }>}
 */
export function startServer(serverJs, { timeoutMs = 20_000, echo = false } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [serverJs, '0'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(child);
    let output = '';
    let settled = false;
    const timer = setTimeout(
      () => fail(new Error(`${serverJs} did not start within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    function fail(error) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stop(child);
      reject(error);
    }
    const read = (chunk) => {
      output += chunk;
      if (echo) process.stdout.write(chunk);
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match && !settled) {
        settled = true;
        clearTimeout(timer);
        resolvePromise({ url: match[1], child, output: () => output });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (chunk) => {
      output += chunk;
      if (echo) process.stderr.write(chunk);
    });
    child.on('error', fail);
    child.on('close', (code) => {
      children.delete(child);
      fail(new Error(`${serverJs} exited (code ${code}) before listening:\n${output}`));
    });
  });
}

/** Runs `jobs` (functions returning promises) with at most `limit` at a time; resolves to their results in order. */
export async function pool(jobs, limit) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, jobs.length)) }, worker));
  return results;
}
