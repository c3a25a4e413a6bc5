/** Entries kept in the scanned arrays; past this the table moves to a Map until cleared. */
const SCANNED_ENTRIES = 8;

/**
 * A key -> value table a writer keeps per frame body and clears for the next one (written objects,
 * class definitions, type names). Most bodies hold a handful of entries: those are kept in two
 * arrays that are scanned and reused, so clearing allocates nothing, where a fresh `Map` per body
 * cost about 200 bytes on every response. Keys compare by identity (`===`), as a Map's do.
 */
export class BodyTable<K, V> {
  #keys: (K | undefined)[] = [];
  #values: (V | undefined)[] = [];
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
    if (this.#count < SCANNED_ENTRIES) {
      keys[this.#count] = key;
      this.#values[this.#count++] = value;
      return;
    }
    const map = new Map<K, V>();
    for (let i = 0; i < this.#count; i++) map.set(keys[i] as K, this.#values[i] as V);
    map.set(key, value);
    this.clearArrays();
    this.#map = map;
  }

  /** Drops the entries whose value `drop` picks (a rolled-back value's). */
  deleteWhere(drop: (value: V) => boolean): void {
    if (this.#map !== undefined) {
      for (const [key, value] of this.#map) if (drop(value)) this.#map.delete(key);
      return;
    }
    let kept = 0;
    for (let i = 0; i < this.#count; i++) {
      if (drop(this.#values[i] as V)) continue;
      this.#keys[kept] = this.#keys[i];
      this.#values[kept++] = this.#values[i];
    }
    for (let i = kept; i < this.#count; i++) {
      this.#keys[i] = undefined;
      this.#values[i] = undefined;
    }
    this.#count = kept;
  }

  clear(): void {
    this.#map = undefined;
    this.clearArrays();
  }

  /** Empties the arrays, letting go of the keys (written objects must not stay alive here). */
  private clearArrays(): void {
    for (let i = 0; i < this.#count; i++) {
      this.#keys[i] = undefined;
      this.#values[i] = undefined;
    }
    this.#count = 0;
  }
}
