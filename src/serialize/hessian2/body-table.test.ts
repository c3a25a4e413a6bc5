// The per-body tables a reused writer or reader keeps (back-references, class definitions, types)
// must behave as fresh ones after every reset or restart, below and beyond the entries they scan.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { java } from "../../core/index.js";
import { BodyList, BodyTable } from "./body-table.js";
import { decodeHessian, encodeHessian, Hessian2Reader, Hessian2Writer } from "./index.js";

const Item = java.Class("com.foo.Item", { id: java.int });
const ItemList = java.List(Item);

/** `count` distinct objects, each listed twice: the second is a back-reference. */
function sharedItems(count: number): unknown[] {
  const items = Array.from({ length: count }, (_, id) => ({ id }));
  return [...items, ...items];
}

describe("BodyTable", () => {
  it("finds, overwrites and forgets entries below and beyond the scan limit", () => {
    for (const count of [3, 8, 9, 40]) {
      const table = new BodyTable<object, number>();
      const keys = Array.from({ length: count }, () => ({}));
      for (const [i, key] of keys.entries()) table.set(key, i);
      for (const [i, key] of keys.entries()) assert.equal(table.get(key), i);
      table.set(keys[0]!, 99);
      assert.equal(table.get(keys[0]!), 99);
      assert.equal(table.size, count);
      table.retain((value) => value < 2);
      assert.deepEqual(
        keys.map((key) => table.get(key)),
        keys.map((_, i) => (i === 1 ? 1 : undefined)),
      );
      table.clear();
      assert.equal(table.size, 0);
      assert.equal(table.get(keys[1]!), undefined);
    }
  });

  it("lets a reused writer encode each body as a fresh writer does", () => {
    const writer = new Hessian2Writer();
    for (const count of [12, 2, 9, 1]) {
      const value = sharedItems(count);
      writer.writeValue(value, ItemList);
      const bytes = Buffer.from(writer.toBuffer());
      writer.reset();
      assert.equal(bytes.toString("hex"), encodeHessian(value, ItemList).toString("hex"), `${count} items`);
      const decoded = decodeHessian(bytes, ItemList) as unknown[];
      assert.equal(JSON.stringify(decoded), JSON.stringify(value));
      assert.equal(decoded[0], decoded[count], "the second listing is the same object");
    }
  });

  it("lets a restarted reader decode each body as a fresh reader does, with nothing left of the last", () => {
    const reader = new Hessian2Reader(encodeHessian(sharedItems(12), ItemList));
    assert.equal((reader.readValue(ItemList) as unknown[]).length, 24);
    for (const count of [2, 9, 1, 30]) {
      reader.restart(encodeHessian(sharedItems(count), ItemList));
      const decoded = reader.readValue(ItemList) as unknown[];
      assert.equal(JSON.stringify(decoded), JSON.stringify(sharedItems(count)), `${count} items`);
      assert.equal(decoded[0], decoded[count], "the second listing is the same object");
    }
    // The last body defined a class and 31 references; a body that uses them without defining them is refused.
    reader.restart(Buffer.from([0x60]));
    assert.throws(() => reader.readValue(), /class definition #0, but only 0 are defined/);
    reader.restart(Buffer.from([0x51, 0x90]));
    assert.throws(() => reader.readValue(), /reference #0 out of range \(0 objects read so far\)/);
    reader.restart(Buffer.from([0x4e, 0x91]), 1);
    assert.equal(reader.readValue(), 1);
  });
});

describe("BodyList", () => {
  it("numbers entries from 0 again after a clear and answers nothing past its length", () => {
    const list = new BodyList<string>();
    assert.equal(list.push("a"), 0);
    assert.equal(list.push("b"), 1);
    list.set(1, "c");
    assert.equal(list.at(1), "c");
    list.clear();
    assert.equal(list.length, 0);
    assert.equal(list.at(0), undefined);
    list.set(0, "ignored");
    assert.equal(list.at(0), undefined);
    assert.equal(list.push("d"), 0);
    assert.equal(list.at(0), "d");
  });
});
