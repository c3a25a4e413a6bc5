import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BodyTable } from "./body-table.js";

describe("hessian2 body table", () => {
  it("body table - identity keys, overwrite, growth past the scanned entries, deleteWhere and clear", () => {
    const table = new BodyTable<object, number>();
    const keys = Array.from({ length: 20 }, () => ({}));
    for (const [size, crossesToMap] of [
      [5, false],
      [20, true],
    ] as const) {
      for (let i = 0; i < size; i++) table.set(keys[i]!, i);
      assert.equal(table.size, size, `size ${size} (map: ${crossesToMap})`);
      assert.equal(table.get({}), undefined, "an equal-looking object is another key");
      table.set(keys[1]!, 100);
      assert.equal(table.get(keys[1]!), 100);
      assert.equal(table.size, size);
      table.deleteWhere((value) => value >= 3 && value < 100);
      assert.deepEqual(
        keys.slice(0, size).map((k) => table.get(k)),
        keys.slice(0, size).map((_, i) => (i === 1 ? 100 : i < 3 ? i : undefined)),
      );
      table.clear();
      assert.equal(table.size, 0);
      assert.equal(table.get(keys[0]!), undefined);
    }
  });
});
