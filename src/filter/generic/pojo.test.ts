import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { java, slotTypeOf } from "../../core/index.js";
import { generalize } from "./pojo-generalize.js";
import { realize } from "./pojo-realize.js";
import { PojoConversionError } from "./pojo-shape.js";

const Address = java.Class("com.foo.Address", { city: java.String, zip: java.int });
const Person = java.Class("com.foo.Person", {
  name: java.String,
  born: java.Date,
  address: Address,
  tags: java.List(java.String),
  scores: java.Map(java.String, java.long),
  level: java.enum("com.foo.Level", ["LOW", "HIGH"]),
});

describe("pojo", () => {
  it("pojo - realize turns a class map (plain object or Map) into the contract's shape", () => {
    const input = new Map<string, unknown>([
      ["class", "com.foo.Person"],
      ["name", "Ann"],
      ["born", 0],
      ["address", { class: "com.foo.Address", city: "Oslo", zip: "150" }],
      ["tags", ["a", "b"]],
      ["scores", { math: "9007199254740993" }],
      ["level", "HIGH"],
      ["unknownField", 1],
    ]);
    const out = realize(input, Person, "args[0]") as Record<string, unknown>;
    assert.deepEqual(out, {
      name: "Ann",
      born: new Date(0),
      address: { city: "Oslo", zip: 150 },
      tags: ["a", "b"],
      scores: new Map([["math", 9007199254740993n]]),
      level: "HIGH",
    });
  });

  it("pojo - realize names the path of a value it cannot convert", () => {
    assert.throws(
      () => realize({ address: { zip: "x1" } }, Person, "args[0]"),
      (e: unknown) => e instanceof PojoConversionError && e.path === "args[0].address.zip",
    );
    assert.throws(
      () => realize({ level: "MID" }, Person, "args[1]"),
      /args\[1\]\.level.*constants: LOW, HIGH/,
    );
    assert.throws(() => realize(null, java.int, "args[0]"), /is null but the parameter is int/);
    assert.throws(
      () => realize("text", Address, "args[0]"),
      /expected a map with the fields of com\.foo\.Address/,
    );
  });

  it("pojo - generalize gives POJOs a class key, keeps collections, dates and primitives", () => {
    const born = new Date(5);
    const value = {
      name: "Ann",
      born,
      address: { city: "Oslo", zip: 150 },
      tags: ["a"],
      scores: new Map([["m", 1]]),
      level: "LOW",
    };
    assert.deepEqual(generalize(value, Person), {
      class: "com.foo.Person",
      name: "Ann",
      born,
      address: { class: "com.foo.Address", city: "Oslo", zip: 150 },
      tags: ["a"],
      scores: new Map([["m", 1]]),
      level: "LOW",
    });
    assert.deepEqual(generalize([{ city: "A", zip: 1 }], java.List(Address)), [
      { class: "com.foo.Address", city: "A", zip: 1 },
    ]);
    assert.equal(generalize("plain", java.String), "plain");
  });

  it("pojo - generalize keeps a long, double or BigDecimal field's Java type as the map's slot type", () => {
    const Account = java.Class("com.foo.Account", {
      id: java.long,
      rate: java.Double,
      balance: java.BigDecimal,
      count: java.int,
      note: java.String,
    });
    const out = generalize({ id: 7, rate: 2, balance: "1.50", count: 3, note: "n" }, Account) as object;
    // The untyped writer writes the map's values by these: id a Long, not the Integer 7.
    assert.equal(slotTypeOf(out, "id")?.name, "long");
    assert.equal(slotTypeOf(out, "rate")?.name, "java.lang.Double");
    assert.equal(slotTypeOf(out, "balance")?.name, "java.math.BigDecimal");
    assert.equal(slotTypeOf(out, "count"), undefined);
    assert.equal(slotTypeOf(out, "note"), undefined);
  });

  it("pojo - shared references stay shared and cycles survive generalize", () => {
    const Pair = java.Class("com.foo.Pair", { left: Address, right: Address });
    const shared = { class: "com.foo.Address", city: "A", zip: 1 };
    const pair = realize({ left: shared, right: shared }, Pair, "args[0]") as Record<string, unknown>;
    assert.equal(pair.left, pair.right);
    const loop: Record<string, unknown> = { name: "l" };
    loop.self = loop;
    const out = generalize(loop, java.Object) as Record<string, unknown>;
    assert.equal(out.self, out);
  });
});
