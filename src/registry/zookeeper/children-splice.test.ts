import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { childrenSplice, onlyReorders } from "./children-splice.js";

describe("children splice", () => {
  test("children splice - one add or remove mid-list is a splice of that child only", () => {
    assert.deepEqual(childrenSplice(["a", "b", "c"], ["a", "x", "b", "c"]), {
      start: 1,
      beforeEnd: 1,
      afterEnd: 2,
    });
    assert.deepEqual(childrenSplice(["a", "b", "c"], ["a", "c"]), { start: 1, beforeEnd: 2, afterEnd: 1 });
    assert.deepEqual(childrenSplice(["a", "b"], ["a", "b"]), { start: 2, beforeEnd: 2, afterEnd: 2 });
    assert.deepEqual(childrenSplice([], ["a"]), { start: 0, beforeEnd: 0, afterEnd: 1 });
  });

  test("children splice - a reordered list is no change; a replaced child is one", () => {
    const before = ["a", "b", "c", "d"];
    const reordered = ["a", "c", "b", "d"];
    assert.equal(onlyReorders(before, reordered, childrenSplice(before, reordered)), true);
    const replaced = ["a", "x", "c", "d"];
    assert.equal(onlyReorders(before, replaced, childrenSplice(before, replaced)), false);
    const grown = ["a", "b", "c", "d", "e"];
    assert.equal(onlyReorders(before, grown, childrenSplice(before, grown)), false);
  });
});
