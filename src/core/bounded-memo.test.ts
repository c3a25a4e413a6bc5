import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boundedMemo } from "./bounded-memo.js";

describe("boundedMemo", () => {
  it("boundedMemo - computes a key once while under the limit, and per call past it", () => {
    const computed: string[] = [];
    const memo = boundedMemo(2, (key: string) => {
      computed.push(key);
      return { key };
    });
    const a = memo("a");
    assert.equal(memo("a"), a);
    memo("b");
    const c = memo("c");
    assert.notEqual(memo("c"), c);
    assert.equal(memo("b"), memo("b"));
    assert.deepEqual(computed, ["a", "b", "c", "c"]);
  });
});
