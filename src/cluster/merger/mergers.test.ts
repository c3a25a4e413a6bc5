import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, ExtensionPoint, java, RpcError } from "../../core/index.js";
import {
  arrayMerger,
  isNoMergerSetting,
  listMerger,
  type Merger,
  mergerForType,
  mergeWithMethod,
  registerBuiltinMergers,
  resolveMerger,
} from "./index.js";

const SITE = { serviceKey: "com.foo.BarService", method: "list" };

function builtins(): ExtensionPoint<Merger> {
  const point = new ExtensionPoint<Merger>("merger");
  registerBuiltinMergers(point);
  return point;
}

describe("built-in mergers", () => {
  const point = builtins();
  const merge = (name: string, results: unknown[]) => point.get(name).merge(results);

  it("mergers - registers Java's names", () => {
    assert.deepEqual(point.names(), [
      "list",
      "set",
      "map",
      "byte",
      "char",
      "short",
      "int",
      "long",
      "float",
      "double",
      "boolean",
    ]);
  });

  it("mergers - list concatenates in group order and skips null results", () => {
    assert.deepEqual(merge("list", [[1, 2], null, [3], []]), [1, 2, 3]);
    assert.deepEqual(merge("list", [null, null]), []);
    assert.throws(() => merge("list", [[1], "text"]), /cannot merge a string as a list/);
  });

  it("mergers - set is the union", () => {
    const merged = merge("set", [new Set(["a", "b"]), null, new Set(["b", "c"])]);
    assert.deepEqual(merged, new Set(["a", "b", "c"]));
    assert.throws(() => merge("set", [new Set([1]), 5]), /cannot merge a number as a set/);
  });

  it("mergers - map: a later group overwrites an earlier key", () => {
    const merged = merge("map", [
      new Map([
        ["a", 1],
        ["b", 2],
      ]),
      new Map([["b", 3]]),
    ]);
    assert.deepEqual(
      merged,
      new Map([
        ["a", 1],
        ["b", 3],
      ]),
    );
    assert.deepEqual(merge("map", [{ a: 1 }, { a: 2, b: 3 }]), { a: 2, b: 3 });
    assert.deepEqual(
      merge("map", [new Map([["a", 1]]), { b: 2 }]),
      new Map<string, number>([
        ["a", 1],
        ["b", 2],
      ]),
    );
    assert.throws(() => merge("map", [[1]]), /cannot merge a Array as a map/);
  });

  it("mergers - number arrays concatenate (Java's Int/Long/Double… ArrayMerger)", () => {
    assert.deepEqual(merge("int", [[1, 2], null, [3]]), [1, 2, 3]);
    assert.deepEqual(merge("long", [[1n], [2n, 9007199254740993n]]), [1n, 2n, 9007199254740993n]);
    assert.deepEqual(
      merge("double", [new Float64Array([0.5]), new Float64Array([1.5, 2])]),
      new Float64Array([0.5, 1.5, 2]),
    );
    assert.deepEqual(merge("short", [[1], new Int16Array([2])]), [1, 2]);
  });

  it("mergers - byte arrays stay bytes, booleans and chars concatenate", () => {
    const bytes = merge("byte", [new Uint8Array([1, 2]), new Uint8Array([3])]);
    assert.ok(bytes instanceof Uint8Array);
    assert.deepEqual([...(bytes as Uint8Array)], [1, 2, 3]);
    assert.deepEqual(merge("boolean", [[true], [false, true]]), [true, false, true]);
    assert.deepEqual(merge("char", [["a"], ["b", "c"]]), ["a", "b", "c"]);
    assert.throws(() => merge("int", [[1], 2]), /cannot merge a number as an array/);
  });
});

describe("merger selection", () => {
  const point = builtins();
  const page: Merger = {
    forTypes: ["com.foo.Page"],
    merge: (results) => ({ total: results.reduce((n: number, r) => n + (r as { total: number }).total, 0) }),
  };
  point.register("page", page);

  it("merger selection - by return type, as MergerFactory", () => {
    assert.equal(mergerForType(point, java.List(java.String), []), point.get("list"));
    assert.equal(mergerForType(point, java.ArrayList(java.String), []), point.get("list"));
    assert.equal(mergerForType(point, java.Set(java.String), []), point.get("set"));
    assert.equal(mergerForType(point, java.Map(java.String, java.int), []), point.get("map"));
    assert.equal(mergerForType(point, java.array(java.int), []), point.get("int"));
    assert.equal(mergerForType(point, java.array(java.boolean), []), point.get("boolean"));
    assert.equal(mergerForType(point, java.bytes, []), point.get("byte"));
    assert.equal(mergerForType(point, java.array(java.String), []), arrayMerger);
    assert.equal(mergerForType(point, java.Class("com.foo.Page", { total: java.int }), []), page);
    assert.equal(mergerForType(point, java.String, ["a"]), undefined);
  });

  it("merger selection - without a declared type the first result's shape decides", () => {
    assert.equal(mergerForType(point, undefined, [null, [1]]), point.get("list"));
    assert.equal(mergerForType(point, undefined, [new Set()]), point.get("set"));
    assert.equal(mergerForType(point, undefined, [new Map()]), point.get("map"));
    assert.equal(mergerForType(point, undefined, [new Uint8Array(1)]), arrayMerger);
    assert.equal(mergerForType(point, undefined, ["text"]), undefined);
  });

  it("merger selection - true/default pick by type, a name picks that merger", () => {
    assert.equal(resolveMerger(point, "true", java.List(java.int), [], SITE), point.get("list"));
    assert.equal(resolveMerger(point, "DEFAULT", java.Set(java.int), [], SITE), point.get("set"));
    assert.equal(resolveMerger(point, "page", undefined, [], SITE), page);
  });

  it("merger selection - unknown names and unmergeable types are clear errors", () => {
    assert.throws(
      () => resolveMerger(point, "sum", undefined, [], SITE),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.FailedPrecondition &&
        /merger=sum on com\.foo\.BarService method list names no merger \(registered: list, set, map, byte/.test(
          e.message,
        ),
    );
    assert.throws(
      () => resolveMerger(point, "true", java.String, ["a", "b"], SITE),
      /there is no merger for the results of com\.foo\.BarService method list \(return type java\.lang\.String\); set merger=<name>/,
    );
  });

  it("merger selection - empty settings mean no merger, as ConfigUtils.isEmpty", () => {
    for (const value of [undefined, "", "false", "0", "null", "N/A"])
      assert.equal(isNoMergerSetting(value), true, value);
    for (const value of ["true", "list", ".addAll"]) assert.equal(isNoMergerSetting(value), false, value);
  });

  it("merger selection - a custom merger by name", () => {
    const sum: Merger = { merge: (results) => results.reduce((n: number, r) => n + Number(r), 0) };
    point.register("sum", sum);
    assert.equal(resolveMerger(point, "sum", java.int, [], SITE).merge([1, 2, 3]), 6);
  });
});

describe("merger=.method", () => {
  it("merger=.method - uses the returned value when it is of the result's kind", () => {
    assert.deepEqual(mergeWithMethod("concat", [[1], [2, 3], [4]], SITE), [1, 2, 3, 4]);
  });

  it("merger=.method - otherwise calls the method for its effect on the first result", () => {
    const first = [1];
    // push returns a number (Java: a return type not assignable to the result), so first is kept.
    assert.equal(mergeWithMethod("push", [first, 2, 3], SITE), first);
    assert.deepEqual(first, [1, 2, 3]);
    class Page {
      items: string[];
      constructor(items: string[]) {
        this.items = items;
      }
      addAll(other: Page): void {
        this.items.push(...other.items);
      }
    }
    const merged = mergeWithMethod("addAll", [new Page(["a"]), new Page(["b"]), new Page(["c"])], SITE);
    assert.deepEqual((merged as Page).items, ["a", "b", "c"]);
  });

  it("merger=.method - a method the result lacks is a clear error", () => {
    assert.throws(
      () => mergeWithMethod("addAll", [[1], [2]], SITE),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === Code.FailedPrecondition &&
        /merger=\.addAll names no method of the result \(a object\)/.test(e.message),
    );
    assert.deepEqual(listMerger.merge([[1], [2]]), [1, 2]);
  });
});
