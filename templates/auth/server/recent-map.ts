/**
 * A map bounded in two generations (hashlru's scheme): entries go to `recent`; when it holds half the bound it
 * becomes `older` and the previous `older` is dropped; an entry found in `older` moves back to `recent`. So what
 * goes first is what was used longest ago, at O(1) an entry. (A single Map kept in use order, evicting its first
 * key, walks over every deleted slot ahead of that key: at 10,000 entries, ~14 µs a new one.) No `node:` imports.
 */
export class RecentMap<K, V> {
  readonly #half: number;
  #recent = new Map<K, V>();
  #older = new Map<K, V>();

  /** `max`: most entries held at once (0: none). */
  constructor(max: number) {
    this.#half = Math.max(0, Math.ceil(max / 2));
  }

  /** The value of `key`, which counts as a use. */
  get(key: K): V | undefined {
    const value = this.#recent.get(key);
    if (value !== undefined) return value;
    const older = this.#older.get(key);
    if (older === undefined) return undefined;
    this.#older.delete(key);
    this.#add(key, older);
    return older;
  }

  set(key: K, value: V): void {
    if (this.#half === 0) return;
    this.#older.delete(key);
    this.#add(key, value);
  }

  delete(key: K): void {
    this.#recent.delete(key);
    this.#older.delete(key);
  }

  /** Entries held. */
  get size(): number {
    return this.#recent.size + this.#older.size;
  }

  #add(key: K, value: V): void {
    this.#recent.set(key, value);
    if (this.#recent.size < this.#half) return;
    this.#older = this.#recent;
    this.#recent = new Map();
  }
}
