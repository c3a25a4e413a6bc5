import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Url } from "../../core/index.js";
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

  test("param name sets - decoded URLs of one shape get the id of their names, as any map of them does", () => {
    const sets = new ParamNameSets();
    const node = (host: string, extra: Record<string, string>) =>
      new Url({
        protocol: "dubbo",
        host,
        port: 20880,
        path: "com.foo.S",
        params: { a: "1", b: host, ...extra },
      }).encode();
    const first = Url.decode(node("10.0.0.1", {}));
    const second = Url.decode(node("10.0.0.2", {}));
    const other = Url.decode(node("10.0.0.3", { c: "3" }));
    assert.equal(sets.idOf(first.params), "a&b");
    assert.equal(sets.idOf(second.params), "a&b");
    assert.equal(sets.idOf(other.params), "a&b&c");
    assert.equal(sets.idOf(new Map(other.params)), "a&b&c");
  });
});
