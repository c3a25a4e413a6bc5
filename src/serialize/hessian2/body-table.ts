/** Entries a table scans before it moves them into a `Map`. */
const SCAN_LIMIT = 8;

/**
 * A key → value table of one frame body (its back-references, class definitions or types), reused
 * from body to body. Most bodies hold a handful of entries, which a scan of two arrays finds
 * without hashing, and `clear()` then only forgets them: no `Map` is allocated per body. Past
 * {@link SCAN_LIMIT} entries a `Map` takes over until the next `clear()`. Keys compare with `===`.
 */
export class BodyTable<K, V> {
  readonly #keys: Array<K | undefined> = [];
  readonly #values: Array<V | undefined> = [];
  #count = 0;
  #map: Map<K, V> | undefined;

  get size(): number {
    return this.#map === undefined ? this.#count : this.#map.size;
  }

  get(key: K): V | undefined {
    if (this.#map !== undefined) return this.#map.get(key);
    const keys = this.#keys;
    for (let i = 0; i < this.#count; i++) if (keys[i] === key) return this.#values[i];
    return undefined;
  }

  set(key: K, value: V): void {
    if (this.#map !== undefined) {
      this.#map.set(key, value);
      return;
    }
    const keys = this.#keys;
    for (let i = 0; i < this.#count; i++) {
      if (keys[i] === key) {
        this.#values[i] = value;
        return;
      }
    }
    if (this.#count < SCAN_LIMIT) {
      keys[this.#count] = key;
      this.#values[this.#count] = value;
      this.#count++;
      return;
    }
    const map = new Map<K, V>();
    for (let i = 0; i < this.#count; i++) map.set(keys[i] as K, this.#values[i] as V);
    map.set(key, value);
    this.#forgetScanned();
    this.#map = map;
  }

  /** Keeps only the entries whose value `keep` accepts (a half-written value rolled back). */
  retain(keep: (value: V) => boolean): void {
    if (this.#map !== undefined) {
      for (const [key, value] of this.#map) if (!keep(value)) this.#map.delete(key);
      return;
    }
    let kept = 0;
    for (let i = 0; i < this.#count; i++) {
      const value = this.#values[i] as V;
      if (!keep(value)) continue;
      this.#keys[kept] = this.#keys[i];
      this.#values[kept] = value;
      kept++;
    }
    const count = this.#count;
    this.#count = kept;
    this.#forget(kept, count);
  }

  /** Forgets every entry (and lets go of the keys, which are the caller's values). */
  clear(): void {
    this.#map = undefined;
    this.#forgetScanned();
  }

  #forgetScanned(): void {
    this.#forget(0, this.#count);
    this.#count = 0;
  }

  /** A loop, not `fill`: the range is a few entries and `fill` is a call into the runtime. */
  #forget(from: number, to: number): void {
    for (let i = from; i < to; i++) {
      this.#keys[i] = undefined;
      this.#values[i] = undefined;
    }
  }
}

/**
 * A list of one frame body (its back-references, class definitions or types), reused from body to
 * body like {@link BodyTable}: `clear()` forgets the entries but keeps the array's room, so a body
 * allocates no backing store for the lists it fills.
 */
export class BodyList<V> {
  readonly #items: Array<V | undefined> = [];
  #count = 0;

  get length(): number {
    return this.#count;
  }

  /** Appends `value` and returns its index. */
  push(value: V): number {
    this.#items[this.#count] = value;
    return this.#count++;
  }

  /** The entry at `index` (undefined past the end). */
  at(index: number): V | undefined {
    return index < this.#count ? this.#items[index] : undefined;
  }

  set(index: number, value: V): void {
    if (index < this.#count) this.#items[index] = value;
  }

  /** Forgets every entry (and lets go of them: they are the body's values). */
  clear(): void {
    const items = this.#items;
    // A loop, not `fill`, as in BodyTable.
    for (let i = 0; i < this.#count; i++) items[i] = undefined;
    this.#count = 0;
  }
}
