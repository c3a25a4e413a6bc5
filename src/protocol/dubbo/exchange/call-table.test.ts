import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CallTable } from "./call-table.js";

const call = (id: number) => ({ id });

describe("call table", () => {
  it("call table - finds, removes and lists calls across growth, colliding home slots and removals", () => {
    const table = new CallTable<{ id: number }>();
    // Ids 64 apart share a home slot in the first 64 slots; the negative ones are what a stray
    // answer's id reads as, and the large ones take their slot from their low bits.
    const ids = [0, 64, 128, 1, 65, -1, -65, 2 ** 40 + 3, Number.MAX_SAFE_INTEGER];
    const calls = ids.map(call);
    for (const c of calls) table.add(c);
    for (let n = 1000; n < 1200; n++) table.add(call(n));
    assert.equal(table.size, ids.length + 200);
    for (const c of calls) assert.equal(table.get(c.id), c);
    assert.equal(table.get(3), undefined);
    assert.equal(table.remove(call(64)), false, "only the call its id holds is removed");
    assert.equal(table.remove(calls[0]!), true);
    assert.equal(table.remove(calls[0]!), false);
    assert.equal(table.remove(calls[2]!), true);
    for (const c of [calls[1], calls[3], calls[4], calls[5], calls[6], calls[7], calls[8]]) {
      assert.equal(table.get(c!.id), c, `id ${c!.id} is still found after removals in its run`);
    }
    for (let n = 1000; n < 1200; n++) assert.equal(table.remove(table.get(n)!), true);
    assert.deepEqual(
      table
        .values()
        .map((c) => c.id)
        .sort((a, b) => a - b),
      [64, 1, 65, -1, -65, 2 ** 40 + 3, Number.MAX_SAFE_INTEGER].sort((a, b) => a - b),
    );
    assert.equal(table.size, 7);
  });

  it("call table - a client's sequence in flight 64 at a time keeps every lookup right", () => {
    const table = new CallTable<{ id: number }>();
    const inFlight: { id: number }[] = [];
    for (let n = 0; n < 5000; n++) {
      const c = call(n);
      table.add(c);
      inFlight.push(c);
      // Answers come back out of order: remove from the middle of the window.
      if (inFlight.length > 64) {
        const [answered] = inFlight.splice(n % 7, 1);
        assert.equal(table.get(answered!.id), answered);
        assert.equal(table.remove(answered!), true);
      }
    }
    assert.equal(table.size, 64);
    for (const c of inFlight) assert.equal(table.get(c.id), c);
  });

  it("call table - a call that waits while thousands pass it keeps its place, found and removed once", () => {
    const table = new CallTable<{ id: number }>();
    const waiting = call(0);
    table.add(waiting);
    const inFlight: { id: number }[] = [];
    // Ids 1.. run past the waiting call's slot again and again (64 in flight, a 128-slot table):
    // each of those lands on a slot another call may hold, the waiting one included.
    for (let n = 1; n < 3000; n++) {
      const c = call(n);
      table.add(c);
      inFlight.push(c);
      if (inFlight.length > 64) assert.equal(table.remove(inFlight.shift()!), true);
      assert.equal(table.get(0), waiting, `the waiting call is found after id ${n}`);
    }
    for (const c of inFlight) assert.equal(table.get(c.id), c);
    assert.equal(table.size, 65);
    assert.equal(table.remove(call(0)), false, "only the call its id holds is removed");
    assert.equal(table.remove(waiting), true);
    assert.equal(table.remove(waiting), false);
    assert.equal(table.get(0), undefined);
    assert.deepEqual(
      table
        .values()
        .map((c) => c.id)
        .sort((a, b) => a - b),
      inFlight.map((c) => c.id),
    );
  });
});
