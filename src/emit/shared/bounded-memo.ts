/**
 * The in-process memos of generation (formatted files, compiled validators): a value by the hash of what made
 * it, the oldest forgotten past a limit, so a long watch session or `--all` keeps only what it may meet again.
 */
export class BoundedMemo<V> {
  readonly #values = new Map<string, V>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get(key: string): V | undefined {
    return this.#values.get(key);
  }

  set(key: string, value: V): V {
    const oldest = this.#values.keys().next();
    if (this.#values.size >= this.#limit && oldest.done !== true) this.#values.delete(oldest.value);
    this.#values.set(key, value);
    return value;
  }

  delete(key: string): void {
    this.#values.delete(key);
  }
}
