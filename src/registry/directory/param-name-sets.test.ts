import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ParamNameSets } from "./param-name-sets.js";

describe("param name sets", () => {
  test("param name sets - the same names give one id; other names, a prefix or another order do not", () => {
    const sets = new ParamNameSets();
    const id = sets.idOf(
      new Map([
        ["a", "1"],
        ["b", "2"],
      ]),
    );
    assert.equal(id, "a&b");
    assert.equal(
      sets.idOf(
        new Map([
          ["a", "9"],
          ["b", "8"],
        ]),
      ),
      id,
    );
    assert.equal(sets.idOf(new Map([["a", "1"]])), "a");
    assert.equal(
      sets.idOf(
        new Map([
          ["b", "2"],
          ["a", "1"],
        ]),
      ),
      "b&a",
    );
    assert.equal(sets.idOf(new Map()), "");
  });
});
