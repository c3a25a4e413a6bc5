import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { defineService } from "../rpc/service-definition.js";
import { java } from "./java-type.js";
import { checkJavaValue } from "./java-value-check.js";

/** `levels` nested lists whose two elements are one shared node: 2^levels leaves when expanded. */
function sharedGraph(levels: number, leaf: unknown): unknown {
  let x = leaf;
  for (let i = 0; i < levels; i++) x = [x, x];
  return x;
}

function nestedListType(levels: number) {
  let t = java.List(java.String) as ReturnType<typeof java.List>;
  for (let i = 1; i < levels; i++) t = java.List(t) as ReturnType<typeof java.List>;
  return t;
}

describe("checkJavaValue", () => {
  it("check - scalars: the JS shapes a declared type decodes to pass, others are named", () => {
    assert.equal(checkJavaValue("ann", java.String, "args[0]"), undefined);
    assert.equal(checkJavaValue(null, java.String, "args[0]"), undefined);
    assert.equal(checkJavaValue(5n, java.long, "args[0]"), undefined);
    assert.deepEqual(checkJavaValue([1, 1, 1], java.String, "args[0]"), {
      path: "args[0]",
      expected: "java.lang.String",
      actual: "a list of 3",
    });
    assert.equal(checkJavaValue(new Map([["a", 1]]), java.String, "args[0]")?.actual, "a map of 1");
    assert.equal(checkJavaValue(null, java.int, "args[1]")?.expected, "int");
    assert.equal(checkJavaValue(2.5, java.int, "args[1]")?.actual, "a fractional number");
    assert.equal(checkJavaValue(2 ** 31, java.int, "args[1]")?.actual, `the number ${2 ** 31}`);
    assert.equal(checkJavaValue("AB", java.char, "c")?.expected, "char (one character)");
    assert.equal(checkJavaValue({ any: "thing" }, java.Object, "o"), undefined);
  });

  it("check - containers and classes name the path of the first wrong element or field", () => {
    const User = java.Class("com.foo.User", { id: java.long, tags: java.List(java.String) });
    assert.equal(checkJavaValue({ id: 1, tags: ["a", "b"] }, User, "args[0]"), undefined);
    assert.equal(checkJavaValue({ id: 1 }, User, "args[0]"), undefined, "an absent field is Java's default");
    assert.deepEqual(checkJavaValue({ id: 1, tags: ["a", 7] }, User, "args[0]"), {
      path: "args[0].tags[1]",
      expected: "java.lang.String",
      actual: "the number 7",
    });
    const byId = java.Map(java.long, User);
    assert.equal(checkJavaValue(new Map([[1, "x"]]), byId, "m")?.path, "m[entry 0].value");
    assert.equal(checkJavaValue("RED", java.enum("com.foo.Color", ["RED", "BLUE"]), "e"), undefined);
    assert.match(
      checkJavaValue("PINK", java.enum("com.foo.Color", ["RED"]), "e")?.expected ?? "",
      /one of RED/,
    );
  });

  it("check - a graph of shared references is checked once per node, not once per path", () => {
    // 2^60 paths: only a walk that visits each shared node once ends.
    const type = nestedListType(60);
    assert.equal(checkJavaValue(sharedGraph(60, "leaf"), type, "args[0]"), undefined);
    const wrong = checkJavaValue(sharedGraph(60, 7), type, "args[0]");
    assert.equal(wrong?.path, `args[0]${"[0]".repeat(60)}`);
    assert.equal(checkJavaValue(sharedGraph(60, "leaf"), java.String, "args[0]")?.actual, "a list of 2");
  });
});

describe("defineService overloads", () => {
  it("overloads - entries sharing a javaName need different parameter types", () => {
    const contract = defineService("com.foo.Greeter", {
      sayHello: { args: [java.String], returns: java.String },
      sayHelloTimes: { javaName: "sayHello", args: [java.String, java.int], returns: java.String },
    });
    assert.equal(contract.methods.sayHelloTimes.javaName, "sayHello");
    assert.throws(
      () =>
        defineService("com.foo.Greeter", {
          sayHello: { args: [java.String], returns: java.String },
          hello: { javaName: "sayHello", args: [java.String], returns: java.void },
        }),
      /"sayHello" and "hello" both declare sayHello\(Ljava\/lang\/String;\)/,
    );
    assert.throws(
      () => defineService("com.foo.Greeter", { a: { javaName: "not a name", args: [], returns: java.void } }),
      /javaName "not a name", which is not a Java method name/,
    );
  });
});
