import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CallTable } from "./call-table.js";

const call = (id: bigint) => ({ id });

describe("call table", () => {
  it("call table - finds, removes and lists calls across growth, colliding home slots and removals", () => {
    const table = new CallTable<{ id: bigint }>();
    // Ids 64 apart share a home slot in the first 64 slots; the negative ones come after a wrap.
    const ids = [0n, 64n, 128n, 1n, 65n, -1n, -65n, 2n ** 63n - 1n, 9_007_199_254_740_993n];
    const calls = ids.map(call);
    for (const c of calls) table.add(c);
    for (let n = 1000n; n < 1200n; n++) table.add(call(n));
    assert.equal(table.size, ids.length + 200);
    for (const c of calls) assert.equal(table.get(c.id), c);
    assert.equal(table.get(3n), undefined);
    assert.equal(table.remove(call(64n)), false, "only the call its id holds is removed");
    assert.equal(table.remove(calls[0]!), true);
    assert.equal(table.remove(calls[0]!), false);
    assert.equal(table.remove(calls[2]!), true);
    for (const c of [calls[1], calls[3], calls[4], calls[5], calls[6], calls[7], calls[8]]) {
      assert.equal(table.get(c!.id), c, `id ${c!.id} is still found after removals in its run`);
    }
    for (let n = 1000n; n < 1200n; n++) assert.equal(table.remove(table.get(n)!), true);
    assert.deepEqual(
      table
        .values()
        .map((c) => c.id)
        .sort(),
      [64n, 1n, 65n, -1n, -65n, 2n ** 63n - 1n, 9_007_199_254_740_993n].sort(),
    );
    assert.equal(table.size, 7);
  });

  it("call table - a client's sequence in flight 64 at a time keeps every lookup right", () => {
    const table = new CallTable<{ id: bigint }>();
    const inFlight: { id: bigint }[] = [];
    for (let n = 0n; n < 5000n; n++) {
      const c = call(n);
      table.add(c);
      inFlight.push(c);
      // Answers come back out of order: remove from the middle of the window.
      if (inFlight.length > 64) {
        const [answered] = inFlight.splice(Number(n % 7n), 1);
        assert.equal(table.get(answered!.id), answered);
        assert.equal(table.remove(answered!), true);
      }
    }
    assert.equal(table.size, 64);
    for (const c of inFlight) assert.equal(table.get(c.id), c);
  });
});
