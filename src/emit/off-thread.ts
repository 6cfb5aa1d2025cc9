/**
 * The printers that need ts-morph (it loads the whole TypeScript compiler, ~0.65 s) — maps, client and
 * server — run here on a worker thread, formatted here too, while the main thread runs
 * json-schema-to-typescript, ajv and prettier for the rest. Only this module imports them: the main
 * thread never loads ts-morph unless it must run this itself (see concurrent.ts).
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { entry, type EmitContext } from './registry.js';
import type { ProtocolModel } from '../model/types.js';
import { formatFile } from './format.js';

export interface PrintRequest {
  model: ProtocolModel;
  /** Registry entries to emit here (those marked offThread). */
  entries: string[];
  context: EmitContext;
  /** Format with prettier, with the config that applies in outDir. */
  format: boolean;
  outDir: string;
}

/** File path → contents, formatted when asked. */
export type Printed = Record<string, string>;

export async function printFiles(request: PrintRequest): Promise<Printed> {
  const printed: Printed = {};
  for (const name of request.entries) {
    for (const { path, contents } of await entry(name).emit(request.model, request.context)) {
      printed[path] = request.format ? await formatFile(request.outDir, path, contents) : contents;
    }
  }
  return printed;
}

/** Marks the worker concurrent.ts starts, so importing this module elsewhere never listens to anything. */
export const WORKER_TAG = 'mcp-typegen-print';

if (!isMainThread && parentPort && (workerData as { tag?: string } | undefined)?.tag === WORKER_TAG) {
  const port = parentPort;
  port.on('message', ({ id, request }: { id: number; request: PrintRequest }) => {
    printFiles(request).then(
      (value) => port.postMessage({ id, ok: true, value }),
      (error: unknown) =>
        port.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) }),
    );
  });
}
