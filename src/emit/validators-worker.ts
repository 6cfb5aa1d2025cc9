/**
 * Compiling the validators (ajv standalone, ~0.7 s for a spec version) runs on a worker thread, in
 * parallel with the type and map emitters and prettier on the main thread: the machines this runs on
 * have at least two cores, and ajv needs nothing from the rest of the pipeline but the model.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { ProtocolModel } from '../model/types.js';
import { emitValidators } from './validators.js';

type Emitted = { js: string; dts: string };

/** Emit validators off the main thread when the compiled worker exists (it does once built). */
export function emitValidatorsConcurrently(model: ProtocolModel): Promise<Emitted> {
  const script = fileURLToPath(import.meta.url);
  // Under a TypeScript loader (tests run src/ directly) there is no .js to start: compile in-process.
  if (!script.endsWith('.js') || !existsSync(script)) return Promise.resolve().then(() => emitValidators(model));
  return new Promise<Emitted>((resolve, reject) => {
    const worker = new Worker(script, { workerData: model });
    worker.once('message', (message: { ok: true; value: Emitted } | { ok: false; message: string }) => {
      if (message.ok) resolve(message.value);
      else reject(new Error(message.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`validators worker exited with code ${code}`));
    });
  });
}

if (!isMainThread && parentPort) {
  try {
    parentPort.postMessage({ ok: true, value: emitValidators(workerData as ProtocolModel) });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
}
