import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { java } from "../java/java-type.js";
import { defineService } from "./service-definition.js";

describe("defineService", () => {
  it("keeps the interface name and each method's Java types", () => {
    const Demo = defineService("org.apache.dubbo.demo.DemoService", {
      sayHello: { args: [java.String], returns: java.String },
      add: { args: [java.int, java.long], returns: java.long },
    });
    assert.equal(Demo.interfaceName, "org.apache.dubbo.demo.DemoService");
    assert.deepEqual(
      Demo.methods.add.args.map((t) => t.descriptor),
      ["I", "J"],
    );
    assert.equal(Demo.methods.sayHello.returns.name, "java.lang.String");
  });

  it("rejects bad interface names, reserved or invalid method names and missing types", () => {
    assert.throws(() => defineService("not a name", {}), /is not a Java interface name/);
    assert.throws(() => defineService("a.B", { $echo: { args: [], returns: java.void } }), /reserved/);
    assert.throws(
      () => defineService("a.B", { "say-hello": { args: [], returns: java.void } }),
      /not a valid method name/,
    );
    assert.throws(
      () => defineService("a.B", { f: { args: [{}] as never, returns: java.void } }),
      /argument 0 of "f" is not a Java type/,
    );
    assert.throws(() => defineService("a.B", { f: {} as never }), /needs \{ args/);
  });
});
