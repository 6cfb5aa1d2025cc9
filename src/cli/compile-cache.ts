/**
 * Node's module compile cache (`module.enableCompileCache`, Node ≥ 22.1) for the bin: the V8 code of the
 * modules a run loads (ts-morph's TypeScript, prettier, json-schema-to-typescript, ajv, our chunks) is
 * kept in the user cache folder, so later runs skip compiling them. Older Nodes have no such function
 * and run as before; `NODE_DISABLE_COMPILE_CACHE=1` turns it off (Node reads it).
 */
import module from 'node:module';
import { join } from 'node:path';
import { cacheRoot } from '../load/cache.js';

type EnableCompileCache = (directory?: string) => unknown;

export function enableCompileCache(): void {
  const enable = (module as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (typeof enable !== 'function') return;
  try {
    enable(join(cacheRoot(), 'v8-compile-cache'));
  } catch {
    // Only an optimisation: a cache folder that cannot be made leaves the run as it was.
  }
}
