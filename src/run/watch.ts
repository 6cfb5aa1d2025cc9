/**
 * `generate --watch`: regenerate when any input of a target changes (src/inputs.ts lists them: the schema,
 * extension files and the files they `$ref`, the pairing file, the prettier config) or the config file.
 *
 * Directories are watched (not files), so editors that save by rename are seen too; events are
 * filtered to the files the targets read and debounced. An error is printed and the watcher keeps
 * going; the next good edit recovers. Aborting the signal (SIGINT in the CLI) closes every watcher and
 * resolves the promise once a run in progress has finished.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Target } from './target.js';
import { targetInputs } from '../inputs.js';
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

/** Every input file of the targets (absolute, sorted): the files src/inputs.ts says each target reads. */
export async function inputsOf(targets: Target[], configFile?: string): Promise<string[]> {
  const files = new Set<string>(configFile ? [resolve(configFile)] : []);
  for (const target of targets) {
    const inputs = await targetInputs({ ...target.options, outDir: target.outDir }, { configFile });
    for (const file of inputs.files) files.add(file);
  }
  return [...files].sort();
}

export async function startWatch(targets: Target[] | (() => Promise<Target[]>), options: WatchOptions): Promise<void> {
  if (options.signal.aborted) return;
  const session = new WatchSession(typeof targets === 'function' ? targets : async () => targets, options);
  await session.run();
}

/** One watch run: file watchers per directory, a debounce, and one regeneration at a time. */
class WatchSession {
  private current: Target[] = [];
  private watchers: FSWatcher[] = [];
  private watched: string[];
  private timer: NodeJS.Timeout | undefined;
  private pending = new Set<string>();
  private running: Promise<void> | undefined;
  private again = false;
  private readonly debounceMs: number;

  constructor(
    private readonly load: () => Promise<Target[]>,
    private readonly options: WatchOptions,
  ) {
    this.debounceMs = options.debounceMs ?? 100;
    this.watched = options.configFile ? [resolve(options.configFile)] : [];
  }

  /** Generates once, then on every change until the signal aborts. */
  async run(): Promise<void> {
    const { signal } = this.options;
    this.running = this.cycle(true).finally(() => {
      this.running = undefined;
    });
    await new Promise<void>((done) => {
      const stop = () => {
        if (this.timer) clearTimeout(this.timer);
        this.closeWatchers();
        void (this.running ?? Promise.resolve()).then(() => {
          this.closeWatchers();
          done();
        });
      };
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
  }

  private closeWatchers(): void {
    for (const w of this.watchers) w.close();
    this.watchers = [];
  }

  /** Watches the directories of the watched files (a file replaced by an editor's rename stays watched). */
  private arm(): void {
    this.closeWatchers();
    if (this.options.signal.aborted) return;
    const byDir = new Map<string, Set<string>>();
    for (const file of this.watched) {
      const set = byDir.get(dirname(file)) ?? new Set<string>();
      set.add(basename(file));
      byDir.set(dirname(file), set);
    }
    for (const [dir, names] of byDir) {
      try {
        const w = watch(dir, { persistent: true }, (_event, filename) => {
          const name = filename?.toString();
          if (name && !names.has(name)) return;
          this.pending.add(name ? resolve(dir, name) : dir);
          this.schedule();
        });
        w.on('error', () => undefined);
        this.watchers.push(w);
      } catch (error) {
        this.options.out.warn(`watch: cannot watch ${dir} (${(error as Error).message})`);
      }
    }
    this.options.out.verbose(`watch: watching ${this.watched.join(', ')}`);
  }

  private schedule(): void {
    if (this.options.signal.aborted) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.running) {
        this.again = true;
        return;
      }
      this.running = this.cycle().finally(() => {
        this.running = undefined;
        if (this.again && !this.options.signal.aborted) {
          this.again = false;
          this.schedule();
        }
      });
    }, this.debounceMs);
  }

  private async cycle(first = false): Promise<void> {
    const { out, configFile, signal } = this.options;
    const changed = [...this.pending];
    this.pending = new Set();
    const started = performance.now();
    if (!first) out.info(`watch: ${changed.map(displayPath).join(', ') || 'input'} changed; regenerating`);
    let ok = true;
    try {
      this.current = await this.load();
      await runWrite(this.current, out);
    } catch (error) {
      ok = false;
      reportError(out, error);
    }
    const next = await inputsOf(this.current, configFile).catch(() => this.watched);
    // Keep watching what was watched before too, so a broken config or schema can still be fixed.
    this.watched = [...new Set([...next, ...(ok ? [] : this.watched)])].sort();
    // Watching before saying so: a save made as soon as the line appears is seen.
    if (!signal.aborted) this.arm();
    const ms = Math.round(performance.now() - started);
    out.info(
      ok
        ? `watch: done in ${ms} ms; waiting for changes (Ctrl-C to stop)`
        : `watch: failed after ${ms} ms; fix it and save again (still watching)`,
    );
    this.options.onRun?.({ ok, changed });
  }
}

function displayPath(path: string): string {
  const cwd = process.cwd();
  return path.startsWith(cwd + '/') ? path.slice(cwd.length + 1) : path;
}
