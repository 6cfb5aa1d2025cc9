/**
 * `generate --watch`: regenerate when a schema, an extension or the config file changes.
 *
 * Directories are watched (not files), so editors that save by rename are seen too; events are
 * filtered to the files the targets read and debounced. An error is printed and the watcher keeps
 * going; the next good edit recovers. Aborting the signal (SIGINT in the CLI) closes every watcher and
 * resolves the promise once a run in progress has finished.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Target } from './target.js';
import { resolveSchemaPath } from '../load/schema.js';
import { reportError, type Out } from './console.js';
import { runWrite } from './generate.js';

export interface WatchOptions {
  signal: AbortSignal;
  out: Out;
  /** The config file, watched too; when `targets` is a function it is called again after it changes. */
  configFile?: string;
  /** Default 100 ms. */
  debounceMs?: number;
  /** Called after every run (tests wait on it). */
  onRun?: (outcome: { ok: boolean; changed: string[] }) => void;
}

/** Every input file of the targets (absolute). A target whose schema cannot be resolved adds nothing. */
export function inputsOf(targets: Target[], configFile?: string): string[] {
  const files = new Set<string>();
  if (configFile) files.add(resolve(configFile));
  for (const t of targets) {
    const cwd = t.options.cwd ?? process.cwd();
    try {
      // A URL or a version not downloaded yet has no local file to watch.
      const schemaFile = resolveSchemaPath({ ...t.options, cwd });
      if (schemaFile) files.add(schemaFile);
    } catch {
      // unknown spec: reported by the run itself
    }
    for (const e of t.options.extensions ?? []) files.add(resolve(cwd, e));
  }
  return [...files].sort();
}

export async function startWatch(targets: Target[] | (() => Promise<Target[]>), options: WatchOptions): Promise<void> {
  const { signal, out } = options;
  const debounceMs = options.debounceMs ?? 100;
  const load = typeof targets === 'function' ? targets : async () => targets;
  let current: Target[] = [];
  let watchers: FSWatcher[] = [];
  let watched: string[] = options.configFile ? [resolve(options.configFile)] : [];
  let timer: NodeJS.Timeout | undefined;
  let pending = new Set<string>();
  let running: Promise<void> | undefined;
  let again = false;

  const closeWatchers = () => {
    for (const w of watchers) w.close();
    watchers = [];
  };

  const arm = () => {
    closeWatchers();
    if (signal.aborted) return;
    const byDir = new Map<string, Set<string>>();
    for (const file of watched) {
      const dir = dirname(file);
      const set = byDir.get(dir) ?? new Set<string>();
      set.add(basename(file));
      byDir.set(dir, set);
    }
    for (const [dir, names] of byDir) {
      try {
        const w = watch(dir, { persistent: true }, (_event, filename) => {
          const name = filename?.toString();
          if (name && !names.has(name)) return;
          pending.add(name ? resolve(dir, name) : dir);
          schedule();
        });
        w.on('error', () => undefined);
        watchers.push(w);
      } catch (error) {
        out.warn(`watch: cannot watch ${dir} (${(error as Error).message})`);
      }
    }
    out.verbose(`watch: watching ${watched.join(', ')}`);
  };

  const schedule = () => {
    if (signal.aborted) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (running) {
        again = true;
        return;
      }
      running = cycle().finally(() => {
        running = undefined;
        if (again && !signal.aborted) {
          again = false;
          schedule();
        }
      });
    }, debounceMs);
  };

  const cycle = async (first = false) => {
    const changed = [...pending];
    pending = new Set();
    const started = performance.now();
    if (!first) out.info(`watch: ${changed.map(displayPath).join(', ') || 'input'} changed; regenerating`);
    let ok = true;
    try {
      current = await load();
      await runWrite(current, out);
    } catch (error) {
      ok = false;
      reportError(out, error);
    }
    const next = inputsOf(current, options.configFile);
    // Keep watching what was watched before too, so a broken config or schema can still be fixed.
    watched = [...new Set([...next, ...(ok ? [] : watched)])].sort();
    const ms = Math.round(performance.now() - started);
    out.info(
      ok
        ? `watch: done in ${ms} ms; waiting for changes (Ctrl-C to stop)`
        : `watch: failed after ${ms} ms; fix it and save again (still watching)`,
    );
    if (!signal.aborted) arm();
    options.onRun?.({ ok, changed });
  };

  if (signal.aborted) return;
  running = cycle(true).finally(() => {
    running = undefined;
  });
  await new Promise<void>((resolveDone) => {
    const stop = () => {
      if (timer) clearTimeout(timer);
      closeWatchers();
      void (running ?? Promise.resolve()).then(() => {
        closeWatchers();
        resolveDone();
      });
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}

function displayPath(path: string): string {
  const cwd = process.cwd();
  return path.startsWith(cwd + '/') ? path.slice(cwd.length + 1) : path;
}
