/**
 * Runs off-thread.ts on a worker thread (the machines this runs on have at least two cores) while the
 * caller carries on. Falls back to running it in-process where there is no compiled worker to start
 * (tests import src/ through a TypeScript loader; a worker thread cannot load .ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PrintRequest, Printed } from './off-thread.js';

const WORKER_TAG = 'mcp-typegen-print';

export function printConcurrently(request: PrintRequest): Promise<Printed> {
  if (!request.maps && !request.client && !request.server) return Promise.resolve({});
  const script = fileURLToPath(new URL('./off-thread.js', import.meta.url));
  if (!fileURLToPath(import.meta.url).endsWith('.js') || !existsSync(script)) {
    return import('./off-thread.js').then(({ printFiles }) => printFiles(request));
  }
  return new Promise<Printed>((resolve, reject) => {
    const worker = new Worker(script, { workerData: { tag: WORKER_TAG, request } });
    worker.once('message', (message: { ok: true; value: Printed } | { ok: false; message: string }) => {
      if (message.ok) resolve(message.value);
      else reject(new Error(message.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`print worker exited with code ${code}`));
    });
  });
}
