/**
 * The waiting calls of one client by request id: an array of slots indexed by the id's low bits,
 * instead of a `Map`. Calls enter and leave it all the time; a `Map` would keep replacing its
 * table, and V8 keeps an old table's entries and a link to its successor until a full GC, so once
 * one table reached the old generation every later table, with every call it held, survived the
 * scavenges. Here the slots array is replaced only when it grows, and a removed call leaves
 * nothing behind. Ids are a client's sequence, so the calls in flight take consecutive slots and
 * each call sits in its own: a lookup or a removal reads one slot. A call whose slot is taken (one
 * that waits while more than the table's size of later calls pass it) waits in a `Map` beside it:
 * a call is in its id's slot or in that `Map`, nowhere else, so no removal has to move another.
 */
export interface IdentifiedCall {
  readonly id: number;
}

const INITIAL_CAPACITY = 64;

export class CallTable<T extends IdentifiedCall> {
  #slots: (T | undefined)[] = new Array<T | undefined>(INITIAL_CAPACITY).fill(undefined);
  #mask = INITIAL_CAPACITY - 1;
  #size = 0;
  /** Calls whose slot was taken when they were added; made on the first such call. */
  #displaced: Map<number, T> | undefined;

  get size(): number {
    return this.#size;
  }

  get(id: number): T | undefined {
    const call = this.#slots[slotOf(id, this.#mask)];
    if (call !== undefined && call.id === id) return call;
    return this.#displaced?.get(id);
  }

  /** Adds `call`; its id must not be in the table. */
  add(call: T): void {
    if ((this.#size + 1) * 2 > this.#slots.length) this.#grow();
    this.#place(call);
    this.#size++;
  }

  /** Removes `call` if it is the one its id holds; false otherwise. */
  remove(call: T): boolean {
    const slot = slotOf(call.id, this.#mask);
    if (this.#slots[slot] === call) {
      this.#slots[slot] = undefined;
    } else {
      if (this.#displaced === undefined || this.#displaced.get(call.id) !== call) return false;
      this.#displaced.delete(call.id);
    }
    this.#size--;
    return true;
  }

  /** The calls waiting now (a copy: removing while iterating is safe). */
  values(): T[] {
    const calls = this.#slots.filter((call): call is T => call !== undefined);
    if (this.#displaced !== undefined) calls.push(...this.#displaced.values());
    return calls;
  }

  #place(call: T): void {
    const slot = slotOf(call.id, this.#mask);
    if (this.#slots[slot] === undefined) {
      this.#slots[slot] = call;
      return;
    }
    this.#displaced ??= new Map();
    this.#displaced.set(call.id, call);
  }

  #grow(): void {
    const calls = this.values();
    this.#slots = new Array<T | undefined>(this.#slots.length * 2).fill(undefined);
    this.#mask = this.#slots.length - 1;
    this.#displaced = undefined;
    for (const call of calls) this.#place(call);
  }
}

/** The slot of `id`: its low bits. */
function slotOf(id: number, mask: number): number {
  return id & mask;
}
