/**
 * The waiting calls of one client by request id: an open-addressing table (linear probing, slots
 * cleared on removal) instead of a `Map`. Calls enter and leave it all the time; a `Map` would keep
 * replacing its table, and V8 keeps an old table's entries and a link to its successor until a full
 * GC, so once one table reached the old generation every later table, with every call it held,
 * survived the scavenges. Here the slots array is replaced only when it grows, and a removed call
 * leaves nothing behind. Ids are a client's sequence, so consecutive calls take consecutive slots.
 */
export interface IdentifiedCall {
  readonly id: number;
}

const INITIAL_CAPACITY = 64;

export class CallTable<T extends IdentifiedCall> {
  #slots: (T | undefined)[] = new Array<T | undefined>(INITIAL_CAPACITY).fill(undefined);
  #mask = INITIAL_CAPACITY - 1;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(id: number): T | undefined {
    const slots = this.#slots;
    for (let slot = indexOf(id, this.#mask); ; slot = (slot + 1) & this.#mask) {
      const call = slots[slot];
      if (call === undefined || call.id === id) return call;
    }
  }

  /** Adds `call`; its id must not be in the table. */
  add(call: T): void {
    if ((this.#size + 1) * 2 > this.#slots.length) this.#grow();
    this.#place(call);
    this.#size++;
  }

  /** Removes `call` if it is the one its id holds; false otherwise. */
  remove(call: T): boolean {
    const slots = this.#slots;
    const mask = this.#mask;
    let slot = indexOf(call.id, mask);
    for (;;) {
      const held = slots[slot];
      if (held === undefined) return false;
      if (held === call) break;
      slot = (slot + 1) & mask;
    }
    slots[slot] = undefined;
    this.#size--;
    // Backward shift: move up every later call of the run whose home slot the hole now precedes.
    for (let next = (slot + 1) & mask; ; next = (next + 1) & mask) {
      const moved = slots[next];
      if (moved === undefined) return true;
      const home = indexOf(moved.id, mask);
      if (((next - home) & mask) >= ((next - slot) & mask)) {
        slots[slot] = moved;
        slots[next] = undefined;
        slot = next;
      }
    }
  }

  /** The calls waiting now (a copy: removing while iterating is safe). */
  values(): T[] {
    return this.#slots.filter((call): call is T => call !== undefined);
  }

  #place(call: T): void {
    let slot = indexOf(call.id, this.#mask);
    while (this.#slots[slot] !== undefined) slot = (slot + 1) & this.#mask;
    this.#slots[slot] = call;
  }

  #grow(): void {
    const calls = this.values();
    this.#slots = new Array<T | undefined>(this.#slots.length * 2).fill(undefined);
    this.#mask = this.#slots.length - 1;
    for (const call of calls) this.#place(call);
  }
}

/** The home slot of `id`: its low bits. */
function indexOf(id: number, mask: number): number {
  return id & mask;
}
