/**
 * Runs off-thread.ts on a worker thread (the machines this runs on have at least two cores) while the
 * caller carries on. One worker serves every request of the process — `generate --all`, config targets
 * and watch mode load ts-morph and prettier there once — and is unref'd, so it never keeps the process
 * alive. Falls back to running in-process where there is no compiled worker to start (tests import src/
 * through a TypeScript loader; a worker thread cannot load .ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PrintRequest, Printed } from './off-thread.js';

const WORKER_TAG = 'mcp-typegen-print';

type Reply = { id: number; ok: true; value: Printed } | { id: number; ok: false; message: string };

let worker: Worker | undefined;
let nextId = 1;
const waiting = new Map<number, { resolve: (value: Printed) => void; reject: (error: Error) => void }>();

function failAll(error: Error): void {
  worker = undefined;
  for (const { reject } of waiting.values()) reject(error);
  waiting.clear();
}

function sharedWorker(script: string): Worker {
  if (worker) return worker;
  const started = new Worker(script, { workerData: { tag: WORKER_TAG } });
  started.unref();
  started.on('message', (reply: Reply) => {
    const entry = waiting.get(reply.id);
    if (!entry) return;
    waiting.delete(reply.id);
    if (reply.ok) entry.resolve(reply.value);
    else entry.reject(new Error(reply.message));
    if (waiting.size === 0) started.unref();
  });
  started.on('error', (error) => failAll(error));
  started.on('exit', (code) => failAll(new Error(`print worker exited with code ${code}`)));
  worker = started;
  return started;
}

export function printConcurrently(request: PrintRequest): Promise<Printed> {
  if (request.entries.length === 0) return Promise.resolve({});
  const script = fileURLToPath(new URL('./off-thread.js', import.meta.url));
  if (!fileURLToPath(import.meta.url).endsWith('.js') || !existsSync(script)) {
    return import('./off-thread.js').then(({ printFiles }) => printFiles(request));
  }
  const target = sharedWorker(script);
  const id = nextId++;
  // Referenced while a request is out, so the process waits for the answer.
  target.ref();
  return new Promise<Printed>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    target.postMessage({ id, request });
  });
}
